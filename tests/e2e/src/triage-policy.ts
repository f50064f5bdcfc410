import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A triage policy with small thresholds for the tests, written to a temporary file:
 * cheating (severity 5) and spam (1), priority = 10 × severity + 4 × Σ credibility (no age term,
 * so priorities are exact), a brigade at 4+ reporters within a minute of whom 75% are new or
 * below 0.3, and one escalate rule: 2+ reporters above 0.6 reporting cheating within an hour.
 */
export const TEST_POLICY = {
  category: { questionId: 'category', default: 'other' },
  categories: {
    cheating: { severity: 5, sla: 'PT4H', clause: 'Do not use cheats, hacks or exploits.', publicDescription: 'Cheating', transparencyCategory: 'OTHER_VIOLATION_TC' },
    spam: { severity: 1, sla: 'P1D', clause: 'Do not flood chat or advertise.' },
    other: { severity: 0, sla: 'P1D', clause: 'Follow the code of conduct.' },
  },
  weights: { severity: 10, reporters: 4, agePerHour: 0 },
  brigade: { window: 'PT1M', minReporters: 4, suspectShare: 0.75, lowCredibility: 0.3 },
  rules: [{ id: 'cheat-escalate', category: 'cheating', minReporters: 2, minCredibility: 0.6, window: 'PT1H', action: { type: 'escalate', boost: 100 } }],
  claimTtl: 'PT30M',
  systemModeratorId: 'system',
};

/** Writes `policy` (JSON, or YAML text when a string is given with a .yaml name) and returns the file name. */
export function writePolicy(policy: unknown, name = 'policy.json'): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rm-policy-')), name);
  writeFileSync(file, typeof policy === 'string' ? policy : JSON.stringify(policy, null, 2));
  return file;
}

/** A submit body whose `category` answer is `category`. */
export function categorized(userId: string, reporterId: string, category: string): Record<string, unknown> {
  return {
    userId,
    answers: [
      { questionId: 'category', answer: category },
      { questionId: 'details', answer: `${category} seen in ranked` },
    ],
    evidence: [{ url: `https://clips.example/${userId}/${reporterId}`, type: 'url' }],
    reporter: { id: reporterId, platform: 'gameplatform' },
  };
}
