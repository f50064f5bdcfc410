import type { ChatPlatform } from '@rm/platforms';
import type { AppealStore } from '@rm/storage';
import type { SlaOutcome } from './escalate-sla.js';

/**
 * An appeal's SLA (the policy's appeals.sla after its submission) ran out. If it is still
 * undecided (open or claimed), it is escalated once: flagged `slaBreached` and announced in the
 * escalation channel (keyed by the appeal: a retried job posts once). A decided appeal met it.
 */
export async function escalateAppealSla(
  deps: { store: AppealStore; chat: Pick<ChatPlatform, 'post'>; settings: { escalationChannel: string } },
  appealId: string,
  slaMs: number,
): Promise<SlaOutcome> {
  const a = await deps.store.getAppeal(appealId);
  if (!a || (a.state !== 'open' && a.state !== 'claimed')) return 'met';
  await deps.store.recordAppealSlaBreach(appealId);
  const holder = a.claimedBy ? `claimed by ${a.claimedBy}` : 'unclaimed';
  await deps.chat.post(deps.settings.escalationChannel, {
    kind: 'appeal.escalated',
    content: `Appeal SLA breached: appeal ${a.id} of sanction ${a.sanctionId} (user ${a.userId}, category ${a.category ?? 'none'}) is still undecided after ${Math.round(slaMs / 1000)} s (${holder})`,
    dedupeKey: `appeal-sla-${a.id}`,
  });
  return 'escalated';
}
