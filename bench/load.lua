-- wrk script for bench/run.py. Without arguments: the one request on the command line (headers
-- from -H), over and over. With a data file after "--": each connection cycles through a list
-- of requests, one letter each (bench/mix.py lays it out; the entry-post run is "e" alone):
--   u  a safety fetch of the live part while nothing changed: this phone's ETag, taken from a
--      real answer, sent back verbatim in If-None-Match; answered 304
--   c  the fetch a ring leads to: this phone's ETag of the version before, so the server works
--      out and sends the live part drawn for the phone; 200
--   e  an entry post, a new valid entry each time; 302 to the sheet page
--   s  the sheet page that post led to, loaded as the phone follows the redirect: its Location,
--      with the cookie the post set (the flash message); 200
-- Any other answer is counted as unexpected: the run then measured something else.
--
-- Each wrk thread holds exactly one connection, so a thread's requests reach the server in
-- order: hand n is complete before hand n + 1 is sent, and a sheet page follows its post.
-- Requests are built from counts of answers, which move on only when an answer arrives: wrk
-- calls request() once more than it sends (to check the script, in thread 0), and a request
-- resent after a dropped connection is the same, a post with the same idempotency key, so it
-- is recorded once.

local ffi = require("ffi")
ffi.cdef([[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock, bench_timespec *now);
]])
local CLOCK_MONOTONIC = 1
local timespec = ffi.new("bench_timespec")

local function now_us()
  ffi.C.clock_gettime(CLOCK_MONOTONIC, timespec)
  return tonumber(timespec.tv_sec) * 1e6 + tonumber(timespec.tv_nsec) / 1e3
end

local KINDS = { "u", "c", "e", "s" }
local INDEX = { u = 0, c = 1, e = 2, s = 3 }
local EXPECTED = { u = 304, c = 200, e = 302, s = 200 }
-- Latencies go in buckets 1 % wide, from 1 us to past wrk's 10 s timeout: percentiles to 1 %.
local BUCKET = math.log(1.01)
local BUCKETS = 1700

