import { describe, expect, it } from 'vitest';
import type { DecisionJob } from '@rm/contracts';
import type { CaseRecord } from '@rm/storage';
import { BEFORE_ANSWER } from './decide.js';
import { decisionEffects } from './decision-effects.js';

const openCase: CaseRecord = { id: 'c1', userId: 'u1', state: 'claimed', claimedBy: 'm1', version: 2, createdAt: 1, updatedAt: 2, slaBreached: false };

describe('a decision\'s effects', () => {
  // The answer waits for the effects before the first it need not wait for (relay.runSplit): one
  // of those behind another would follow the answer, and a check right after an approval would
  // not see the ban (found on a Redis Cluster under load, when the settlement came first).
  it.each(['approve', 'dismiss', 'undo'] as const)('%s: every effect the answer waits for comes before all others', (action) => {
    const job = { action, decisionId: `d-${action}`, reportId: 'r1', moderatorId: 'm1', dm: false } as DecisionJob;
    const kinds = decisionEffects(job, openCase, 10, { expiresAt: null, deadline: null }).map((e) => e.kind);
    const waited = kinds.filter((k) => BEFORE_ANSWER.has(k));
    expect(waited).toContain('redis.user');
    expect(kinds.slice(0, waited.length)).toEqual(waited);
  });
});
