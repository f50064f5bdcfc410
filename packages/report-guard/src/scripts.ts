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
local function dailyReserve(key)
  redis.call('INCR', key)
  redis.call('EXPIRE', key, 172800)
end
local function dailyRelease(key)
  if tonumber(redis.call('GET', key) or '0') > 0 then redis.call('DECR', key) end
end
`;

/** A reported user: banned flag, open-case flag, reporters of the open case. */
const USER_FN = `
local function userRefusal(banned, reporters, reporter)
  if redis.call('EXISTS', banned) == 1 then return 'banned' end
  if redis.call('SISMEMBER', reporters, reporter) == 1 then return 'duplicate' end
  return false
end
local function userReserve(open, reporters, reporter)
  redis.call('SADD', reporters, reporter)
  if redis.call('SET', open, '1', 'NX') then return 'opened' end
  return 'appended'
end
local function userRelease(open, reporters, reporter, opened)
  redis.call('SREM', reporters, reporter)
  if opened and redis.call('SCARD', reporters) == 0 then redis.call('DEL', open) end
end
`;

/** KEYS: rate counter. ARGV: limit per minute. */
export const RATE = `${RATE_FN}
if overRate(KEYS[1], tonumber(ARGV[1])) then return 'rate' end
return 'ok'
`;

/** KEYS: the reporter's counter for the day. ARGV: maximum per day. Counts the report if under it. */
export const DAILY_RESERVE = `${DAILY_FN}
if dailyFull(KEYS[1], tonumber(ARGV[1])) then return 'daily' end
dailyReserve(KEYS[1])
return 'ok'
`;

/**
 * The per-slot reservations of one report (Redis Cluster), made idempotent by a marker in the same
 * slot, named by the report id, holding the answer: sent again, a reservation answers what it did;
 * released, the marker says 'released', so a sending that arrives later reserves nothing.
 * Kept 30 s: long enough for a gateway to send again or release, short enough at 10,000 reports/s.
 */
const MARK_FN = `
local function marked(key) return redis.call('GET', key) end
local function mark(key, answer) redis.call('SET', key, answer, 'EX', 30) return answer end
`;

/** KEYS: the reporter's counter for the day, the report's marker. ARGV: maximum per day. DAILY_RESERVE, once per report. */
export const DAILY_RESERVE_ONCE = `${DAILY_FN}${MARK_FN}
local done = marked(KEYS[2])
if done then return done end
if dailyFull(KEYS[1], tonumber(ARGV[1])) then return mark(KEYS[2], 'daily') end
dailyReserve(KEYS[1])
return mark(KEYS[2], 'ok')
`;

/** KEYS: the reporter's counter for the day, the report's marker. Releases what DAILY_RESERVE_ONCE reserved, if anything. */
export const DAILY_RELEASE_ONCE = `${DAILY_FN}${MARK_FN}
if marked(KEYS[2]) == 'ok' then dailyRelease(KEYS[1]) end
return mark(KEYS[2], 'released')
`;

/** KEYS: banned flag, open-case flag, reporters, the report's marker. ARGV: reporter. USER_RESERVE, once per report. */
export const USER_RESERVE_ONCE = `${USER_FN}${MARK_FN}
local done = marked(KEYS[4])
if done then return done end
return mark(KEYS[4], userRefusal(KEYS[1], KEYS[3], ARGV[1]) or userReserve(KEYS[2], KEYS[3], ARGV[1]))
`;

/** KEYS: banned flag, open-case flag, reporters, the report's marker. ARGV: reporter. Releases what USER_RESERVE_ONCE reserved, if anything. */
export const USER_RELEASE_ONCE = `${USER_FN}${MARK_FN}
local done = marked(KEYS[4])
if done == 'opened' or done == 'appended' then userRelease(KEYS[2], KEYS[3], ARGV[1], done == 'opened') end
return mark(KEYS[4], 'released')
`;

/** KEYS: the reporter's counter for the day. */
export const DAILY_RELEASE = `${DAILY_FN}
dailyRelease(KEYS[1])
return 'ok'
`;

/**
 * KEYS: banned flag, open-case flag, reporters. ARGV: reporter id. Adds the reporter to the user's
 * open case: 'opened' when this opens it.
 */
export const USER_RESERVE = `${USER_FN}
return userRefusal(KEYS[1], KEYS[3], ARGV[1]) or userReserve(KEYS[2], KEYS[3], ARGV[1])
`;

/** KEYS: banned flag, open-case flag, reporters. ARGV: reporter id. What USER_RESERVE would refuse, reserving nothing. */
export const USER_CHECK = `${USER_FN}
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
 * The verdicts of an intake job (the answers of its RESERVE_MANY) under their key, in one of three
 * states: the answers as recorded; '=' and the answers once a worker took them (TAKE_VERDICTS: it
 * stores the reserved reports); '-' once the gateway abandoned the job (ABANDON_VERDICTS: released).
 */
const VERDICTS_FN = `
local function recordedAnswers(v) if string.sub(v, 1, 1) == '=' then return string.sub(v, 2) end return v end
`;

/**
 * Reserves for a batch (see BATCH), in order, each request seeing the ones before it. Answers,
 * joined by commas, per request the first refusal (rate, daily, banned, duplicate, in that order),
 * else 'opened' or 'appended'; a refused request reserves nothing but its rate count. With ARGV[2],
 * also keeps that answer under the key ARGV[2] (the verdicts key of an intake job), and is
 * idempotent on it: run again (a gateway confirming a submit whose answer was lost, or ioredis
 * resending it after a reconnect), it answers what it recorded and reserves nothing more.
 */
