-- wrk script: POST bodies taken in turn from the file named by $ARCPATH_BODIES (one JSON per line) to
-- $ARCPATH_PATH (default /v1/path; /v1/paths for batch bodies). With $ARCPATH_BATCH = queries per body, the
-- summary also prints queries/s.
local bodies = {}
local f = assert(io.open(os.getenv("ARCPATH_BODIES"), "r"))
for line in f:lines() do
  if #line > 0 then bodies[#bodies + 1] = line end
end
f:close()
local path = os.getenv("ARCPATH_PATH") or "/v1/path"
local per = tonumber(os.getenv("ARCPATH_BATCH") or "1")
local i = 0
local headers = { ["Content-Type"] = "application/json" }

request = function()
  i = i % #bodies + 1
  return wrk.format("POST", path, headers, bodies[i])
end

local non200 = 0
response = function(status, hdrs, body)
  if status ~= 200 then non200 = non200 + 1 end
end

done = function(summary, latency, requests)
  local rps = summary.requests / (summary.duration / 1e6)
  io.write(string.format("ARCPATH_WRK requests=%d duration_s=%.3f rps=%.0f p50_ms=%.3f p99_ms=%.3f errors=%d",
    summary.requests, summary.duration / 1e6, rps,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout))
  if per > 1 then io.write(string.format(" queries_per_s=%.0f", rps * per)) end
  io.write("\n")
end
