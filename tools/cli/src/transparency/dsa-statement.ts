import type { SanctionRecord } from '@rm/storage';
import type { StatementOfReasons } from '@rm/contracts';

/**
 * One statement of reasons in the field names and values of the EU DSA Transparency Database's
 * statement API (docs/transparency.md has the mapping). Personal data stays out (Article 24(5)):
 * no player, reporter or moderator id, no evidence URL; the moderator's reason is included as
 * written, so moderators must not put personal data in it.
 */
export interface DsaStatement {
  puid: string;
  decision_account?: 'DECISION_ACCOUNT_SUSPENDED' | 'DECISION_ACCOUNT_TERMINATED';
  end_date_account_restriction?: string | null;
  decision_provision?: 'DECISION_PROVISION_PARTIAL_SUSPENSION' | 'DECISION_PROVISION_PARTIAL_TERMINATION';
  end_date_service_restriction?: string | null;
  decision_ground: 'DECISION_GROUND_ILLEGAL_CONTENT' | 'DECISION_GROUND_INCOMPATIBLE_CONTENT';
  illegal_content_legal_ground?: string;
  illegal_content_explanation?: string;
  incompatible_content_ground?: string;
  incompatible_content_explanation?: string;
  content_type: ['CONTENT_TYPE_OTHER'];
  content_type_other: string;
  category: string;
  territorial_scope: string[];
  content_date: string;
  application_date: string;
  decision_facts: string;
  source_type: 'SOURCE_ARTICLE_16' | 'SOURCE_VOLUNTARY';
  automated_detection: 'Yes' | 'No';
  automated_decision: 'AUTOMATED_DECISION_FULLY' | 'AUTOMATED_DECISION_PARTIALLY' | 'AUTOMATED_DECISION_NOT_AUTOMATED';
}

/** The EEA, as the Transparency Database spells it (Greece is GR): a sanction applies in the whole game. */
export const EEA_COUNTRIES = ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IS', 'IT', 'LI', 'LT', 'LU', 'LV', 'MT', 'NL', 'NO', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK'];

/** What the player's conduct was, for content_type_other: a game sanctions behaviour, not one post. */
export const CONTENT_TYPE_OTHER = "The player's conduct in an online game (chat, voice, gameplay or profile)";

const AUTOMATED_DECISION = { fully: 'AUTOMATED_DECISION_FULLY', partially: 'AUTOMATED_DECISION_PARTIALLY', not: 'AUTOMATED_DECISION_NOT_AUTOMATED' } as const;

/** YYYY-MM-DD (UTC); the database refuses content dates before 2000 and application dates before 2020. */
const day = (ms: number, floor: string) => {
  const d = new Date(ms).toISOString().slice(0, 10);
  return d < floor ? floor : d;
};
const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The database's puid: letters, digits, `-` and `_` only, at most 500; our ids are uuidv7 or `rule-<case>-<rule>`. */
export const puidOf = (id: string) => clip(id.replace(/[^a-zA-Z0-9_-]/g, '_'), 500);

/** decision_facts: the facts in words, without personal data, at most 5,000 characters. */
export function decisionFacts(s: StatementOfReasons): string {
  const f = s.facts;
  const lines = [`Category: ${f.publicDescription}`];
  if (f.reports) {
    lines.push(`Reported by players ${f.reports.count} time(s) between ${new Date(f.reports.firstAt).toISOString()} and ${new Date(f.reports.lastAt).toISOString()}.`);
  } else {
    lines.push('Detected by our own automated systems, without a report.');
  }
  const kept = f.evidence.filter((e) => e.sha256 !== null);
  if (f.evidence.length > 0) lines.push(`Evidence cited: ${f.evidence.length} item(s)${kept.length > 0 ? `; kept copies SHA-256 ${kept.map((e) => e.sha256).join(', ')}` : ''}.`);
  if (f.reason) lines.push(`Reason given: ${f.reason}`);
  lines.push(`Restriction: ${s.restriction.label}${s.restriction.until === null ? ', permanent' : ` until ${new Date(s.restriction.until).toISOString()}`}.`);
  return clip(lines.join('\n'), 5000);
}

/** A sanction's stored statement as one Transparency Database statement; null for one that restricts nothing (a warning). */
export function toDsaStatement(sanction: SanctionRecord & { statement: StatementOfReasons }, warningKind: string): DsaStatement | null {
  const s = sanction.statement;
  const r = s.restriction;
  if (r.kind === warningKind) return null;
  const until = r.until === null ? null : day(r.until, day(r.from, '2020-01-01'));
  const decision = r.blocksLogin
    ? { decision_account: r.until === null ? ('DECISION_ACCOUNT_TERMINATED' as const) : ('DECISION_ACCOUNT_SUSPENDED' as const), end_date_account_restriction: until }
    : {
        decision_provision: r.until === null ? ('DECISION_PROVISION_PARTIAL_TERMINATION' as const) : ('DECISION_PROVISION_PARTIAL_SUSPENSION' as const),
        end_date_service_restriction: until,
      };
  const ground =
    s.ground.type === 'illegal'
      ? {
          decision_ground: 'DECISION_GROUND_ILLEGAL_CONTENT' as const,
          illegal_content_legal_ground: clip(s.ground.law ?? s.ground.clause, 500),
          illegal_content_explanation: clip(s.ground.explanation, 2000),
        }
      : {
          decision_ground: 'DECISION_GROUND_INCOMPATIBLE_CONTENT' as const,
          incompatible_content_ground: clip(s.ground.clause, 500),
          incompatible_content_explanation: clip(s.ground.explanation, 2000),
        };
  return {
    puid: puidOf(sanction.id),
    ...decision,
    ...ground,
    content_type: ['CONTENT_TYPE_OTHER'],
    content_type_other: CONTENT_TYPE_OTHER,
    category: `STATEMENT_CATEGORY_${s.facts.transparencyCategory}`,
    territorial_scope: EEA_COUNTRIES,
    content_date: day(s.facts.reports?.firstAt ?? r.from, '2000-01-01'),
    application_date: day(r.from, '2020-01-01'),
    decision_facts: decisionFacts(s),
    source_type: s.facts.origin === 'reports' ? 'SOURCE_ARTICLE_16' : 'SOURCE_VOLUNTARY',
    automated_detection: s.automation.automatedDetection ? 'Yes' : 'No',
    automated_decision: AUTOMATED_DECISION[s.automation.automatedDecision],
  };
}
