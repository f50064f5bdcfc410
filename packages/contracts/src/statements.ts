import { z } from 'zod';

/**
 * A statement of reasons (EU DSA Article 17): why a sanction was imposed, assembled once when the
 * sanction is created and stored unchanged with it (docs/sanctions.md, "Statements of reasons").
 * Its terms map onto the EU Transparency Database's statement fields (docs/transparency.md).
 */

/** Bounds of the statement's free texts, as the Transparency Database takes them. */
export const STATEMENT_LIMITS = {
  clause: { min: 1, max: 500 },
  publicDescription: { min: 1, max: 500 },
  law: { min: 1, max: 500 },
  explanation: { min: 1, max: 2000 },
} as const;

/**
 * The Transparency Database's statement categories (its `category` field), without the
 * `STATEMENT_CATEGORY_` prefix. A policy category names one as `transparencyCategory`.
 */
export const TRANSPARENCY_CATEGORIES = [
  'ANIMAL_WELFARE',
  'CONSUMER_INFORMATION',
  'CYBER_VIOLENCE',
  'CYBER_VIOLENCE_AGAINST_WOMEN',
  'DATA_PROTECTION_AND_PRIVACY_VIOLATIONS',
  'ILLEGAL_OR_HARMFUL_SPEECH',
  'INTELLECTUAL_PROPERTY_INFRINGEMENTS',
  'NEGATIVE_EFFECTS_ON_CIVIC_DISCOURSE_OR_ELECTIONS',
  'NOT_SPECIFIED_NOTICE',
  'OTHER_VIOLATION_TC',
  'PROTECTION_OF_MINORS',
  'RISK_FOR_PUBLIC_SECURITY',
  'SCAMS_AND_FRAUD',
  'SELF_HARM',
  'UNSAFE_AND_PROHIBITED_PRODUCTS',
  'VIOLENCE',
] as const;
export type TransparencyCategory = (typeof TRANSPARENCY_CATEGORIES)[number];

/** `fully`: a rule's sanction; `partially`: a person approved what a rule escalated; `not`: a person decided alone. */
export const AUTOMATED_DECISIONS = ['fully', 'partially', 'not'] as const;
export type AutomatedDecision = (typeof AUTOMATED_DECISIONS)[number];

/** `terms`: a breach of the category's clause; `illegal`: content illegal under the law named. */
export const STATEMENT_GROUNDS = ['terms', 'illegal'] as const;

/**
 * Where the decision started: `reports` (players' reports, a notice under Article 16: an approval
 * or a rule) or `own_initiative` (a trusted system's detection, without a report).
 */
export const STATEMENT_ORIGINS = ['reports', 'own_initiative'] as const;

const law = z
  .string({ error: 'law must be a string' })
  .trim()
  .min(STATEMENT_LIMITS.law.min, `law must be ${STATEMENT_LIMITS.law.min} to ${STATEMENT_LIMITS.law.max} characters`)
  .max(STATEMENT_LIMITS.law.max, `law must be ${STATEMENT_LIMITS.law.min} to ${STATEMENT_LIMITS.law.max} characters`);
const explanation = z
  .string({ error: 'explanation must be a string' })
  .trim()
  .min(STATEMENT_LIMITS.explanation.min, `explanation must be ${STATEMENT_LIMITS.explanation.min} to ${STATEMENT_LIMITS.explanation.max} characters`)
  .max(STATEMENT_LIMITS.explanation.max, `explanation must be ${STATEMENT_LIMITS.explanation.min} to ${STATEMENT_LIMITS.explanation.max} characters`);

/**
 * Marks the ground as illegal content (approve, POST /v1/sanctions): the law relied on (e.g.
 * "§ 130 StGB (Germany), incitement to hatred") and optionally why the content breaks it (absent:
 * the sanction's reason, else the category's public description).
 */
export const IllegalContentBody = z.strictObject({ law, explanation: explanation.optional() });
export type IllegalContentBody = z.infer<typeof IllegalContentBody>;

/** What a trusted system says about who decided: absent, a sanction of the sanctions API is `fully` automated. */
export const AutomatedDecisionBody = z.enum(AUTOMATED_DECISIONS, { error: `automatedDecision must be one of ${AUTOMATED_DECISIONS.join(', ')}` });

export const StatementGround = z.strictObject({
  type: z.enum(STATEMENT_GROUNDS),
  /** The policy's clause for the category (always there: the contractual ground and the rule broken). */
  clause: z.string(),
  /** The law relied on; null on a `terms` ground. */
  law: z.string().nullable(),
  /** Why the facts breach the clause (or the law): the explanation given, the reason, or the category's public description. */
  explanation: z.string(),
});

export const StatementEvidence = z.strictObject({
  url: z.string(),
  /** SHA-256 (hex) of the copy the service kept, when evidence capture kept one. */
  sha256: z.string().nullable(),
});

export const StatementFacts = z.strictObject({
  origin: z.enum(STATEMENT_ORIGINS),
  category: z.string(),
  /** What a player reads about the category. */
  publicDescription: z.string(),
  /** The Transparency Database category it maps onto (without the STATEMENT_CATEGORY_ prefix). */
  transparencyCategory: z.enum(TRANSPARENCY_CATEGORIES),
  /** The case's reports (null without a case): how many, the first and last receipt time. */
  reports: z.strictObject({ count: z.number().int(), firstAt: z.number().int(), lastAt: z.number().int() }).nullable(),
  evidence: z.array(StatementEvidence),
  /** The moderator's (or system's) reason, as shown to the player; null when none was given. */
  reason: z.string().nullable(),
});

export const StatementRestriction = z.strictObject({
  kind: z.string(),
  label: z.string(),
  blocksLogin: z.boolean(),
  /** When it takes effect (ms since the epoch): creation, or a ban wave's effectiveAt. */
  from: z.number().int(),
  /** When it ends; null: permanent. */
  until: z.number().int().nullable(),
});

export const StatementAutomation = z.strictObject({
  automatedDetection: z.boolean(),
  automatedDecision: z.enum(AUTOMATED_DECISIONS),
});

export const StatementRedress = z.strictObject({
  /** The player's game offers the appeal (it calls POST /v1/appeals) until this time. */
  appealUntil: z.number().int(),
  /** How to appeal, and the other ways of redress, for a player to read. */
  howToAppeal: z.string(),
});

export const StatementOfReasons = z.strictObject({
  ground: StatementGround,
  facts: StatementFacts,
  restriction: StatementRestriction,
  automation: StatementAutomation,
  redress: StatementRedress,
  /** When it was assembled (the sanction's creation). */
  issuedAt: z.number().int(),
});
export type StatementOfReasons = z.infer<typeof StatementOfReasons>;