-- Each request's time from being built (just before wrk writes it) to its answer read, as the
-- phone waits for it. wrk's own percentiles add samples for the requests a slow one held up on
-- its connection (coordinated omission): right for one client sending at a steady rate, wrong
-- here, where a connection stands for many tables whose requests don't wait for each other's.
-- Counted by kind and bucket in a C array: done() reads each thread's through its address, as
-- thread:get copies numbers and strings safely but not nested tables.
local histogram = ffi.new("uint32_t[?]", #KINDS * BUCKETS)
histogram_at = tonumber(ffi.cast("uintptr_t", histogram))
unexpected = 0
-- The last of them, "kind status", to say what came back instead.
unexpected_last = ""
local sent_at = 0

local next_id = 0
local threads = {}

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  threads[#threads + 1] = thread
end

local plain = nil
local cycle = nil
local offset = 0
local answered = 0
-- Entry posts: the phone holding each side, this thread's matches, where each begins.
local phones = {}
local matches = {}
local sides = 0
local hands = 0
local start = 0
local tag = ""
local posted = 0
-- Live-part fetches: this thread's match as each of its phones asks, with its current ETag and
-- with the one it held before the last write.
local unchanged_fetches = {}
local rung_fetches = {}
-- The sheet page the last post led to.
local follow = nil

local function copy_headers(extra)
  -- wrk.format writes Host and Content-Length into the table it is given: a fresh one each time.
  local headers = {}
  for name, value in pairs(wrk.headers) do
    headers[name] = value
  end
  for name, value in pairs(extra) do
    headers[name] = value
  end
  return headers
end

local function read(path, threads_count)
  local readers, tags, codes = {}, {}, {}
  local index = 0
  for line in io.lines(path) do
    local kind, rest = line:match("^(%S+) (.*)$")
    if kind == "phone" then
      local side, cookie, csrf = rest:match("^(%d+) (%S+) (%S+)$")
      phones[tonumber(side)] = { cookie = cookie, csrf = csrf }
      sides = sides + 1
    elseif kind == "hands" then
      hands = tonumber(rest)
    elseif kind == "start" then
      start = tonumber(rest)
    elseif kind == "match" then
      -- Matches are dealt round the threads: no two threads ever post to one match.
      if index % threads_count == id then
        matches[#matches + 1] = rest
      end
      index = index + 1
    elseif kind == "cycle" then
      cycle = rest
    elseif kind == "reader" then
      local n, cookie = rest:match("^(%d+) (%S+)$")
      readers[tonumber(n)] = cookie
    elseif kind == "etag" then
      -- The ETag as the server sent it, and the same phone's of the version before.
      local code, n, current, stale = rest:match("^(%S+) (%d+) (%S+) (%S+)$")
      if tags[code] == nil then
        tags[code] = {}
        codes[#codes + 1] = code
      end
      tags[code][tonumber(n)] = { current = current, stale = stale }
    end
  end
  return readers, tags, codes
end

local function post_target(n)
  -- Post n goes to this thread's match n / (hands * sides), hand by hand, side by side, after
  -- the `start` hands it was filled with; once every match has its hands, go round again with
  -- the hands after them.
  local per_match = hands * sides
  local round = math.floor(n / (per_match * #matches))
  local code = matches[math.floor(n / per_match) % #matches + 1]
  local step = n % per_match
  local hand = start + round * hands + math.floor(step / sides) + 1
  return code, hand, step % sides
end

function init(args)
  if #args == 0 then
    return
  end
  local path, threads_count = args[1], tonumber(args[2])
  tag = args[3]
  local readers, tags, codes = read(path, threads_count)
  -- A data file without a cycle: posts alone.
  cycle = cycle or "e"
  if cycle:find("[uc]") then
    -- Threads share the fetched matches round the list, each asking about one of them.
    local code = codes[id % #codes + 1]
    for n, cookie in pairs(readers) do
      local live = "/m/" .. code .. "/live"
      local headers = { Cookie = cookie, ["If-None-Match"] = tags[code][n].stale }
      rung_fetches[n + 1] = wrk.format("GET", live, copy_headers(headers))
      headers["If-None-Match"] = tags[code][n].current
      unchanged_fetches[n + 1] = wrk.format("GET", live, copy_headers(headers))
    end
  end
  if cycle:find("e") then
    if #matches == 0 then
      error("no match to post to in thread " .. id)
    end
    follow = { path = "/m/" .. matches[1], cookie = phones[0].cookie }
  end
  -- Threads start at different places in the cycle, so their posts don't all come at once.
  offset = math.floor(id * #cycle / threads_count)
  -- Set only here: wrk reads no response (headers, body) for the plain runs.
  response = function(status, headers, body)
    local at = (answered + offset) % #cycle + 1
    local kind = cycle:sub(at, at)
    local bucket = math.floor(math.log(math.max(now_us() - sent_at, 1)) / BUCKET)
    local at_bucket = INDEX[kind] * BUCKETS + math.min(bucket, BUCKETS - 1)
    histogram[at_bucket] = histogram[at_bucket] + 1
    if status ~= EXPECTED[kind] then
      unexpected = unexpected + 1
      unexpected_last = kind .. " " .. status
    end
    if kind == "e" then
      local code, _, side = post_target(posted)
      local location, cookie = nil, nil
      for name, value in pairs(headers) do
        local lower = name:lower()
        if lower == "location" then
          location = (value:gsub("^%a+://[^/]+", ""))
        elseif lower == "set-cookie" then
          cookie = value:match("^[^;]+")
        end
      end
      follow = { path = location or ("/m/" .. code), cookie = cookie or phones[side].cookie }
      posted = posted + 1
    end
    answered = answered + 1
  end
end

local function entry()
  local n = posted
  local code, hand, side = post_target(n)
  local phone = phones[side]
  local body = "csrf_token=" .. phone.csrf .. "&key=" .. tag .. "t" .. id .. "n" .. n
    .. "&hand=" .. hand .. "&side=" .. side .. "&points=" .. ((hand * 7 + side * 13) % 41)
  local headers = copy_headers({
    Cookie = phone.cookie,
    ["Content-Type"] = "application/x-www-form-urlencoded",
  })
  return wrk.format("POST", "/m/" .. code .. "/enter", headers, body)
end

function request()
  if cycle == nil then
    if plain == nil then
      plain = wrk.format()
    end
    return plain
  end
  sent_at = now_us()
  local at = (answered + offset) % #cycle + 1
  local kind = cycle:sub(at, at)
  if kind == "e" then
    return entry()
  elseif kind == "s" then
    return wrk.format("GET", follow.path, copy_headers({ Cookie = follow.cookie }))
  end
  -- The table's phones take turns to fetch.
  local phone = answered % #unchanged_fetches + 1
  if kind == "c" then
    return rung_fetches[phone]
  end
  return unchanged_fetches[phone]
end

local function summary_of(counts)
  -- "[p50 us, p99 us, answers]" of a kind's buckets.
  local total = 0
  for bucket = 0, BUCKETS - 1 do
    total = total + counts[bucket]
  end
  local found, seen = {}, 0
  for bucket = 0, BUCKETS - 1 do
    seen = seen + counts[bucket]
    for _, p in ipairs({ 50, 99 }) do
      if found[p] == nil and total > 0 and seen >= total * p / 100 then
        found[p] = math.exp((bucket + 0.5) * BUCKET)
      end
    end
  end
  return string.format("[%d, %d, %d]", found[50] or 0, found[99] or 0, total), total
end

function done(summary, latency, requests)
  local e = summary.errors
  -- Every thread's histogram added up, by kind and for all kinds together.
  local merged = ffi.new("double[?]", (#KINDS + 1) * BUCKETS)
  local wrong, last = 0, ""
  for _, thread in ipairs(threads) do
    local counts = ffi.cast("uint32_t *", thread:get("histogram_at"))
    for i = 0, #KINDS * BUCKETS - 1 do
      merged[i] = merged[i] + counts[i]
      merged[#KINDS * BUCKETS + i % BUCKETS] = merged[#KINDS * BUCKETS + i % BUCKETS] + counts[i]
    end
    wrong = wrong + thread:get("unexpected")
    if thread:get("unexpected_last") ~= "" then
      last = thread:get("unexpected_last")
    end
  end
  local timed, answered = {}, {}
  for i, kind in ipairs(KINDS) do
    local text, total = summary_of(merged + (i - 1) * BUCKETS)
    answered[#answered + 1] = string.format('"%s": %d', kind, total)
    if total > 0 then
      timed[#timed + 1] = string.format('"%s": %s', kind, text)
    end
  end
  if #timed > 0 then
    timed[#timed + 1] = '"all": ' .. summary_of(merged + #KINDS * BUCKETS)
  end
  io.write(string.format(
    'BENCH {"requests": %d, "duration_us": %d, "errors": %d, "status_errors": %d, '
      .. '"p50_us": %d, "p99_us": %d, "mean_us": %d, '
      .. '"unexpected": %d, "unexpected_last": "%s", '
      .. '"answered": {%s}, "timed": {%s}}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), latency.mean, wrong, last,
    table.concat(answered, ", "), table.concat(timed, ", ")
  ))
end
