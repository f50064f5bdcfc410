import { z } from 'zod';
import { parseIsoDuration, parseSanctionDuration, SANCTION_LIMITS, STATEMENT_LIMITS, TRANSPARENCY_CATEGORIES } from '@rm/contracts';
import type { RetentionKind, RetentionSweepKind } from '@rm/storage';

/** An ISO 8601 duration (`PT30M`, `PT4H`, `P1D`), kept as text in the policy; `durationMs` reads it. */
const duration = z.string().refine((v) => (parseIsoDuration(v) ?? 0) > 0, 'must be a positive ISO 8601 duration such as PT30M, PT4H or P1D');
/** The ladder's lookback: a duration as above, or whole years (`P1Y`, counted as 365 days each). */
export function lookbackMs(text: string): number | null {
  const years = /^P([1-9]\d{0,2})Y$/.exec(text);
  return years ? Number(years[1]) * 365 * 86_400_000 : parseIsoDuration(text);
}
const lookback = z.string().refine((v) => (lookbackMs(v) ?? 0) > 0, 'must be a positive ISO 8601 duration such as P1Y, P90D or P1W');
/** DSA Article 20(1): a complaint must be possible for at least six months after the decision. */
export const MIN_APPEAL_WINDOW_MS = 180 * 86_400_000;
const appealWindow = z
  .string()
  .refine((v) => (lookbackMs(v) ?? 0) >= MIN_APPEAL_WINDOW_MS, "must be an ISO 8601 duration of at least P180D (six months, the EU Digital Services Act's minimum)");
/**
 * How long kept evidence lives after its case is decided: a duration as the lookback (days, weeks,
 * whole years...), zero allowed (`P0D`: at the first sweep after the decision).
 */
const RETENTION_MESSAGE = 'must be an ISO 8601 duration such as P90D, P12W or P1Y (P0D: at the first sweep)';
const retention = z.string({ error: RETENTION_MESSAGE }).refine((v) => lookbackMs(v) !== null, RETENTION_MESSAGE);
/**
 * How long each kind of personal data lives before the retention sweep erases or pseudonymises it
 * (docs/privacy.md#retention): a duration as `evidence.retention`, counted from the case's (the
 * appeal's) decision. No duration cuts short what enforcement needs: a case something keeps (an
 * active sanction, a waiting appeal, a legal hold) waits however long it is kept, and the ladder
 * counts sanctions, whose kind, category and times no kind touches.
 */
export const DEFAULT_RETENTION: Record<RetentionKind, string> = {
  directoryNames: 'P180D',
  reportText: 'P1Y',
  reporterIdentity: 'P1Y',
  caseMessages: 'P90D',
  dismissedCases: 'P90D',
  appealStatements: 'P1Y',
  auditEntries: 'P3Y',
};
const RetentionPolicy = z
  .strictObject({
    /** The player's names a report copied from the user directory, after its case is decided. */
    directoryNames: retention.default(DEFAULT_RETENTION.directoryNames),
    /** A decided case's free text: answers but the category, evidence links, its ended sanction's reason. */
    reportText: retention.default(DEFAULT_RETENTION.reportText),
    /** The reporter's id on a decided case's reports and outcomes: a pseudonym. */
    reporterIdentity: retention.default(DEFAULT_RETENTION.reporterIdentity),
    /** A decided case's chat message: rewritten without the player. */
    caseMessages: retention.default(DEFAULT_RETENTION.caseMessages),
    /** A dismissed case entire: all of the above, its kept evidence, the player's id (a pseudonym). */
    dismissedCases: retention.default(DEFAULT_RETENTION.dismissedCases),
    /** A decided appeal's statement and its reviewer's reason. */
    appealStatements: retention.default(DEFAULT_RETENTION.appealStatements),
    /** Entries of the privacy audit trail. */
    auditEntries: retention.default(DEFAULT_RETENTION.auditEntries),
  } satisfies Record<RetentionKind, unknown>)
  .default(DEFAULT_RETENTION);
const share = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');
const weight = z.number().min(0, 'must be at least 0');
const name = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'lowercase letters, digits, _ and -, at most 64');

