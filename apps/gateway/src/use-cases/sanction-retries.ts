import type { NewSanction, SanctionRecord } from '@rm/storage';

type Asked = Pick<SanctionRecord, 'userId' | 'kind' | 'category' | 'reason' | 'source' | 'evidence' | 'statement'>;

/**
 * What a trusted system asked for, by the body's field names, as a new item and a stored sanction
 * both tell it. Left out: the times (a retry comes later, a late retry of a wave takes effect at
 * once), blocksLogin and the statement's policy texts (they follow the policy, not the request).
 * The statement's ground and automation exist only on sanctions of versions with statements.
 */
function askedFor(s: Asked, durationMs: number | null): Record<string, unknown> {
  const ground = s.statement?.ground;
  return {
    userId: s.userId,
    kind: s.kind,
    category: s.category,
    reason: s.reason,
    source: [s.source.type, s.source.id],
    evidence: s.evidence.map((e) => [e.url, e.type]),
    duration: durationMs,
    ...(ground && { illegalContent: ground.type === 'illegal' ? [ground.law, ground.explanation] : null }),
    ...(s.statement && { automatedDecision: s.statement.automation.automatedDecision }),
  };
}

/** A sanction's duration as asked: from its start (a wave's effectiveAt, else its creation); null: permanent. */
const durationOf = (s: SanctionRecord) => (s.expiresAt === null ? null : s.expiresAt - (s.effectiveAt ?? s.createdAt));

/**
 * The fields in which a request differs from the sanction its idempotency key already names (empty
 * for a true retry): a key reused for another request must not answer as if it were the same.
 */
export function fieldsChangedSince(stored: SanctionRecord, item: NewSanction, durationMs: number | null): string[] {
  const before = askedFor(stored, durationOf(stored));
  const now = askedFor(item, durationMs);
  return Object.keys(now).filter((field) => field in before && JSON.stringify(before[field]) !== JSON.stringify(now[field]));
}
