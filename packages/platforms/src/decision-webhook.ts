import { createHmac } from 'node:crypto';
import type { DecisionWebhookBody, SanctionWebhookBody } from '@rm/contracts';
import { deliverOnce, type DeliveryLog } from './deliveries.js';
import { callPlatform, isOk, statusError } from './http.js';

const SIGNATURE_HEADER = 'x-signature';
const EVENT_ID_HEADER = 'x-event-id';

/** `sha256=<hex>`: HMAC-SHA256 of the exact bytes of the body, keyed by DECISION_WEBHOOK_SECRET. */
export function signBody(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;
}

export interface DecisionWebhook {
  /** Sends once per key; throws PlatformError when the receiver fails or does not answer in time. */
  send(key: string, body: DecisionWebhookBody | SanctionWebhookBody): Promise<void>;
}

const PLATFORM = 'the decision webhook';

/**
 * Posts decisions as signed JSON to DECISION_WEBHOOK_URL, so a game server can enforce bans.
 * `X-Event-Id` is the decision id: a receiver that sees it twice (our crash between its 2xx and
 * our record) can ignore the second.
 */
export function decisionWebhook(options: { url: string; secret: string; timeoutMs: number; deliveries: DeliveryLog }): DecisionWebhook {
  return {
    async send(key, body) {
      await deliverOnce(options.deliveries, key, async () => {
        const raw = JSON.stringify(body);
        // A sanction change's id is its feed seq: the same dedupe key as GET /v1/sanctions.
        const eventId = 'seq' in body ? `sanction-${body.seq}` : body.decisionId;
        const headers = { [SIGNATURE_HEADER]: signBody(options.secret, raw), [EVENT_ID_HEADER]: eventId };
        const answer = await callPlatform({ platform: PLATFORM, metric: 'webhook', timeoutMs: options.timeoutMs, headers, maxInlineRetryAfterMs: options.timeoutMs }, 'POST', options.url, raw);
        if (!isOk(answer.status)) throw statusError(PLATFORM, `the ${body.event} event ${eventId}`, answer.status);
        return null;
      });
    },
  };
}
