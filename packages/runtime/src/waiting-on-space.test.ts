import { expect, it } from 'vitest';
import { SPACE_WAKE_INTERVAL_MS, WaitingOnSpace } from './waiting-on-space.js';

function setup() {
  let clock = 1_000_000;
  const run: string[] = [];
  const waiting = new WaitingOnSpace(
    async (id) => {
      run.push(id);
      if (id === 'gone') throw new Error('not delayed any more');
    },
    () => clock,
  );
  return { waiting, run, advance: (ms: number) => (clock += ms) };
}

it('runs the jobs a full disk refused once a job succeeds, each once, and none when none waits', async () => {
  const { waiting, run } = setup();
  await waiting.succeeded();
  expect(run).toEqual([]);
  for (const id of ['a', 'gone', 'b', 'a']) waiting.refused(id);
  await waiting.succeeded();
  expect(run).toEqual(['a', 'gone', 'b']);
});

it('wakes them at most once per interval, keeping those refused meanwhile for the next', async () => {
  const { waiting, run, advance } = setup();
  waiting.refused('a');
  await waiting.succeeded();
  // Still full: the woken job is refused again, another success comes at once.
  waiting.refused('a');
  waiting.refused('c');
  await waiting.succeeded();
  expect(run).toEqual(['a']);
  advance(SPACE_WAKE_INTERVAL_MS);
  await waiting.succeeded();
  expect(run).toEqual(['a', 'a', 'c']);
});
