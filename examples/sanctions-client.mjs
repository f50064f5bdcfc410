#!/usr/bin/env node
// A game server's side of the ban API, in plain Node 20 (no build, no dependency).
//   RM_URL=http://127.0.0.1:3000 RM_KEY=<key>:<secret> node examples/sanctions-client.mjs check <userId>
//   RM_URL=... RM_KEY=... node examples/sanctions-client.mjs follow [cursorFile]
//   RM_URL=... RM_KEY=... WEBHOOK_SECRET=... node examples/sanctions-client.mjs webhook <port>
import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';

const base = process.env.RM_URL ?? 'http://127.0.0.1:3000';
const headers = { authorization: process.env.RM_KEY ?? '' };

async function api(path) {
  const res = await fetch(`${base}${path}`, { headers });
  const body = await res.json();
  if (!res.ok) throw new Error(`${res.status}: ${body.message}`);
  return body;
}

/** On join: refuse a banned player; admit anyone else with their restrictions (no chat, no ranked...). */
async function check(userId) {
  const status = await api(`/v1/sanctions/${encodeURIComponent(userId)}`);
  const active = status.sanctions.find((s) => s.state === 'active' && s.blocksLogin);
  if (status.banned) {
    console.log(`refuse ${userId}: ${active?.reason ?? 'banned'} (until ${active?.expiresAt ? new Date(active.expiresAt).toISOString() : 'forever'})`);
    // The statement of reasons (null on sanctions of earlier versions): show the player the rule
    // broken and how to appeal (docs/transparency.md).
    const statement = active?.statement;
    if (statement) console.log(`  rule: ${statement.ground.clause}\n  appeal: ${statement.redress.howToAppeal}`);
    return;
  }
  // Check these at each gate: restrictions.includes('chat') before relaying a chat line, etc.
  console.log(`admit ${userId}${status.restrictions.length ? ` without: ${status.restrictions.join(', ')}` : ''}`);
}

/** Follows the feed from the last cursor saved, forever; safe to stop and restart at any time. */
async function follow(cursorFile = 'sanctions.cursor') {
  let cursor = existsSync(cursorFile) ? readFileSync(cursorFile, 'utf8').trim() : '';
  for (;;) {
    const page = await api(`/v1/sanctions?limit=1000${cursor ? `&after=${cursor}` : ''}`);
    for (const e of page.events) apply(e);
    cursor = page.next;
    writeFileSync(cursorFile, cursor);
    if (page.events.length === 0) await new Promise((r) => setTimeout(r, 2000));
  }
}

const applied = new Set();
function apply(e) {
  if (applied.has(e.seq)) return; // the webhook and the feed share the seq: apply each change once
  applied.add(e.seq);
  if (e.type === 'appeal.resolved') {
    // Tell the player how their appeal ended, in the reviewer's words (docs/appeals.md).
    console.log(`#${e.seq} appeal ${e.appeal.id} of sanction ${e.sanctionId} ${e.appeal.outcome} for user ${e.userId}: ${e.appeal.reason}`);
    return;
  }
  const action = e.type !== 'sanction.created' ? (e.cause === 'appeal' ? ' (appeal overturned)' : '') : e.kind === 'ban' ? ' -> kick if online' : e.kind === 'warning' ? ' -> show the warning' : ` -> apply ${e.kind} restriction`;
  console.log(`#${e.seq} ${e.type} ${e.kind} user ${e.userId}${action}`);
}

/**
 * Receives the webhook: verifies the signature over the raw bytes before trusting them, then acts
 * on the player at once. Deliveries can arrive out of order (a failed one is retried while later
 * ones go through), so a delivery is a prompt, not the final word: the player's status is read
 * again and enforced as it is now. The feed, in seq order, stays the record.
 */
function webhook(port) {
  const secret = process.env.WEBHOOK_SECRET ?? '';
  createServer((req, res) => {
    // Bytes, not text: a character split across two chunks would change what was signed.
    const chunks = [];
    req.on('data', (d) => chunks.push(d));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
      const given = Buffer.from(String(req.headers['x-signature'] ?? ''));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.writeHead(401).end();
        return;
      }
      const body = JSON.parse(raw.toString('utf8'));
      res.writeHead(204).end();
      if (typeof body.seq === 'number' && !applied.has(body.seq)) {
        applied.add(body.seq);
        await check(body.userId).catch((err) => console.error(`could not read ${body.userId}'s status: ${err.message}`));
      }
    });
  }).listen(Number(port), '127.0.0.1', () => console.log(`webhook receiver on 127.0.0.1:${port}`));
}

const [command, arg] = process.argv.slice(2);
if (command === 'check' && arg) await check(arg);
else if (command === 'follow') await follow(arg);
else if (command === 'webhook' && arg) webhook(arg);
else {
  console.error('usage: sanctions-client.mjs check <userId> | follow [cursorFile] | webhook <port>');
  process.exit(1);
}
