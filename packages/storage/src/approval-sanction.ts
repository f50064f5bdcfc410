import type { StatementOfReasons } from '@rm/contracts';
import type { Transition } from './ports/decisions.js';
import type { LadderNote, SanctionSource } from './ports/sanctions.js';

/** The sanction an approval creates, with the defaults of earlier versions: a login-blocking `ban` from the case. */
export function approvalSanction(t: Transition): {
  reason: string | null;
  expiresAt: number | null;
  kind: string;
  blocksLogin: boolean;
  category: string | null;
  source: SanctionSource;
  ladder: LadderNote | null;
  statement: StatementOfReasons | null;
} {
  const s = t.sanction ?? { reason: null, expiresAt: null };
  return {
    reason: s.reason ?? null,
    expiresAt: s.expiresAt ?? null,
    kind: s.kind ?? 'ban',
    blocksLogin: s.blocksLogin ?? true,
    category: s.category ?? null,
    source: s.source ?? { type: 'case', id: t.caseId },
    ladder: s.ladder ?? null,
    statement: s.statement ?? null,
  };
}
