/**
 * Lua scripts: each runs atomically in Redis, so every check and counter of one request costs a
 * single round trip and two gateways can never both admit the same over-limit report.
 *
 * Shared KEYS layout: 1 rate counter, 2 daily counter, 3 banned flag, 4 open-case flag,
 * 5 set of reporters in the open case.
 */
const RATE = `
local function over_rate()
  local limit = tonumber(ARGV[1])
  if limit > 0 then
    local n = redis.call('INCR', KEYS[1])
    if n == 1 then redis.call('EXPIRE', KEYS[1], 120) end
    if n > limit then return true end
  end
  return false
end
`;

const REFUSAL = `
local function refusal(max_per_day, reporter)
  if tonumber(redis.call('GET', KEYS[2]) or '0') >= max_per_day then return 'daily' end
  if redis.call('EXISTS', KEYS[3]) == 1 then return 'banned' end
  if redis.call('SISMEMBER', KEYS[5], reporter) == 1 then return 'duplicate' end
  return false
end
`;

/** ARGV: rateLimit, maxPerDay, reporterId. Returns {outcome, appended}. */
export const ADMIT = `${RATE}${REFUSAL}
if over_rate() then return {'rate', 0} end
local refused = refusal(tonumber(ARGV[2]), ARGV[3])
if refused then return {refused, 0} end
redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], 172800)
redis.call('SADD', KEYS[5], ARGV[3])
local fresh = redis.call('SET', KEYS[4], '1', 'NX')
if fresh then return {'ok', 0} end
return {'ok', 1}
`;

/** ARGV: rateLimit, maxPerDay, reporterId. Returns {outcome, reportsToday}. */
export const PROBE = `${RATE}${REFUSAL}
if over_rate() then return {'rate', 0} end
local refused = refusal(tonumber(ARGV[2]), ARGV[3])
return {refused or 'ok', tonumber(redis.call('GET', KEYS[2]) or '0')}
`;

/** ARGV: rateLimit. */
export const RATE_ONLY = `${RATE}
if over_rate() then return 'rate' end
return 'ok'
`;

/** Undoes an ADMIT whose job could not be enqueued. ARGV: reporterId, appended (0/1). */
export const RELEASE = `
if tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then redis.call('DECR', KEYS[2]) end
redis.call('SREM', KEYS[5], ARGV[1])
if ARGV[2] == '0' then redis.call('DEL', KEYS[4]) end
return 'ok'
`;