/** The language of the texts a policy gives as one string, and the one every per-language text must include. */
export const DEFAULT_LANGUAGE = 'en';
/** A BCP 47 language tag as a policy writes it: `de`, `pt-BR`, `zh-Hant`. */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const descriptionText = z
  .string()
  .trim()
  .min(STATEMENT_LIMITS.publicDescription.min, 'must not be empty')
  .max(STATEMENT_LIMITS.publicDescription.max, `must be at most ${STATEMENT_LIMITS.publicDescription.max} characters`);
/** Texts by language: each key a language tag, the default language among them. */
function languagesWithDefault(texts: Record<string, string>, ctx: z.RefinementCtx): void {
  for (const tag of Object.keys(texts)) {
    if (!LANGUAGE_TAG.test(tag)) ctx.addIssue({ code: 'custom', path: [tag], message: 'is not a language tag such as en, de or pt-BR (lowercase language first)' });
  }
  if (!(DEFAULT_LANGUAGE in texts)) {
    ctx.addIssue({ code: 'custom', path: [DEFAULT_LANGUAGE], message: 'is required: the English text, the default language (stored in statements of reasons and exported)' });
  }
}

export const CategoryPolicy = z.strictObject({
  /** How grave reports of this category are; the priority's severity term. */
  severity: z.number().min(0, 'must be at least 0').max(100, 'must be at most 100'),
  /** How long a case of this category may wait for a decision. */
  sla: duration,
  /**
   * The text of the rule of the terms this category enforces: the contractual ground of every
   * statement of reasons of its sanctions (required, so no sanction lacks a ground).
   */
  clause: z
    .string({ error: 'is required: the text of the rule of your terms this category enforces (the ground of its statements of reasons)' })
    .trim()
    .min(STATEMENT_LIMITS.clause.min, 'must not be empty: the text of the rule of your terms this category enforces')
    .max(STATEMENT_LIMITS.clause.max, `must be at most ${STATEMENT_LIMITS.clause.max} characters`),
  /**
   * What a player reads about the category in a statement of reasons: one text (English), or one
   * per language (`{en: ..., de: ...}`, English required: the default); absent: the clause.
   */
  publicDescription: z
    .union([descriptionText, z.record(z.string(), descriptionText).superRefine(languagesWithDefault)], {
      error: `must be a text, or an object of texts by language such as {"${DEFAULT_LANGUAGE}": "...", "de": "..."}`,
    })
    .optional(),
  /** The EU Transparency Database category its statements are exported as (without STATEMENT_CATEGORY_). */
  transparencyCategory: z.enum(TRANSPARENCY_CATEGORIES, { error: `must be one of ${TRANSPARENCY_CATEGORIES.join(', ')}` }).default('OTHER_VIOLATION_TC'),
});
export type CategoryPolicy = z.infer<typeof CategoryPolicy>;

const EscalateAction = z.strictObject({
  type: z.literal('escalate'),
  /** Added to the case's priority once the rule fired. */
  boost: weight,
});
/** A sanction's length: days, hours, minutes and seconds (`PT12H`, `P7D`), at most ten years, as on approve. */
const sanctionDuration = z.string().refine((v) => {
  const ms = parseSanctionDuration(v);
  return ms !== null && ms > 0 && ms <= SANCTION_LIMITS.maxDurationMs;
}, 'must be a positive ISO 8601 duration of days, hours, minutes and seconds (PT12H, P7D), at most 3650 days');

const SanctionAction = z.strictObject({
  type: z.literal('sanction'),
  /** The kind to impose; absent with a duration: `ban`. With neither, the ladder decides. */
  kind: name.optional(),
  /** Length of the sanction; absent with a kind: permanent. With neither, the ladder decides. */
  duration: duration.optional(),
});

/** A restriction kind the game enforces. */
export const KindPolicy = z.strictObject({
  label: z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  /** A player with an active sanction of this kind cannot log in (is `banned`). */
  blocksLogin: z.boolean(),
});
export type KindPolicy = z.infer<typeof KindPolicy>;

/** The built-in kinds; a policy's `kinds` add to them or relabel them. */
export const BUILT_IN_KINDS: Record<string, KindPolicy> = {
  warning: { label: 'Warning', blocksLogin: false },
  chat: { label: 'No text or voice chat', blocksLogin: false },
  matchmaking: { label: 'No matchmaking', blocksLogin: false },
  ranked: { label: 'No ranked play', blocksLogin: false },
  ban: { label: 'Banned (no login)', blocksLogin: true },
};

