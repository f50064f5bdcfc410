#!/usr/bin/env node
// An anti-cheat's side of the sanctions API, in plain Node 20 (no build, no dependency): it sends
// a scheduled ban wave and follows the feed until every sanction of the wave has appeared.
//   RM_URL=http://127.0.0.1:3000 RM_KEY=<key>:<secret> node examples/anticheat-client.mjs wave <inSeconds> <userId>...
//   RM_URL=... RM_KEY=... node examples/anticheat-client.mjs ban <userId> [duration]
//   RM_URL=... RM_KEY=... node examples/anticheat-client.mjs lift <sanctionId> <reason>
// The key needs sanctions.write (and sanctions.read to follow the feed):
//   npm run cli -- apikey create --name vac --permission sanctions.write --permission sanctions.read
const base = process.env.RM_URL ?? 'http://127.0.0.1:3000';
const headers = { authorization: process.env.RM_KEY ?? '', 'content-type': 'application/json' };
const SOURCE = { type: 'anticheat', id: 'example-detector' };

async function api(method, path, body) {
  const res = await fetch(`${base}${path}`, { method, headers, ...(body && { body: JSON.stringify(body) }) });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${res.status}: ${answer.message}`);
  return answer;
}

/**
 * Sends a wave scheduled `inSeconds` ahead, in batches of 1,000. The idempotency key is the wave's
 * name and the player: sending the same wave again (a retry after a timeout) creates nothing twice.
 */
async function wave(inSeconds, userIds) {
  const effectiveAt = new Date(Date.now() + Number(inSeconds) * 1000).toISOString();
  const name = `wave-${effectiveAt}`;
  const ids = new Set();
  for (let i = 0; i < userIds.length; i += 1000) {
    const items = userIds.slice(i, i + 1000).map((userId) => ({
      userId,
      kind: 'ban',
      category: 'cheating',
      reason: 'Cheat software detected',
      source: SOURCE,
      idempotencyKey: `${name}/${userId}`,
    }));
    const { results } = await api('POST', '/v1/sanctions/batch', { items, effectiveAt });
    results.forEach((r, j) => {
      // conflict: this key already named a sanction with other fields (nothing stored).
      if (r.status === 'refused' || r.status === 'conflict') console.log(`${r.status} ${items[j].userId}: ${r.message}`);
      else ids.add(r.sanction.id);
    });
  }
  console.log(`${ids.size} sanction(s) scheduled for ${effectiveAt}; following the feed`);
  await followUntil(ids);
}

/** Reads the feed from its current end until every id has a `sanction.created` event. */
async function followUntil(ids) {
  let cursor = '';
  // Start from the end of the feed as it is now: the wave is not in it before effectiveAt.
  for (;;) {
    const page = await api('GET', `/v1/sanctions?limit=1000${cursor ? `&after=${cursor}` : ''}`);
    cursor = page.next;
    if (page.events.length < 1000) break;
  }
  const pending = new Set(ids);
  while (pending.size > 0) {
    const page = await api('GET', `/v1/sanctions?limit=1000&after=${cursor}`);
    for (const e of page.events) {
      if (e.type === 'sanction.created' && pending.delete(e.sanctionId)) console.log(`#${e.seq} ${e.kind} user ${e.userId} in effect`);
    }
    cursor = page.next;
    if (page.events.length === 0) await new Promise((r) => setTimeout(r, 1000));
  }
  console.log('every sanction of the wave is in effect');
}

async function ban(userId, duration) {
  const { created, sanction } = await api('POST', '/v1/sanctions', {
    userId,
    kind: 'ban',
    ...(duration && { duration }),
    category: 'cheating',
    reason: 'Cheat software detected',
    source: SOURCE,
    idempotencyKey: `${SOURCE.id}/${userId}/${new Date().toISOString().slice(0, 10)}`,
  });
  console.log(`${created ? 'created' : 'already there'}: ${sanction.id} (${sanction.kind}, until ${sanction.expiresAt ? new Date(sanction.expiresAt).toISOString() : 'forever'})`);
}

async function lift(sanctionId, reason) {
  const { lifted, sanction } = await api('POST', `/v1/sanctions/${encodeURIComponent(sanctionId)}/lift`, { reason });
  console.log(`${lifted ? 'lifted' : `not active (${sanction.state})`}: ${sanction.id}`);
}

const [command, ...args] = process.argv.slice(2);
const run = { wave: () => wave(args[0] ?? '30', args.slice(1)), ban: () => ban(args[0], args[1]), lift: () => lift(args[0], args.slice(1).join(' ') || 'false positive') }[command];
if (!run || (command === 'wave' && args.length < 2)) {
  console.error('usage: anticheat-client.mjs wave <inSeconds> <userId>... | ban <userId> [duration] | lift <sanctionId> <reason>');
  process.exit(2);
}
run().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
