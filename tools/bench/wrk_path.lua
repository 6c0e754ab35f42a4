-- wrk script: POST /v1/path bodies taken in turn from the file named by $ARCPATH_BODIES (one JSON per line).
local bodies = {}
local f = assert(io.open(os.getenv("ARCPATH_BODIES"), "r"))
for line in f:lines() do
  if #line > 0 then bodies[#bodies + 1] = line end
end
f:close()
local i = 0
local headers = { ["Content-Type"] = "application/json" }

request = function()
  i = i % #bodies + 1
  return wrk.format("POST", "/v1/path", headers, bodies[i])
end

local non200 = 0
response = function(status, hdrs, body)
  if status ~= 200 then non200 = non200 + 1 end
end

done = function(summary, latency, requests)
  io.write(string.format("ARCPATH_WRK requests=%d duration_s=%.3f rps=%.0f p50_ms=%.3f p99_ms=%.3f errors=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout))
end
