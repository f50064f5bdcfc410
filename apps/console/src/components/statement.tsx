import { time } from './status';

/** The statement of reasons as the ban API gives it (null on sanctions of earlier versions). */
export interface Statement {
  ground: { type: 'terms' | 'illegal'; clause: string; law: string | null; explanation: string };
  facts: {
    origin: 'reports' | 'own_initiative';
    category: string;
    publicDescription: string;
    transparencyCategory: string;
    reports: { count: number; firstAt: number; lastAt: number } | null;
    evidence: { url: string; sha256: string | null }[];
    reason: string | null;
  };
  restriction: { kind: string; label: string; blocksLogin: boolean; from: number; until: number | null };
  automation: { automatedDetection: boolean; automatedDecision: 'fully' | 'partially' | 'not' };
  redress: { appealUntil: number; howToAppeal: string };
  issuedAt: number;
}

const DECIDED = { fully: 'fully automated (a rule)', partially: 'partially automated (a person confirmed a rule)', not: 'by a person' } as const;

/** A sanction's statement of reasons, folded: the ground in the summary, the rest on opening. */
export function StatementOfReasons({ statement }: { statement: Statement | null | undefined }) {
  if (!statement) return <span className="muted">none (earlier version)</span>;
  const { ground, facts, restriction, automation, redress } = statement;
  return (
    <details className="statement">
      <summary>{ground.type === 'illegal' ? `Illegal content: ${ground.law}` : `Terms: ${facts.category}`}</summary>
      <dl>
        <dt>Rule broken</dt>
        <dd>{ground.clause}</dd>
        <dt>Why</dt>
        <dd>{ground.explanation}</dd>
        <dt>Facts</dt>
        <dd>
          {facts.publicDescription}.{' '}
          {facts.reports
            ? `${facts.reports.count} report(s), ${time(facts.reports.firstAt)} to ${time(facts.reports.lastAt)}.`
            : 'Detected by a trusted system, without a report.'}
          {facts.evidence.length > 0 && ` ${facts.evidence.length} evidence item(s) cited, ${facts.evidence.filter((e) => e.sha256).length} kept.`}
        </dd>
        <dt>Restriction</dt>
        <dd>
          {restriction.label} from {time(restriction.from)} {restriction.until === null ? '(permanent)' : `until ${time(restriction.until)}`}
        </dd>
        <dt>Automation</dt>
        <dd>
          Detected {automation.automatedDetection ? 'automatically' : 'by players’ reports'}; decided {DECIDED[automation.automatedDecision]}
        </dd>
        <dt>Redress</dt>
        <dd>
          Appeal until {time(redress.appealUntil)}. {redress.howToAppeal}
        </dd>
      </dl>
    </details>
  );
}
