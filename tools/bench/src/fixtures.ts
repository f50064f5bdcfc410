import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../../..');
const CLI = join(ROOT, 'tools/cli/dist/main.js');

/** Runs the admin CLI with the given environment; throws with its stderr on failure. */
export function cli(args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cli ${args.slice(0, 2).join(' ')} failed: ${r.stderr.trim()}`);
  return r.stdout;
}

/** An admin key, made through the CLI. Returns the Authorization header value. */
export function createAdminKey(env: NodeJS.ProcessEnv, name = 'load'): string {
  const out = JSON.parse(cli(['apikey', 'create', '--name', name, '--admin', '--json'], env)) as { key: string; secret: string };
  return `${out.key}:${out.secret}`;
}

/** Numeric ids of `count` players registered through `user import`, starting at `first`. */
export function importUsers(env: NodeJS.ProcessEnv, count: number, first = 900_000_000): string[] {
  const ids = Array.from({ length: count }, (_, i) => String(first + i));
  const dir = mkdtempSync(join(tmpdir(), 'rm-users-'));
  try {
    const file = join(dir, 'users.json');
    writeFileSync(file, JSON.stringify(ids.map((id) => ({ id, name: `player${id}`, displayName: `Player ${id}`, avatar: `https://avatars.example/${id}.png` }))));
    cli(['user', 'import', file], env);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return ids;
}

export function addModerator(env: NodeJS.ProcessEnv, id: string, username: string): void {
  try {
    cli(['moderator', 'add', '--id', id, '--username', username], env);
  } catch (err) {
    if (!String(err).includes('already exists')) throw err;
  }
}

/** Answers a random element of `items` at each call. */
export function randomOf<T>(items: T[]): () => T {
  return () => items[Math.floor(Math.random() * items.length)]!;
}

/** A valid check about the user by a reporter never seen before. */
export function checkBody(userId: string): string {
  return JSON.stringify({ userId, reporterId: `probe-${Math.random()}` });
}

let seq = 0;
/** A valid submission from a reporter never seen before, so no daily cap or duplicate refusal. */
export function submissionBody(userId: string, createEvidence = false): string {
  seq++;
  return JSON.stringify({
    userId,
    answers: [{ questionId: 'q1', answer: 'Used an aimbot in ranked' }],
    evidence: [{ url: 'https://clips.example/1', type: 'url', ...(createEvidence && { createEvidence: true }) }],
    reporter: { id: `load-${process.pid}-${Date.now()}-${seq}`, platform: 'gameplatform' },
  });
}