/** One step of a category's ladder: a kind, for a duration (absent: permanent). */
export const LadderStep = z.strictObject({ kind: name, duration: sanctionDuration.optional() });
export type LadderStep = z.infer<typeof LadderStep>;

export const Rule = z.strictObject({
  id: name,
  /** The category the counted reports must have. */
  category: name,
  /** At least this many distinct reporters... */
  minReporters: z.number().int().min(1, 'must be at least 1'),
  /** ...each with a credibility above this... */
  minCredibility: share,
  /** ...reporting within this window (ending at the case's latest report). */
  window: duration,
  action: z.discriminatedUnion('type', [EscalateAction, SanctionAction], { error: 'must be escalate or sanction' }),
});
export type Rule = z.infer<typeof Rule>;

export const TriagePolicy = z
  .strictObject({
    /** Which answer gives a report's category: the answer to `questionId`, when it names a category, else `default`. */
    category: z.strictObject({ questionId: z.string().min(1), default: name }),
    categories: z.record(name, CategoryPolicy).refine((c) => Object.keys(c).length > 0, 'must name at least one category'),
    /** priority = severity × max severity + reporters × Σ credibility of counted reporters + agePerHour × hours open + boosts. */
    weights: z.strictObject({ severity: weight, reporters: weight, agePerHour: weight }),
    brigade: z.strictObject({
      /** The burst: reports about the player within this window, ending at the latest one. */
      window: duration,
      /** At least this many distinct reporters in the window... */
      minReporters: z.number().int().min(2, 'must be at least 2'),
      /** ...of whom at least this share are suspect: new (no decided report) or below `lowCredibility`. */
      suspectShare: share,
      lowCredibility: share,
    }),
    rules: z.array(Rule).default([]),
    /** Restriction kinds, merged over BUILT_IN_KINDS (read them with kindsOf). */
    kinds: z.record(name, KindPolicy).default({}),
    /**
     * The penalty ladder: per category, the steps a repeat offender climbs (the last one repeats).
     * Offences are the player's earlier sanctions of the category within `lookback`, lifted ones
     * not counted. A category without steps proposes a permanent `ban`, as approvals always did.
     */
    ladder: z
      .strictObject({
        lookback: lookback.default('P1Y'),
        steps: z.record(name, z.array(LadderStep).min(1, 'must list at least one step')).default({}),
      })
      .default({ lookback: 'P1Y', steps: {} }),
    /** Appeals: open for `window` after a sanction starts; each should be decided within `sla`. */
    appeals: z.strictObject({ window: appealWindow.default('P180D'), sla: duration.default('P7D') }).default({ window: 'P180D', sla: 'P7D' }),
    /**
     * Kept evidence (docs/evidence.md): deleted `retention` after its case is decided, never while
     * a sanction it supports is active (read by the evidence worker's sweep and `evidence purge`).
     */
    evidence: z.strictObject({ retention: retention.default('P90D') }).default({ retention: 'P90D' }),
    /** Personal data's retention, kind by kind (docs/privacy.md#retention): read by the retention sweep and `privacy sweep`. */
    retention: RetentionPolicy,
    /** How long a claim holds before it expires (read by claim expiry). */
    claimTtl: duration,
    /** The moderator automatic sanctions are recorded as (registered with `moderator add`). */
    systemModeratorId: z.string().min(1).max(128),
  })
  .superRefine((p, ctx) => {
    const kinds = { ...BUILT_IN_KINDS, ...p.kinds };
    if (!(p.category.default in p.categories)) {
      ctx.addIssue({ code: 'custom', path: ['category', 'default'], message: `names no category of \`categories\` (${Object.keys(p.categories).join(', ')})` });
    }
    const seen = new Set<string>();
    p.rules.forEach((rule, i) => {
      if (seen.has(rule.id)) ctx.addIssue({ code: 'custom', path: ['rules', i, 'id'], message: `duplicate rule id ${rule.id}` });
      seen.add(rule.id);
      if (!(rule.category in p.categories)) ctx.addIssue({ code: 'custom', path: ['rules', i, 'category'], message: `names no category of \`categories\`` });
      if (rule.action.type === 'sanction' && rule.action.kind !== undefined && !(rule.action.kind in kinds)) {
        ctx.addIssue({ code: 'custom', path: ['rules', i, 'action', 'kind'], message: `names no kind (${Object.keys(kinds).join(', ')})` });
      }
    });
    if (p.kinds.warning?.blocksLogin) ctx.addIssue({ code: 'custom', path: ['kinds', 'warning', 'blocksLogin'], message: 'a warning restricts nothing: it cannot block login' });
    if (p.kinds.ban && !p.kinds.ban.blocksLogin) ctx.addIssue({ code: 'custom', path: ['kinds', 'ban', 'blocksLogin'], message: 'a ban blocks login' });
    for (const [category, steps] of Object.entries(p.ladder.steps)) {
      if (!(category in p.categories)) {
        ctx.addIssue({ code: 'custom', path: ['ladder', 'steps', category], message: `names no category of \`categories\` (${Object.keys(p.categories).join(', ')})` });
      }
      steps.forEach((step, i) => {
        if (!(step.kind in kinds)) ctx.addIssue({ code: 'custom', path: ['ladder', 'steps', category, i, 'kind'], message: `names no kind (${Object.keys(kinds).join(', ')})` });
      });
    }
  });
