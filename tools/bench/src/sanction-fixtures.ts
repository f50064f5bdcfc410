import type { NewReport } from '@rm/storage';
import { createStore } from '@rm/storage-factory';

/**
 * Players for the ban API scenario: ids `sp-0` to `sp-<count-1>`; every tenth has a report whose
 * case is approved, i.e. an active sanction and a feed event. Seeded through the storage port.
 */
export async function seedSanctions(dataDir: string, count: number): Promise<string[]> {
  const players = Array.from({ length: count }, (_, i) => `sp-${i}`);
  const store = await createStore({ DATA_DIR: dataDir });
  try {
    const banned = players.filter((_, i) => i % 10 === 0);
    const reports: NewReport[] = banned.map((userId, i) => ({
      id: `sanction-seed-${i}`,
      userId,
      reporterId: `seed-${i}`,
      reporterPlatform: 'gameplatform',
      reportType: null,
      answers: [{ questionId: 'q1', answer: 'aimbot' }],
      evidence: [{ url: 'https://clips.example/s', type: 'url' }],
      receivedAt: Date.now(),
      user: { name: userId, displayName: userId, avatar: null },
    }));
    for (const saved of await store.saveReports(reports)) {
      const c = (await store.getCase(saved.caseId))!;
      await store.transitionCase({
        caseId: c.id,
        expectedVersion: c.version,
        expectedState: c.state,
        next: { state: 'approved', claimedBy: null },
        ban: 'set',
        sanction: { reason: 'seeded', expiresAt: null },
        event: { decisionId: `seed-approval-${saved.reportId}`, action: 'approve', moderatorId: 'bench-mod', at: Date.now(), result: null },
      });
    }
  } finally {
    await store.close();
  }
  return players;
}
