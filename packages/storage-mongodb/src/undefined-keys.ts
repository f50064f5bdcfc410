import type { Store } from '@rm/storage';

/**
 * The client runs with `ignoreUndefined` (connect.ts), which strips an undefined value from a
 * filter as well as from a document: `{ _id: undefined, revokedAt: null }` would become
 * `{ revokedAt: null }` and revoke an arbitrary key. So every method that finds or changes a
 * record by its key answers "nothing" for a key that is not a string, before any filter is built,
 * as the SQLite store (where an undefined key binds NULL and matches no row) answers; a write that
 * would store a record without its key is refused.
 */
type Key = (args: unknown[]) => unknown;
const first: Key = (args) => args[0];
const field =
  (name: string): Key =>
  (args) =>
    (args[0] as Record<string, unknown> | undefined)?.[name];

/** A privacy subject's own id: the player's, or the reporter's with their platform. */
const subjectKey = (subject: unknown): unknown => {
  const s = subject as { kind?: unknown; userId?: unknown; platform?: unknown; reporterId?: unknown } | undefined;
  if (s?.kind === 'player') return s.userId;
  return s?.kind === 'reporter' && typeof s.platform === 'string' ? s.reporterId : undefined;
};

/** Lookups and conditional changes: the method's answer when the key is missing. */
const NOTHING: { [M in keyof Store]?: { key: Key; answer: () => Awaited<ReturnType<Extract<Store[M], (...a: never[]) => unknown>>> } } = {
  getApiKey: { key: first, answer: () => null },
  revokeApiKey: { key: first, answer: () => false },
  getUser: { key: first, answer: () => null },
  isBanned: { key: first, answer: () => false },
  getModerator: { key: first, answer: () => null },
  getReport: { key: first, answer: () => null },
  listReportsByUser: { key: first, answer: () => ({ total: 0, reports: [] }) },
  getCase: { key: first, answer: () => null },
  openCaseOfUser: { key: first, answer: () => null },
  caseReportIds: { key: first, answer: () => [] },
  caseReporters: { key: first, answer: () => [] },
  transitionCase: { key: field('caseId'), answer: () => null },
  findDecision: { key: first, answer: () => null },
  caseHistory: { key: first, answer: () => [] },
  lastCaseEvent: { key: first, answer: () => null },
  editMessage: { key: first, answer: () => null },
  getCaseMessage: { key: first, answer: () => null },
  findDelivery: { key: first, answer: () => null },
  recordSlaBreach: { key: field('caseId'), answer: () => false },
  sanctionsOfUser: { key: first, answer: () => [] },
  sanctionSummariesOfUser: { key: first, answer: () => [] },
  sanctionTallyOfUser: { key: first, answer: () => ({ active: 0, ended: 0, banning: 0 }) },
  getSanction: { key: first, answer: () => null },
  liftSanction: { key: field('sanctionId'), answer: () => null },
  expireSanction: { key: field('sanctionId'), answer: () => null },
  sanctionEventsOf: { key: first, answer: () => [] },
  pendingEffectsOf: { key: first, answer: () => [] },
  caseReports: { key: first, answer: () => [] },
  getCaseTriage: { key: first, answer: () => null },
  getAppeal: { key: first, answer: () => null },
  transitionAppeal: { key: field('appealId'), answer: () => null },
  findAppealDecision: { key: first, answer: () => null },
  appealHistory: { key: first, answer: () => [] },
  recordAppealSlaBreach: { key: first, answer: () => false },
  getHold: { key: first, answer: () => null },
  releaseHold: { key: field('id'), answer: () => null },
  evidenceAudit: { key: first, answer: () => [] },
  subjectReports: { key: (args) => subjectKey(args[0]), answer: () => ({ reports: [], cursor: null }) },
  subjectRecords: { key: (args) => subjectKey(args[0]), answer: () => ({ user: null, cases: [], sanctions: [], appeals: [], reporterStats: null, outcomes: [], holds: [] }) },
};

/** Writes that store or replace a record under its key: refused without one. */
const REFUSED: { [M in keyof Store]?: Key } = {
  createApiKey: field('key'),
  addUser: field('id'),
  addModerator: field('id'),
  saveModerator: field('id'),
  setCaseMessage: field('caseId'),
  recordDelivery: field('key'),
  setCaseTriage: field('caseId'),
  // Its sanction is the filter that finds an earlier appeal; its id is the new one's _id.
  createAppeal: (args) => {
    const a = args[0] as { id?: unknown; sanctionId?: unknown } | undefined;
    return typeof a?.id === 'string' ? a.sanctionId : undefined;
  },
  // Its target is what the hold keeps; its id the hold's _id.
  placeHold: (args) => {
    const h = args[0] as { id?: unknown; target?: { id?: unknown } } | undefined;
    return typeof h?.id === 'string' ? h.target?.id : undefined;
  },
  // Without its subject's id, a step would page and scrub every report.
  eraseSubject: (args) => subjectKey((args[0] as { subject?: unknown } | undefined)?.subject),
};

export function refuseUndefinedKeys(store: Store): Store {
  const guarded: Record<string, unknown> = { ...store };
  const methods = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const [name, rule] of Object.entries(NOTHING)) {
    const method = methods[name]!;
    guarded[name] = (...args: unknown[]) => (typeof rule.key(args) === 'string' ? method(...args) : Promise.resolve(rule.answer()));
  }
  for (const [name, key] of Object.entries(REFUSED)) {
    const method = methods[name]!;
    guarded[name] = (...args: unknown[]) =>
      typeof key(args) === 'string' ? method(...args) : Promise.reject(new TypeError(`${name}: the record has no key (a string is required)`));
  }
  // Ids and reporters that are not strings name nothing (an undefined field would vanish from $or).
  guarded['reporterStats'] = (reporters: { platform: unknown; id: unknown }[]) =>
    store.reporterStats(reporters.filter((r) => typeof r.platform === 'string' && typeof r.id === 'string') as Parameters<Store['reporterStats']>[0]);
  guarded['reporterOutcomes'] = (reporter: { platform: unknown; id: unknown }, after: number, limit: number) =>
    typeof reporter?.platform === 'string' && typeof reporter.id === 'string' ? store.reporterOutcomes(reporter as Parameters<Store['reporterOutcomes']>[0], after, limit) : Promise.resolve([]);
  guarded['holdsOn'] = (targets: { type: unknown; id: unknown }[], activeAt: number | null) =>
    store.holdsOn(targets.filter((t) => typeof t.type === 'string' && typeof t.id === 'string') as Parameters<Store['holdsOn']>[0], activeAt);
  guarded['completeEffects'] = (ids: unknown[], at: number) => store.completeEffects(ids.filter((id): id is string => typeof id === 'string'), at);
  return guarded as unknown as Store;
}