export type TriagePolicy = z.infer<typeof TriagePolicy>;

/** The built-in policy, used when TRIAGE_POLICY is not set (docs/triage.md explains every field). */
export const DEFAULT_POLICY: TriagePolicy = {
  category: { questionId: 'category', default: 'other' },
  categories: {
    cheating: {
      severity: 5,
      sla: 'PT4H',
      clause: 'Play fair: do not use cheats, hacks, bots, macros or any third-party software that gives an unfair advantage, and do not exploit bugs.',
      publicDescription: 'Cheating: using software, tools or exploits that give an unfair advantage.',
      transparencyCategory: 'OTHER_VIOLATION_TC',
    },
    harassment: {
      severity: 4,
      sla: 'PT8H',
      clause: 'Respect other players: do not insult, threaten, harass or bully anyone, and do not use hateful or discriminatory language, in chat, voice or names.',
      publicDescription: 'Harassment: insulting, threatening or bullying other players, or hateful language.',
      transparencyCategory: 'CYBER_VIOLENCE',
    },
    griefing: {
      severity: 3,
      sla: 'PT12H',
      clause: 'Play the game as intended with your team: do not deliberately sabotage, throw matches, block or kill teammates, or leave matches to spoil them.',
      publicDescription: "Griefing: deliberately spoiling other players' games.",
      transparencyCategory: 'OTHER_VIOLATION_TC',
    },
    spam: {
      severity: 2,
      sla: 'P1D',
      clause: 'Do not flood chat, send unsolicited advertising, or post links to sell accounts, currency or services.',
      publicDescription: 'Spam: flooding chat or advertising.',
      transparencyCategory: 'OTHER_VIOLATION_TC',
    },
    other: {
      severity: 1,
      sla: 'P1D',
      clause: 'Follow the code of conduct of the terms of service in everything you do in the game.',
      publicDescription: 'Another breach of the code of conduct.',
      transparencyCategory: 'OTHER_VIOLATION_TC',
    },
  },
  weights: { severity: 10, reporters: 5, agePerHour: 1 },
  brigade: { window: 'PT10M', minReporters: 10, suspectShare: 0.8, lowCredibility: 0.3 },
  rules: [],
  kinds: {},
  ladder: { lookback: 'P1Y', steps: {} },
  appeals: { window: 'P180D', sla: 'P7D' },
  evidence: { retention: 'P90D' },
  retention: DEFAULT_RETENTION,
  claimTtl: 'PT30M',
  systemModeratorId: 'system',
};

/** Milliseconds kept evidence lives after its case is decided (the policy's `evidence.retention`). */
export function evidenceRetentionMs(policy: Pick<TriagePolicy, 'evidence'>): number {
  return lookbackMs(policy.evidence.retention)!;
}

/**
 * Milliseconds each kind of personal data lives (the policy's `retention`), for the retention
 * sweep; an erased player's id, the ladder's lookback after their last sanction started.
 */
export function retentionMsOf(policy: Pick<TriagePolicy, 'retention' | 'ladder'>): Record<RetentionSweepKind, number> {
  const kinds = Object.fromEntries(Object.entries(policy.retention).map(([kind, text]) => [kind, lookbackMs(text)!])) as Record<RetentionKind, number>;
  return { ...kinds, erasedPlayers: lookbackMs(policy.ladder.lookback)! };
}
