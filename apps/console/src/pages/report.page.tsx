import type { Me } from '../api/me';
import { CaseActions } from '../components/case-actions';

/**
 * The actions on the case of one report, reached from the player page: the spec's own
 * endpoints, so a moderator can act even on a server without the case API.
 */
export function ReportPage({ reportId, me }: { reportId: string; me: Me }) {
  return (
    <main>
      <h1>Report {reportId}</h1>
      <p className="hint">Actions apply to the case this report belongs to.</p>
      <CaseActions reportId={reportId} me={me} onDone={() => undefined} />
    </main>
  );
}
