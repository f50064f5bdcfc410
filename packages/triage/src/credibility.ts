import type { ReporterRecord, ReporterStats } from '@rm/storage';

/**
 * A reporter's credibility: (approved + 1) / (approved + dismissed + 2), the mean of a Beta(1, 1)
 * prior updated by their decided reports. A new reporter is 0.5 (neutral); each approved case
 * moves it towards 1, each dismissed one towards 0, less and less as their history grows.
 */
export function credibilityScore(s: Pick<ReporterStats, 'approved' | 'dismissed'>): number {
  return (s.approved + 1) / (s.approved + s.dismissed + 2);
}

/** One key per reporter: the platform and the id (ids are unique per platform only). */
export const reporterKey = (r: ReporterRecord): string => `${r.platform}\u0000${r.id}`;

export interface Credibility extends ReporterStats {
  credibility: number;
}

/** Stats by reporter, with a neutral entry for every reporter that has none stored. */
export function credibilityOf(reporters: ReporterRecord[], stored: ReporterStats[]): Map<string, Credibility> {
  const byKey = new Map(stored.map((s) => [reporterKey(s), s]));
  const out = new Map<string, Credibility>();
  for (const r of reporters) {
    const s = byKey.get(reporterKey(r)) ?? { platform: r.platform, id: r.id, approved: 0, dismissed: 0 };
    out.set(reporterKey(r), { ...s, credibility: credibilityScore(s) });
  }
  return out;
}
