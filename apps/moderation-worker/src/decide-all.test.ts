import { describe, expect, it } from 'vitest';
import type { DecisionJob, OneDecision } from '@rm/contracts';
import { decideAll } from './decide-all.js';

const claim = (n: number): DecisionJob => ({ action: 'claim', decisionId: `d-${n}`, reportId: `r-${n}`, moderatorId: 'm' });
const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('decideAll', () => {
  it('answers in order, and hands each answer on as soon as it is decided', async () => {
    const decided: string[] = [];
    const answers = await decideAll(
      [claim(1), claim(2), claim(3)],
      async (d) => {
        await after(d.decisionId === 'd-1' ? 30 : 0);
        return `answer ${d.decisionId}`;
      },
      (d, answer) => decided.push(`${d.decisionId}: ${String(answer)}`),
    );
    expect(answers).toEqual(['answer d-1', 'answer d-2', 'answer d-3']);
    expect(decided).toEqual(['d-2: answer d-2', 'd-3: answer d-3', 'd-1: answer d-1']);
  });

  it('fails with the first error only once every decision has settled', async () => {
    const decided: string[] = [];
    let slowDone = false;
    const decideOne = async (d: OneDecision) => {
      if (d.decisionId === 'd-1') throw new Error('the store is gone');
      await after(30);
      slowDone = true;
      return 'ok';
    };
    await expect(decideAll([claim(1), claim(2)], decideOne, (d) => decided.push(d.decisionId))).rejects.toThrow('the store is gone');
    expect(slowDone).toBe(true);
    expect(decided).toEqual(['d-2']);
  });
});
