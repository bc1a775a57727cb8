// Private to serve/state/redis.ts: the Lua scripts that make each store
// operation one atomic step on the Redis server, whatever number of serve
// instances share it. Times come from the server's clock (TIME), so instances
// with skewed clocks agree on expiry.
//
// Keys (P is the key prefix; every key of a session carries its id):
//   P s:<id>       hash {r: the session record (JSON), p: its principal}; TTL = idle
//   P p:<princ>    sorted set of the principal's session ids, scored by expiry (ms)
//   P e:<id>       list of the session's events, oldest first: "<seq>|<stream>|<json>"
//                  (stream URI-encoded: no "|"); TTL = the session's
//   P eb:<id>      bytes of JSON in P e:<id>; TTL = the session's
//   P g:events     sorted set of every kept event "<seq>|<bytes>|<session id>" by seq
//   P g:bytes      bytes of every event in P g:events (the total cap's counter)
//   P g:seq        the event sequence (INCR), one for all sessions: event ids are unique
//   P r:<ms>:<princ> a principal's requests in the current window of <ms>; TTL = the window

/** Milliseconds since the epoch by the server's clock (shared prologue). */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * Creates a session unless its principal holds the quota already.
 * KEYS: session, principal set. ARGV: record, principal, quota, idle ms, id.
 * Returns 1 (created) or 0 (quota).
 */
export const CREATE_SESSION = `${NOW}
local idle = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], 'r', ARGV[1], 'p', ARGV[2])
redis.call('PEXPIRE', KEYS[1], idle)
redis.call('ZADD', KEYS[2], now + idle, ARGV[5])
redis.call('PEXPIRE', KEYS[2], idle)
return 1
`;

/**
 * The session's record, its idle time restarted (session, its principal's
 * set entry, its events). KEYS: session, events, event bytes. ARGV: idle ms,
 * id, key prefix. Returns the record or false.
 */
export const TOUCH_SESSION = `${NOW}
local idle = tonumber(ARGV[1])
local found = redis.call('HMGET', KEYS[1], 'r', 'p')
if not found[1] then return false end
redis.call('PEXPIRE', KEYS[1], idle)
local owned = ARGV[3] .. 'p:' .. found[2]
redis.call('ZADD', owned, now + idle, ARGV[2])
redis.call('PEXPIRE', owned, idle)
redis.call('PEXPIRE', KEYS[2], idle)
redis.call('PEXPIRE', KEYS[3], idle)
return found[1]
`;

/**
 * Forgets a session and every event it kept. KEYS: session, events, event
 * bytes, all events, total bytes. ARGV: id, key prefix.
 */
export const DELETE_SESSION = `
local principal = redis.call('HGET', KEYS[1], 'p')
if principal then redis.call('ZREM', ARGV[2] .. 'p:' .. principal, ARGV[1]) end
local entries = redis.call('LRANGE', KEYS[2], 0, -1)
local freed = 0
for _, entry in ipairs(entries) do
  local bar1 = string.find(entry, '|', 1, true)
  local bar2 = string.find(entry, '|', bar1 + 1, true)
  local bytes = #entry - bar2
  redis.call('ZREM', KEYS[4], string.sub(entry, 1, bar1 - 1) .. '|' .. bytes .. '|' .. ARGV[1])
  freed = freed + bytes
end
if freed > 0 then redis.call('DECRBY', KEYS[5], freed) end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return 1
`;

/**
 * The principal's live sessions. KEYS: principal set. Returns the count.
 */
export const COUNT_SESSIONS = `${NOW}
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
`;

/**
 * Keeps an event, then drops the oldest events of the session above its cap
 * and the oldest events of all sessions above the total cap. KEYS: session,
 * events, event bytes, all events, total bytes, sequence. ARGV: stream
 * (URI-encoded), JSON, bytes of JSON, per-session cap, total cap, id, key
 * prefix. Returns the event's sequence number (kept or not: an event of an
 * unknown session or above the session cap is not kept).
 */
export const APPEND_EVENT = `
local seq = redis.call('INCR', KEYS[6])
local bytes = tonumber(ARGV[3])
local cap = tonumber(ARGV[4])
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 or bytes > cap then return seq end
redis.call('RPUSH', KEYS[2], seq .. '|' .. ARGV[1] .. '|' .. ARGV[2])
local held = redis.call('INCRBY', KEYS[3], bytes)
redis.call('ZADD', KEYS[4], seq, seq .. '|' .. bytes .. '|' .. ARGV[6])
local total = redis.call('INCRBY', KEYS[5], bytes)
while held > cap do
  local old = redis.call('LPOP', KEYS[2])
  if not old then break end
  local bar1 = string.find(old, '|', 1, true)
  local bar2 = string.find(old, '|', bar1 + 1, true)
  local oldBytes = #old - bar2
  redis.call('ZREM', KEYS[4], string.sub(old, 1, bar1 - 1) .. '|' .. oldBytes .. '|' .. ARGV[6])
  held = redis.call('DECRBY', KEYS[3], oldBytes)
  total = redis.call('DECRBY', KEYS[5], oldBytes)
end
local limit = tonumber(ARGV[5])
while total > limit do
  local popped = redis.call('ZPOPMIN', KEYS[4])
  if not popped[1] then
    redis.call('SET', KEYS[5], 0)
    break
  end
  local member = popped[1]
  local bar1 = string.find(member, '|', 1, true)
  local bar2 = string.find(member, '|', bar1 + 1, true)
  local oldSeq = string.sub(member, 1, bar1 - 1)
  local oldBytes = tonumber(string.sub(member, bar1 + 1, bar2 - 1))
  local owner = string.sub(member, bar2 + 1)
  total = redis.call('DECRBY', KEYS[5], oldBytes)
  local list = ARGV[7] .. 'e:' .. owner
  local head = redis.call('LINDEX', list, 0)
  if head and string.sub(head, 1, #oldSeq + 1) == oldSeq .. '|' then
    redis.call('LPOP', list)
    redis.call('DECRBY', ARGV[7] .. 'eb:' .. owner, oldBytes)
  end
end
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PEXPIRE', KEYS[3], ttl)
return seq
`;

/**
 * Counts a request in a fixed window. KEYS: the counter. ARGV: window ms.
 * Returns the count in the window so far.
 */
export const HIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`;
