-- wrk script for bench/run.py: plain requests (headers from -H), or with a data file after
-- "--", successive valid entry posts. Each wrk thread holds exactly one connection, so a
-- thread's posts reach the server in order: hand n is complete before hand n + 1 is sent.
-- A post is built from `answered`, which moves on only when its answer arrives: wrk calls
-- request() once more than it sends (to check the script, in thread 0), and a post resent
-- after a dropped connection carries the same idempotency key, so it is recorded once.

local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

local plain = nil
local phones = nil
local matches = nil
local sides = 0
local hands = 0
local tag = ""
local answered = 0

function init(args)
  if #args == 0 then
    return
  end
  local path, threads = args[1], tonumber(args[2])
  tag = args[3]
  phones, matches = {}, {}
  local index = 0
  for line in io.lines(path) do
    local kind, a, b, c = line:match("^(%S+) (%S+) ?(%S*) ?(%S*)$")
    if kind == "phone" then
      phones[tonumber(a)] = { cookie = b, csrf = c }
      sides = sides + 1
    elseif kind == "hands" then
      hands = tonumber(a)
    elseif kind == "match" then
      -- Matches are dealt round the threads: no two threads ever post to one match.
      if index % threads == id then
        matches[#matches + 1] = a
      end
      index = index + 1
    end
  end
  -- Set only here: wrk reads no response (headers, body) for the plain runs.
  response = function(status, headers, body)
    answered = answered + 1
  end
end

function request()
  if phones == nil then
    if plain == nil then
      plain = wrk.format()
    end
    return plain
  end
  -- Post n goes to this thread's match n / (hands * sides), hand by hand, side by side;
  -- once every match has its hands, go round again with the hands after them.
  local per_match = hands * sides
  local n = answered
  local round = math.floor(n / (per_match * #matches))
  local code = matches[math.floor(n / per_match) % #matches + 1]
  local step = n % per_match
  local hand = round * hands + math.floor(step / sides) + 1
  local side = step % sides
  local phone = phones[side]
  local body = "csrf_token=" .. phone.csrf .. "&key=" .. tag .. "t" .. id .. "n" .. n
    .. "&hand=" .. hand .. "&side=" .. side .. "&points=" .. ((hand * 7 + side * 13) % 41)
  local headers = {}
  for name, value in pairs(wrk.headers) do
    headers[name] = value
  end
  headers["Cookie"] = phone.cookie
  headers["Content-Type"] = "application/x-www-form-urlencoded"
  return wrk.format("POST", "/m/" .. code .. "/enter", headers, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests": %d, "duration_us": %d, "errors": %d, "status_errors": %d, '
      .. '"p50_us": %d, "p99_us": %d, "mean_us": %d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), latency.mean
  ))
end
