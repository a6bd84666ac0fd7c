-- wrk script: every request carries its own X-Forwarded-For, so the service's per-client allowance never
-- turns cache hits into 429s, and the limiter does its real per-client bookkeeping on every request.
-- Arguments (after `--`): first address number, how many addresses, mode, wrk's thread count.
--   mode "cycle":  each thread cycles through its share of the range with prebuilt requests (cheap for wrk)
--   mode "unique": every request gets the next address of the range, built on the fly (for floods); each
--                  thread stops once it has sent its share of the range and says so on stdout
-- Address number n is 10.(n>>16).(n>>8 & 255).(n & 255), so a range is at most 2^24 addresses.
local first, count, mode = 0, 65536, "cycle"
local created = 0
local reqs, n, i, start, stop, path, headers

local function addr(x)
  x = x % 16777216
  return string.format("10.%d.%d.%d", math.floor(x / 65536), math.floor(x / 256) % 256, x % 256)
end

function setup(thread)
  thread:set("tid", created)
  created = created + 1
end

function init(args)
  first = tonumber(args[1] or first)
  count = tonumber(args[2] or count)
  mode = args[3] or mode
  local share = math.floor(count / math.max(1, tonumber(args[4] or 1)))
  local tid = tonumber(tid) or 0
  start = first + tid * share
  stop = start + share
  i = start
  path = wrk.path
  headers = {}
  for k, v in pairs(wrk.headers) do headers[k] = v end
  if mode == "cycle" then
    reqs = {}
    for k = 0, math.min(share, 65536) - 1 do
      headers["X-Forwarded-For"] = addr(start + k)
      reqs[k + 1] = wrk.format(nil, path, headers)
    end
    n = 0
  end
end

function request()
  if mode == "cycle" then
    n = n % #reqs + 1
    return reqs[n]
  end
  headers["X-Forwarded-For"] = addr(i)
  i = i + 1
  if i >= stop then
    -- wrk itself would wait out its duration: the harness stops it (SIGINT) when every thread has said so.
    i = start
    io.write("WRK_THREAD_DONE\n")
    io.flush()
    wrk.thread:stop()
  end
  return wrk.format(nil, path, headers)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "WRK_JSON {\"requests\":%d,\"durationUs\":%d,\"bytes\":%d,\"connect\":%d,\"read\":%d,\"write\":%d,\"status\":%d,\"timeout\":%d,\"p50Us\":%d,\"p99Us\":%d}\n",
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
