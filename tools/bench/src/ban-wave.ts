/** What a ban wave through the sanctions API took, from its first request to its last feed event readable. */
export interface BanWaveResult {
  sanctions: number;
  batches: number;
  seconds: number;
  sanctionsPerSec: number;
  /** Every sanction of the wave in the feed exactly once (a `sanction.created` each, nothing twice). */
  exactlyOnce: boolean;
}

interface FeedPage {
  events: { seq: number; type: string; sanctionId: string }[];
  next: string;
}

/**
 * `total` sanctions in batches of `batchSize`, sent one batch after the other, as an anti-cheat
 * sends a wave; then the feed is read from where it ended before the wave until every sanction of
 * the wave appeared. The time is from the first request to the moment the last event was read.
 */
export async function banWave(url: string, auth: string, total: number, batchSize: number): Promise<BanWaveResult> {
  const headers = { authorization: auth, 'content-type': 'application/json' };
  const feed = async (after: string): Promise<FeedPage> => (await fetch(`${url}/v1/sanctions?limit=1000&after=${after}`, { headers })).json() as Promise<FeedPage>;
  let cursor = '0';
  for (;;) {
    const page = await feed(cursor);
    cursor = page.next;
    if (page.events.length === 0) break;
  }
  const ids = new Set<string>();
  const started = performance.now();
  const wave = `bench-wave-${Date.now()}`;
  for (let i = 0; i < total; i += batchSize) {
    const items = Array.from({ length: Math.min(batchSize, total - i) }, (_, k) => ({
      userId: `wave-${i + k}`,
      kind: 'ban',
      category: 'cheating',
      reason: 'Cheat software detected',
      source: { type: 'anticheat', id: 'bench' },
      idempotencyKey: `${wave}/${i + k}`,
    }));
    const res = await fetch(`${url}/v1/sanctions/batch`, { method: 'POST', headers, body: JSON.stringify({ items }) });
    const body = (await res.json()) as { results?: { status: string; sanction?: { id: string } }[]; message?: string };
    if (!res.ok || !body.results) throw new Error(`ban wave batch ${i / batchSize}: ${res.status} ${body.message ?? ''}`);
    for (const r of body.results) if (r.sanction) ids.add(r.sanction.id);
  }
  const seen = new Map<string, number>();
  let remaining = ids.size;
  while (remaining > 0) {
    const page = await feed(cursor);
    for (const e of page.events) {
      if (e.type !== 'sanction.created' || !ids.has(e.sanctionId)) continue;
      const n = (seen.get(e.sanctionId) ?? 0) + 1;
      seen.set(e.sanctionId, n);
      if (n === 1) remaining--;
    }
    cursor = page.next;
    if (page.events.length === 0) await new Promise((r) => setTimeout(r, 20));
  }
  const seconds = (performance.now() - started) / 1000;
  // Anything after the last one (a duplicate would come later): one more read to the end.
  for (let page = await feed(cursor); page.events.length > 0; page = await feed(cursor)) {
    for (const e of page.events) if (e.type === 'sanction.created' && ids.has(e.sanctionId)) seen.set(e.sanctionId, (seen.get(e.sanctionId) ?? 0) + 1);
    cursor = page.next;
  }
  return {
    sanctions: ids.size,
    batches: Math.ceil(total / batchSize),
    seconds: Math.round(seconds * 100) / 100,
    sanctionsPerSec: Math.round(ids.size / seconds),
    exactlyOnce: ids.size === total && [...seen.values()].every((n) => n === 1) && seen.size === total,
  };
}
