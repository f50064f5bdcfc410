import type { ListQuery, ListResponse } from '@rm/contracts';
import type { ReportStore, SanctionStore } from '@rm/storage';

/** Reports about one user, newest first; `count` is the total, not the page length. */
export async function listReports(store: ReportStore & SanctionStore, userId: string, query: ListQuery): Promise<ListResponse> {
  const [{ total, reports }, banned] = await Promise.all([
    store.listReportsByUser(userId, { offset: (query.page - 1) * query.limit, limit: query.limit }),
    store.isBanned(userId),
  ]);
  return {
    success: true,
    page: query.page,
    limit: query.limit,
    count: total,
    reports: reports.map((r) => ({
      repid: r.id,
      reportTimeStamp: r.receivedAt,
      avurl: r.user.avatar ?? '',
      displayname: r.user.displayName,
      username: r.user.name,
      reason: r.answers[0]?.answer ?? '',
      evidence: r.evidence.map((e) => e.url),
      banned,
    })),
  };
}
