import { randomUUID } from 'node:crypto';
import { ERASED_TEXT, type AnswerKeep, type RetentionSweepKind, type RetentionStep } from './ports/privacy.js';
import type { CaseState, ReportRecord } from './ports/reports.js';
import { eraseAnswers, eraseEvidenceLinks } from './privacy-scrub.js';

/**
 * What the retention sweep and erasure write, and where a sweep is, the same on every store
 * (`@rm/storage/adapter`): the rules live once so SQLite and MongoDB erase and page exactly alike.
 */

/** Pseudonyms start with this: a reporter's (erasure, reporterIdentity) and a player's (dismissedCases). */
export const PSEUDONYM_PREFIX = 'erased-';

/** A new pseudonym: random, never derived from the id it replaces, so nobody can tell whose it was. */
export const newPseudonym = (): string => `${PSEUDONYM_PREFIX}${randomUUID()}`;

/** Whether an id is a pseudonym already (a second sweep leaves it as it is). */
export const isPseudonym = (id: string): boolean => id.startsWith(PSEUDONYM_PREFIX);

/** What goes from a report: the names it copied from the directory, its free text, its reporter's id. */
export interface ReportScrub {
  names: boolean;
  text: boolean;
  /** What replaces the reporter's id, or null to keep it. */
  reporter: string | null;
}

export type ScrubbedReport = Pick<ReportRecord, 'answers' | 'evidence' | 'user' | 'reporterId'>;

/** A report as `scrub` leaves it: the erasure of a player (names, text), of a reporter (text, id), and each retention kind. */
export function scrubbedReport(r: Pick<ReportRecord, 'answers' | 'evidence' | 'user' | 'reporterId'>, scrub: ReportScrub, keep: AnswerKeep): ScrubbedReport {
  return {
    answers: scrub.text ? eraseAnswers(r.answers, keep) : r.answers,
    evidence: scrub.text ? eraseEvidenceLinks(r.evidence) : r.evidence,
    user: scrub.names ? { name: ERASED_TEXT, displayName: ERASED_TEXT, avatar: null } : r.user,
    reporterId: scrub.reporter ?? r.reporterId,
  };
}

/** Whether scrubbing changed anything (a report erased before is examined, not erased). */
export const reportScrubChanged = (before: ScrubbedReport, after: ScrubbedReport): boolean =>
  JSON.stringify([before.answers, before.evidence, before.user, before.reporterId]) !== JSON.stringify([after.answers, after.evidence, after.user, after.reporterId]);

/** The kinds the sweep applies to decided cases, and what each takes from one. */
export type CaseRetentionKind = Exclude<RetentionSweepKind, 'appealStatements' | 'auditEntries' | 'erasedPlayers'>;

export interface CaseRetention {
  /** The decided states it applies to, in the order the sweep reads them. */
  states: CaseState[];
  names: boolean;
  text: boolean;
  reporter: boolean;
  /** The case's chat message is answered, to be rewritten without the player. */
  message: boolean;
  /** Its kept evidence is deleted, and the player's id on its rows becomes a pseudonym. */
  whole: boolean;
}

const DECIDED: CaseState[] = ['approved', 'dismissed'];
const none = { names: false, text: false, reporter: false, message: false, whole: false };

export const CASE_RETENTION: Record<CaseRetentionKind, CaseRetention> = {
  directoryNames: { ...none, states: DECIDED, names: true },
  reportText: { ...none, states: DECIDED, text: true },
  reporterIdentity: { ...none, states: DECIDED, reporter: true },
  caseMessages: { ...none, states: DECIDED, message: true },
  dismissedCases: { states: ['dismissed'], names: true, text: true, reporter: true, message: true, whole: true },
};

export const isCaseRetentionKind = (kind: RetentionSweepKind): kind is CaseRetentionKind => kind in CASE_RETENTION;

/**
 * A decision's recorded answer (case_events' result) with the player's id replaced: an approval's
 * `reportedUser` and its message ("user 42 is banned") name them.
 */
export function pseudonymisedResult(result: unknown, userId: string, pseudonym: string): unknown {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(result) || !isObject(result['data'])) return result;
  const data = { ...result['data'] };
  if (data['reportedUser'] === userId) data['reportedUser'] = pseudonym;
  if (typeof data['message'] === 'string') data['message'] = data['message'].split(`user ${userId} `).join(`user ${pseudonym} `);
  return { ...result, data };
}

/**
 * Where a retention sweep of one kind is. A case kind reads the cases it kept before (`waiting`,
 * by id), then, state by state, the cases decided since the last sweep stopped (`new`, by decision
 * time and id, from the stored mark when `after` is null); appeals the same without states; audit
 * entries by seq; erased players by id (`waiting`: each is read by every sweep until it is done).
 */
export type RetentionPosition =
  | { phase: 'waiting'; after: string }
  | { phase: 'new'; state: CaseState | null; after: [number, string] | null }
  | { phase: 'entries'; after: number };

/** The states a kind's `new` phase reads, in order (null: appeals, which have none; erased players have no `new` phase). */
export function retentionStates(kind: RetentionSweepKind): (CaseState | null)[] {
  if (kind === 'erasedPlayers') return [];
  return isCaseRetentionKind(kind) ? CASE_RETENTION[kind].states : [null];
}

/** The key of the stored mark where a kind's sweep (of one state) stopped. */
export const retentionMarkKey = (kind: RetentionSweepKind, state: CaseState | null): string => (state === null ? kind : `${kind}/${state}`);

export function decodeRetentionCursor(step: Pick<RetentionStep, 'kind' | 'cursor'>): RetentionPosition {
  if (step.cursor !== null) return JSON.parse(step.cursor) as RetentionPosition;
  return step.kind === 'auditEntries' ? { phase: 'entries', after: 0 } : { phase: 'waiting', after: '' };
}

/**
 * The cursor after a page read at `at`: the same phase after its last record while pages come back
 * full, else the next phase (the next state's `new`), else null (the sweep of this kind is done).
 * `last` is the page's last record's key; `stop` ends the phase early (audit entries not yet due).
 */
export function nextRetentionCursor(kind: RetentionSweepKind, at: RetentionPosition, page: { full: boolean; last: string | number | [number, string] | undefined; stop?: boolean }): string | null {
  const encode = (p: RetentionPosition) => JSON.stringify(p);
  const more = page.full && page.last !== undefined && page.stop !== true;
  if (at.phase === 'entries') return more ? encode({ phase: 'entries', after: page.last as number }) : null;
  if (at.phase === 'waiting') {
    if (more) return encode({ phase: 'waiting', after: page.last as string });
    const first = retentionStates(kind)[0];
    return first === undefined ? null : encode({ phase: 'new', state: first, after: null });
  }
  if (more) return encode({ ...at, after: page.last as [number, string] });
  const states = retentionStates(kind);
  const next = states[states.indexOf(at.state) + 1];
  return next === undefined ? null : encode({ phase: 'new', state: next, after: null });
}
