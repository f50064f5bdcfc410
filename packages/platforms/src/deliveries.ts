import type { DecisionStore } from '@rm/storage';

/** Where deliveries to outside systems are remembered (the store). */
export type DeliveryLog = Pick<DecisionStore, 'findDelivery' | 'recordDelivery'>;

/**
 * Delivers once per key: a key already delivered answers the first delivery's id without sending.
 * A crash between sending and recording can still send twice; nothing outside our store can close
 * that gap for a platform that takes no idempotency key.
 */
export async function deliverOnce(log: DeliveryLog, key: string, send: () => Promise<string | null>): Promise<string | null> {
  const earlier = await log.findDelivery(key);
  if (earlier) return earlier.externalId;
  const externalId = await send();
  return (await log.recordDelivery({ key, externalId, deliveredAt: Date.now() })).externalId;
}
