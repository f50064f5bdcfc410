/**
 * Lua scripts: each runs atomically in Redis. The single-entity scripts touch the keys of one
 * entity only (an API key, a reporter, a reported user), which share a hash tag, so each works on a
 * Redis Cluster. The `*_MANY` scripts check a whole batch of requests in one call; their keys span
 * entities, so they are for a standalone Redis only (NOTE_OPEN_CASES too, unless given one user).
 */

/** Per-minute rate of an API key: counts the request, true when it is over the limit (0: none). */
const RATE_FN = `
local function overRate(key, limit)
  if limit <= 0 then return false end
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('EXPIRE', key, 120) end
  return n > limit
end
`;

/** A reporter's reports today. */
const DAILY_FN = `
local function dailyFull(key, max) return tonumber(redis.call('GET', key) or '0') >= max end
local function dailyTake(key)
  redis.call('INCR', key)
  redis.call('EXPIRE', key, 172800)
end
`;

/** A reported user: banned flag, open-case flag, reporters of the open case. */
const USER_FN = `
local function userRefusal(banned, reporters, reporter)
  if redis.call('EXISTS', banned) == 1 then return 'banned' end
  if redis.call('SISMEMBER', reporters, reporter) == 1 then return 'duplicate' end
  return false
end
local function userTake(open, reporters, reporter)
  redis.call('SADD', reporters, reporter)
  if redis.call('SET', open, '1', 'NX') then return 'opened' end
  return 'appended'
end
`;

/** KEYS: rate counter. ARGV: limit per minute. */
export const RATE = `${RATE_FN}
if overRate(KEYS[1], tonumber(ARGV[1])) then return 'rate' end
return 'ok'
`;

/** KEYS: the reporter's counter for the day. ARGV: maximum per day. Counts the report if under it. */
export const DAILY_TAKE = `${DAILY_FN}
if dailyFull(KEYS[1], tonumber(ARGV[1])) then return 'daily' end
dailyTake(KEYS[1])
return 'ok'
`;

/** KEYS: the reporter's counter for the day. */
export const DAILY_GIVE_BACK = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 'ok'
`;

/**
 * KEYS: banned flag, open-case flag, reporters. ARGV: reporter id. Adds the reporter to the user's
 * open case: 'opened' when this opens it.
 */
export const USER_TAKE = `${USER_FN}
return userRefusal(KEYS[1], KEYS[3], ARGV[1]) or userTake(KEYS[2], KEYS[3], ARGV[1])
`;

/** KEYS: banned flag, open-case flag, reporters. ARGV: reporter id. What USER_TAKE would refuse, reserving nothing. */
export const USER_PEEK = `${USER_FN}
return userRefusal(KEYS[1], KEYS[3], ARGV[1]) or 'ok'
`;

/**
 * The batch of the `*_MANY` scripts is one JSON argument, an array with per request its rate
 * counter, daily counter, banned flag, open-case flag and reporters keys, then its rate limit,
 * daily maximum and reporter id. One argument rather than eight per request: building and parsing
 * the command's arguments was the larger part of the batch's cost. The keys are not declared as
 * KEYS, which only a standalone Redis allows; these scripts are for one anyway.
 */
const BATCH = `
local batch = cjson.decode(ARGV[1])
local out = {}
`;

/**
 * Admits a batch (see BATCH), in order, each request seeing the ones before it. Answers, joined by
 * commas, per request the first refusal (rate, daily, banned, duplicate, in that order), else
 * 'opened' or 'appended'; a refused request reserves nothing but its rate count. With ARGV[2], also
 * keeps that answer under the key ARGV[2] (the verdicts of an intake job).
 */
export const ADMIT_MANY = `${RATE_FN}${DAILY_FN}${USER_FN}${BATCH}
for i, r in ipairs(batch) do
  local result = (overRate(r[1], r[6]) and 'rate') or (dailyFull(r[2], r[7]) and 'daily') or userRefusal(r[3], r[5], r[8])
  if not result then
    dailyTake(r[2])
    result = userTake(r[4], r[5], r[8])
  end
  out[i] = result
end
local answer = table.concat(out, ',')
if ARGV[2] then redis.call('SET', ARGV[2], answer) end
return answer
`;

/** What ADMIT_MANY would answer ('ok' for an admit), counting only the rate. The same batch. */
export const PROBE_MANY = `${RATE_FN}${DAILY_FN}${USER_FN}${BATCH}
for i, r in ipairs(batch) do
  out[i] = (overRate(r[1], r[6]) and 'rate') or (dailyFull(r[2], r[7]) and 'daily') or userRefusal(r[3], r[5], r[8]) or 'ok'
end
return table.concat(out, ',')
`;

/**
 * Undoes a USER_TAKE. KEYS: banned flag, open-case flag, reporters. ARGV: reporter id, 1 if that
 * take opened the case. The open flag goes only if no other reporter joined meanwhile.
 */
export const USER_GIVE_BACK = `
redis.call('SREM', KEYS[3], ARGV[1])
if ARGV[2] == '1' and redis.call('SCARD', KEYS[3]) == 0 then redis.call('DEL', KEYS[2]) end
return 'ok'
`;

/**
 * Marks users' cases open and adds reporters to them. Per user, KEYS: open-case flag, reporters;
 * ARGV: how many reporter ids follow, then those ids.
 */
export const NOTE_OPEN_CASES = `
local a = 1
for k = 1, #KEYS, 2 do
  redis.call('SET', KEYS[k], '1')
  local n = tonumber(ARGV[a])
  if n > 0 then redis.call('SADD', KEYS[k + 1], unpack(ARGV, a + 1, a + n)) end
  a = a + n + 1
end
return 'ok'
`;

/**
 * KEYS: banned flag, open-case flag, reporters. ARGV: 1 if banned, 1 if the user has an open case,
 * then its reporter ids. Sets the user's view to exactly that (reporters only ever added).
 */
export const SYNC_USER = `
if ARGV[1] == '1' then redis.call('SET', KEYS[1], '1') else redis.call('DEL', KEYS[1]) end
if ARGV[2] == '1' then
  redis.call('SET', KEYS[2], '1')
  if #ARGV > 2 then redis.call('SADD', KEYS[3], unpack(ARGV, 3)) end
else
  redis.call('DEL', KEYS[2], KEYS[3])
end
return 'ok'
`;
