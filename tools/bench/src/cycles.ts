import { Samples } from './stats.js';

/**
 * claim → approve → undo on one case per connection, over and over: each undo leaves the case
 * open and unclaimed, ready for the next cycle. Returns cycles/s and latency per step.
 */
export async function decisionCycles(baseUrl: string, auth: string, reportIds: string[], moderatorId: string, durationSec: number) {
  const steps = { claim: new Samples(), approve: new Samples(), undo: new Samples() };
  const deadline = Date.now() + durationSec * 1000;
  const started = Date.now();
  let cycles = 0;
  const call = async (step: keyof typeof steps, reportId: string) => {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/v1/reports/${reportId}/${step}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ moderator: { id: moderatorId } }),
    });
    await res.arrayBuffer();
    steps[step].add(performance.now() - t0, res.status);
    return res.status;
  };
  await Promise.all(
    reportIds.map(async (id) => {
      while (Date.now() < deadline) {
        if ((await call('claim', id)) !== 200) break;
        if ((await call('approve', id)) !== 200) break;
        if ((await call('undo', id)) !== 200) break;
        cycles++;
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  return {
    cyclesPerSec: Math.round((cycles / seconds) * 10) / 10,
    cycles,
    steps: Object.fromEntries(Object.entries(steps).map(([k, s]) => [k, s.summary(seconds)])),
  };
}
