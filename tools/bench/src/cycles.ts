import { Agent, request } from 'node:http';
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
  // node:http over kept-alive sockets, not fetch: undici's fetch cost the load generator about
  // 2.5 ms of CPU per decision, on the same two cores as the system it measures.
  const agent = new Agent({ keepAlive: true, maxSockets: reportIds.length });
  const url = new URL(baseUrl);
  const body = JSON.stringify({ moderator: { id: moderatorId } });
  const headers = { authorization: auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  const call = (step: keyof typeof steps, reportId: string) =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      const req = request({ agent, host: url.hostname, port: url.port, method: 'POST', path: `/v1/reports/${reportId}/${step}`, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          steps[step].add(performance.now() - t0, res.statusCode ?? 0);
          resolve(res.statusCode ?? 0);
        });
      });
      req.on('error', reject);
      req.end(body);
    });
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
  agent.destroy();
  return {
    cyclesPerSec: Math.round((cycles / seconds) * 10) / 10,
    cycles,
    steps: Object.fromEntries(Object.entries(steps).map(([k, s]) => [k, s.summary(seconds)])),
  };
}
