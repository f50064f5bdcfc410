import type { NearCache, Redis } from '@rm/runtime';
import { luaScript, type ScriptFn } from './lua-script.js';
import type { SanctionTally } from '@rm/storage';
import { nameOf, type Reporter } from './report-guard.js';
import { IN_CHUNKS } from './scripts.js';

/**
 * SET-IF-NEWER of a cached answer: the key holds '<version>|<json>'. Refused when the cached
 * version is newer, or the same and not a tombstone (an empty body).
 */
const PUT_IF_NEWER_FN = `
local function putIfNewer(key, version, json, ttl)
  local cur = redis.call('GET', key)
  if cur then
    local sep = string.find(cur, '|', 1, true)
    local v = tonumber(string.sub(cur, 1, sep - 1))
    local new = tonumber(version)
    if v > new or (v == new and string.sub(cur, sep + 1) ~= '') then return 0 end
  end
  redis.call('SET', key, version .. '|' .. json, 'PX', ttl)
  return 1
end
`;

/**
 * KEYS: banned flag, its version, open-case flag, reporters, the ban API's cached answer (one
 * user's slot). ARGV: the user's sanction version (how many sanction changes storage holds for
 * them), 1 if banned, the cached answer's TTL, then 'close' / 'reopen' / 'none' and the decided
 * case's reporters (`<platform>:<id>`).
 *
 * The ban flag follows only a newer version, so two syncs racing never leave an older answer.
 * Closing a case removes only that case's reporters, and the open flag only once no reporter is
 * left: a report accepted meanwhile (its reporter added by the submit, its case not stored yet)
 * keeps its mark. Reopening adds the case's reporters back. The ban API's cached answer becomes a
 * tombstone of the version (SanctionStatusCache.invalidate), in the same round trip.
 */
const APPLY_USER_CHANGE = `${IN_CHUNKS}${PUT_IF_NEWER_FN}
local version = tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[2]) or '-1')
if version > current then
  redis.call('SET', KEYS[2], ARGV[1])
  if ARGV[2] == '1' then redis.call('SET', KEYS[1], '1') else redis.call('DEL', KEYS[1]) end
end
if ARGV[4] == 'close' then
  if #ARGV > 4 then inChunks('SREM', KEYS[4], 5, #ARGV) end
  if redis.call('SCARD', KEYS[4]) == 0 then redis.call('DEL', KEYS[3]) end
elseif ARGV[4] == 'reopen' then
  redis.call('SET', KEYS[3], '1')
  if #ARGV > 4 then inChunks('SADD', KEYS[4], 5, #ARGV) end
end
putIfNewer(KEYS[5], ARGV[1], '', ARGV[3])
return 'ok'
`;

/** How long a cached answer lives unread-for-change; a miss just rebuilds it from storage. */
const STATUS_TTL_MS = 10 * 60_000;

/** The ban API's cached answer of a player (SanctionStatusCache), in the guard's slot of that player. */
const statusKey = (prefix: string, userId: string) => `${prefix}:u:{${userId}}:sanctions`;

export type CaseChange = { kind: 'close' | 'reopen'; reporters: Reporter[] } | null;

/**
 * Applies a committed change (decision, lift, expiry) to the guard's Redis view of one user,
 * without overwriting what submits wrote meanwhile, and invalidates the ban API's cached answer
 * (SanctionStatusCache). Keys are ReportGuard's user keys (one hash tag per user), the ban flag's
 * version and the cached answer.
 */
export class UserStateSync {
  private readonly applyUserChange: ScriptFn;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.applyUserChange = luaScript(redis, APPLY_USER_CHANGE, 5);
  }

  private keys(userId: string): string[] {
    const base = `${this.prefix}:u:{${userId}}`;
    return [`${base}:banned`, `${base}:ban-version`, `${base}:open`, `${base}:reporters`, statusKey(this.prefix, userId)];
  }

  async apply(userId: string, ban: { version: number; banned: boolean }, caseChange: CaseChange): Promise<void> {
    const args = [ban.version, ban.banned ? 1 : 0, STATUS_TTL_MS, caseChange?.kind ?? 'none', ...(caseChange?.reporters ?? []).map(nameOf)];
    await this.applyUserChange(...this.keys(userId), ...args);
  }
}

/** KEYS: the cached answer. ARGV: version, json (empty: a tombstone), ttl ms. */
const PUT_IF_NEWER = `${PUT_IF_NEWER_FN}
return putIfNewer(KEYS[1], ARGV[1], ARGV[2], ARGV[3])
`;

/**
 * The ban API's answer per player, cached in Redis (derived state: a miss rebuilds it from
 * storage). A change of the player's sanctions writes a tombstone carrying the new version, so a
 * rebuild that read storage before the change cannot put its older answer back. Given a
 * NearCache, reads go through it: the answers also stay in this process until Redis says their key
 * changed.
 */
export class SanctionStatusCache {
  private readonly putIfNewer: ScriptFn;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly near?: NearCache,
  ) {
    this.putIfNewer = luaScript(redis, PUT_IF_NEWER, 1);
  }

  private key(userId: string): string {
    return statusKey(this.prefix, userId);
  }

  /** The cached JSON answer, or null on a miss (or a tombstone). */
  async get(userId: string): Promise<string | null> {
    const key = this.key(userId);
    const cur = await (this.near ? this.near.get(key) : this.redis.get(key));
    if (!cur) return null;
    const body = cur.slice(cur.indexOf('|') + 1);
    return body === '' ? null : body;
  }

  /** Caches an answer built from storage at `version`, unless a newer one (or a newer tombstone) is there. */
  async put(userId: string, version: number, json: string): Promise<void> {
    await this.putIfNewer(this.key(userId), version, json, STATUS_TTL_MS);
  }

  /** After a change: the version is now `version`; the answer is rebuilt at the next read. */
  async invalidate(userId: string, version: number): Promise<void> {
    await this.putIfNewer(this.key(userId), version, '', STATUS_TTL_MS);
  }
}

/** Counts a list of sanctions as the store's tally (`sanctionTallyOfUser`) does. */
export function tallyOf(sanctions: { state: string; blocksLogin: boolean }[]): SanctionTally {
  const t = { active: 0, ended: 0, banning: 0 };
  for (const s of sanctions) {
    if (s.state === 'active') {
      t.active++;
      if (s.blocksLogin) t.banning++;
    } else if (s.state !== 'scheduled') t.ended++;
  }
  return t;
}

/**
 * A player's sanction version: every change (taking effect, ending) adds one, so it only grows. A
 * scheduled sanction (a ban wave not effective yet) counts 0, active 1, ended 2.
 */
export function sanctionVersion(t: SanctionTally): number {
  return t.active + 2 * t.ended;
}

/** Banned: an active sanction of a login-blocking kind (the ban flag, the list's `banned`, the ban API's `banned`). */
export function isBannedBy(t: SanctionTally): boolean {
  return t.banning > 0;
}
