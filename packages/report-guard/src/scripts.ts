/**
 * Lua scripts: each runs atomically in Redis. Every script touches the keys of one entity only (an
 * API key, a reporter, a reported user), which share a hash tag, so each works on a Redis Cluster.
 */

/** KEYS: rate counter. ARGV: limit per minute. */
export const RATE = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], 120) end
if n > tonumber(ARGV[1]) then return 'rate' end
return 'ok'
`;

/** KEYS: the reporter's counter for the day. ARGV: maximum per day. Counts the report if under it. */
export const DAILY_TAKE = `
if tonumber(redis.call('GET', KEYS[1]) or '0') >= tonumber(ARGV[1]) then return 'daily' end
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], 172800)
return 'ok'
`;

/** KEYS: the reporter's counter for the day. */
export const DAILY_GIVE_BACK = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 'ok'
`;

/** Shared by the user scripts. KEYS: banned flag, open-case flag, reporters of the open case. */
const USER_REFUSAL = `
local function refusal(reporter)
  if redis.call('EXISTS', KEYS[1]) == 1 then return 'banned' end
  if redis.call('SISMEMBER', KEYS[3], reporter) == 1 then return 'duplicate' end
  return false
end
`;

/** ARGV: reporter id. Adds the reporter to the user's open case: 'opened' when this opens it. */
export const USER_TAKE = `${USER_REFUSAL}
local refused = refusal(ARGV[1])
if refused then return refused end
redis.call('SADD', KEYS[3], ARGV[1])
if redis.call('SET', KEYS[2], '1', 'NX') then return 'opened' end
return 'appended'
`;

/** ARGV: reporter id. What USER_TAKE would refuse, reserving nothing. */
export const USER_PEEK = `${USER_REFUSAL}
return refusal(ARGV[1]) or 'ok'
`;

/**
 * Undoes a USER_TAKE. ARGV: reporter id, 1 if that take opened the case. The open flag goes only if
 * no other reporter joined meanwhile.
 */
export const USER_GIVE_BACK = `
redis.call('SREM', KEYS[3], ARGV[1])
if ARGV[2] == '1' and redis.call('SCARD', KEYS[3]) == 0 then redis.call('DEL', KEYS[2]) end
return 'ok'
`;

/** KEYS: banned flag, open-case flag, reporters. ARGV: reporter ids. Marks the case open, adds them. */
export const NOTE_OPEN_CASE = `
redis.call('SET', KEYS[2], '1')
if #ARGV > 0 then redis.call('SADD', KEYS[3], unpack(ARGV)) end
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
