import { createHash } from 'node:crypto';
import type { StatementOfReasons } from '@rm/contracts';
import { ERASED_TEXT, type AnswerKeep, type HoldTarget, type PrivacySubject } from './ports/privacy.js';
import type { AppealRecord } from './ports/appeals.js';
import type { ReportRecord } from './ports/reports.js';
import type { SanctionEvidence } from './ports/sanctions.js';

/**
 * What erasure writes in place of personal data, the same on every store (`@rm/storage/adapter`):
 * the rules live once so SQLite and MongoDB erase exactly alike.
 */

/** A subject as the audit names it: SHA-256 of a fixed spelling, so the trail never holds the id itself. */
export function privacySubjectRef(subject: PrivacySubject): string {
  const spelled = subject.kind === 'player' ? `player\u0000${subject.userId}` : `reporter\u0000${subject.platform}\u0000${subject.reporterId}`;
  return createHash('sha256').update(spelled).digest('hex');
}

/** A hold's target as the audit names it (a hash, as for subjects: a player hold names the player). */
export function holdTargetRef(target: HoldTarget): string {
  return createHash('sha256').update(`${target.type}\u0000${target.id}`).digest('hex');
}

/** Every answer erased but the category's, when it is a category of the policy (the transparency figures count it). */
export function eraseAnswers(answers: ReportRecord['answers'], keep: AnswerKeep): ReportRecord['answers'] {
  return answers.map(({ questionId, answer }) => {
    const label = answer.trim().toLowerCase();
    const isCategory = questionId === keep.categoryQuestionId && keep.categories.includes(label);
    return { questionId, answer: isCategory ? label : ERASED_TEXT };
  });
}

/** Evidence links erased, their number and types kept (a kept item's index still points at its record). */
export function eraseEvidenceLinks<T extends { url: string }>(evidence: T[]): T[] {
  return evidence.map((e) => ({ ...e, url: ERASED_TEXT }));
}

export const eraseSanctionEvidence = (evidence: SanctionEvidence[]): SanctionEvidence[] => eraseEvidenceLinks(evidence);

/**
 * A statement of reasons without the player's personal data: the reason given and the evidence
 * links go; an explanation that was the reason becomes the category's public description (what it
 * falls back to without one). Ground, restriction, automation and dates stay: the DSA figures and
 * the Transparency Database export count them.
 */
export function eraseStatement(statement: StatementOfReasons | null): StatementOfReasons | null {
  if (statement === null) return null;
  const reason = statement.facts.reason;
  return {
    ...statement,
    ground: { ...statement.ground, explanation: reason !== null && statement.ground.explanation === reason ? statement.facts.publicDescription : statement.ground.explanation },
    facts: { ...statement.facts, reason: null, evidence: statement.facts.evidence.map((e) => ({ ...e, url: ERASED_TEXT })) },
  };
}

/** Whether an appeal still holds text erasure takes away: its statement, or its reviewer's reason. */
export const appealNotErased = (a: Pick<AppealRecord, 'statement' | 'decisionReason'>): boolean =>
  a.statement !== ERASED_TEXT || (a.decisionReason !== null && a.decisionReason !== ERASED_TEXT);