export const RESERVE_MANY = `${RATE_FN}${DAILY_FN}${USER_FN}${VERDICTS_FN}${BATCH}
if ARGV[2] then
  local recorded = redis.call('GET', ARGV[2])
  if recorded then return recordedAnswers(recorded) end
end
for i, r in ipairs(batch) do
  local result = (overRate(r[1], r[6]) and 'rate') or (dailyFull(r[2], r[7]) and 'daily') or userRefusal(r[3], r[5], r[8])
  if not result then
    dailyReserve(r[2])
    result = userReserve(r[4], r[5], r[8])
  end
  out[i] = result
end
local answer = table.concat(out, ',')
if ARGV[2] then redis.call('SET', ARGV[2], answer) end
return answer
`;

/** What RESERVE_MANY would answer ('ok' for a reservation), counting only the rate. The same batch. */
export const CHECK_MANY = `${RATE_FN}${DAILY_FN}${USER_FN}${BATCH}
for i, r in ipairs(batch) do
  out[i] = (overRate(r[1], r[6]) and 'rate') or (dailyFull(r[2], r[7]) and 'daily') or userRefusal(r[3], r[5], r[8]) or 'ok'
end
return table.concat(out, ',')
`;

/**
 * Undoes a USER_RESERVE. KEYS: banned flag, open-case flag, reporters. ARGV: reporter, 1 if that
 * reservation opened the case. The open flag goes only if no other reporter joined meanwhile.
 */
export const USER_RELEASE = `${USER_FN}
userRelease(KEYS[2], KEYS[3], ARGV[1], ARGV[2] == '1')
return 'ok'
`;

/**
 * KEYS: an intake job's verdicts key. The worker takes the answers before it stores the job's
 * reserved reports (answers them, marked taken), or finds nil: nothing recorded (the checks
 * failed) or abandoned by the gateway. Taken, the gateway can no longer abandon them.
 */
export const TAKE_VERDICTS = `${VERDICTS_FN}
local v = redis.call('GET', KEYS[1])
if not v or v == '-' then return false end
if string.sub(v, 1, 1) ~= '=' then redis.call('SET', KEYS[1], '=' .. v) end
return recordedAnswers(v)
`;

/**
 * A gateway that could not confirm a submit (its RESERVE_MANY and job, sent again and again, still
 * unanswered) abandons it: the same batch (see BATCH), ARGV[2] the verdicts key. Unless a worker
 * already took them, releases what the recorded answers reserved and leaves '-' for a day, so a job
 * or a RESERVE_MANY arriving late stores and reserves nothing. Answers 'abandoned', or the answers
 * a worker took (the reports are being stored: the callers may be told so).
 */
export const ABANDON_VERDICTS = `${DAILY_FN}${USER_FN}${VERDICTS_FN}${BATCH}
local v = redis.call('GET', ARGV[2])
if v == '-' then return 'abandoned' end
if v and string.sub(v, 1, 1) == '=' then return recordedAnswers(v) end
redis.call('SET', ARGV[2], '-', 'EX', 86400)
if not v then return 'abandoned' end
local i = 0
local opened = {}
for answer in string.gmatch(v, '[^,]+') do
  i = i + 1
  local r = batch[i]
  if r and (answer == 'opened' or answer == 'appended') then
    dailyRelease(r[2])
    userRelease(r[4], r[5], r[8], false)
    if answer == 'opened' then opened[#opened + 1] = r end
  end
end
-- After every release: a case opened by this batch stays open only if someone else joined it.
for _, r in ipairs(opened) do userRelease(r[4], r[5], r[8], true) end
return 'abandoned'
`;

/**
 * Lua unpacks at most a few thousand values at once (a case of 10,000 reporters failed the whole
 * script), so a script that adds or removes many members of a set does it in chunks.
 */
export const IN_CHUNKS = `
local function inChunks(command, key, from, to)
  for i = from, to, 1000 do redis.call(command, key, unpack(ARGV, i, math.min(i + 999, to))) end
end
`;

/**
 * Marks users' cases open and adds reporters to them. Per user, KEYS: open-case flag, reporters;
 * ARGV: how many reporter ids follow, then those ids.
 */
export const NOTE_OPEN_CASES = `${IN_CHUNKS}
local a = 1
for k = 1, #KEYS, 2 do
  redis.call('SET', KEYS[k], '1')
  local n = tonumber(ARGV[a])
  if n > 0 then inChunks('SADD', KEYS[k + 1], a + 1, a + n) end
  a = a + n + 1
end
return 'ok'
`;

/**
 * KEYS: banned flag, open-case flag, reporters. ARGV: 1 if banned, 1 if the user has an open case,
 * then its reporter ids. Sets the user's view to exactly that (reporters only ever added).
 */
export const SYNC_USER = `${IN_CHUNKS}
if ARGV[1] == '1' then redis.call('SET', KEYS[1], '1') else redis.call('DEL', KEYS[1]) end
if ARGV[2] == '1' then
  redis.call('SET', KEYS[2], '1')
  if #ARGV > 2 then inChunks('SADD', KEYS[3], 3, #ARGV) end
else
  redis.call('DEL', KEYS[2], KEYS[3])
end
return 'ok'
`;
