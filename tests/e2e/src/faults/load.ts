import { report, type System } from '../harness.js';

/**
 * Submits with `workers` concurrent loops until `until` resolves; returns the ids answered 200.
 * Connection failures (a killed gateway) are expected and retried after a short pause.
 */
export async function submitUntil(sys: System, auth: string, users: string[], workers: number, until: () => Promise<void>): Promise<string[]> {
  const accepted: string[] = [];
  let running = true;
  let n = 0;
  const loop = async () => {
    while (running) {
      const userId = users[n % users.length]!;
      const reporter = `load-${n++}-${Math.random()}`;
      try {
        const res = await fetch(`${sys.baseUrl}/v1/reports/new`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify(report(userId, reporter)),
          signal: AbortSignal.timeout(5_000),
        });
        const body = (await res.json()) as { id?: string };
        if (res.status === 200 && body.id) accepted.push(body.id);
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const loops = Array.from({ length: workers }, loop);
  await until();
  running = false;
  await Promise.all(loops);
  return accepted;
}

/** Every report id the users have, from the list endpoint, all pages. */
export async function listedIds(sys: System, auth: string, users: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const u of users) {
    for (let page = 1; ; page++) {
      const res = await sys.get(`/v1/reports/${u}?page=${page}&limit=100`, auth);
      ids.push(...res.body.reports.map((r: { repid: string }) => r.repid));
      if (res.body.reports.length < 100) break;
    }
  }
  return ids;
}

/** Waits until every accepted id is listed; reports what is missing or listed twice. */
export async function acceptedAreListedOnce(sys: System, auth: string, users: string[], accepted: string[], timeoutMs: number) {
  let ids: string[] = [];
  const deadline = Date.now() + timeoutMs;
  do {
    ids = await listedIds(sys, auth, users);
    const have = new Set(ids);
    if (accepted.every((id) => have.has(id))) break;
    await new Promise((r) => setTimeout(r, 250));
  } while (Date.now() < deadline);
  const have = new Set(ids);
  const seen = new Set<string>();
  const duplicated = ids.filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
  return { missing: accepted.filter((id) => !have.has(id)), duplicated, listed: ids.length };
}
