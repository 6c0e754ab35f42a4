// The load half of tests/deploy/scaleout.sh (which starts the replicas and HAProxy and reads this script's
// verdict from its exit status and closing line).
//
//   node load.mjs CONFIG.json
//   CONFIG: {"lb": "http://127.0.0.1:P", "maps": "config/maps", "requests": N, "concurrency": C,
//            "kill_at": 0.3, "term_at": 0.55, "max_seconds": S,
//            "replicas": [{"name": "s1", "url": "http://127.0.0.1:P1", "pid": PID}, ...]}
//
// 1. Known answers: a fixed set of /v1/path bodies on the demo maps (start/goal pairs drawn by a seeded
//    generator from the maps' passable cells, several algorithms, unit sizes and turning radii, pairs
//    across the islands with no path, and a blocked start) is sent to the last replica directly; its
//    answers, less `stats` (timings and lanes differ from run to run), are the expected ones.
// 2. The load: N requests through the balancer, C at a time on keep-alive connections, cycling through the
//    bodies; every other one sends its body 3 ms after its headers (HAProxy must still be able to resend it). When kill_at of them have been sent, replicas[0] gets SIGKILL; at term_at, replicas[1] gets
//    SIGTERM (drain) and this script polls its /readyz until it answers 503 or refuses the connection.
// 3. The verdict. Every answer must be one of
//      - the known answer (same HTTP status, same body less `stats`), or
//      - a documented 503: arcpath's own `not_ready` (draining) or `overloaded` (a lane's queue is full),
//        which HAProxy passes on only after its 3 retries on other replicas also answered 503, or
//      - for a body with `deadline_ms` (the turning units'), a documented 200 `timeout` on the known answer's
//        map and map_version: the deadline passed while one replica carried the whole load (the sanitizer
//        pass's replicas, beside its other tests, timed out 3 of 1,500 such queries).
//    Anything else is unexpected: a connection error or reset seen by this client, a 502/504 or HAProxy's
//    own 503 page, another status, a different body. HAProxy's promise (deploy/compose/haproxy.cfg:
//    `retry-on conn-failure empty-response 503`, `option redispatch`) covers a replica that refuses or
//    drops a connection before answering, so the kill and the drain must cost the client nothing.
//    Also: no answer to a request sent after the kill comes from the killed replica; every answer to a
//    request sent after the draining replica's /readyz said so (503, or refused) comes from the last replica
//    (HAProxy's X-Served-By header), and at least a fifth of the load is in that stretch.
// Prints one "ok"/"FAIL" line per check and "N passed, N failed"; exits 1 on any failure.
import { readFileSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";

const cfg = JSON.parse(readFileSync(process.argv[2], "utf8"));
const deadline = Date.now() + cfg.max_seconds * 1000;

// ---- the bodies --------------------------------------------------------------------------------------
function readMap(file) {
  const lines = readFileSync(file, "utf8").split(/\r?\n/);
  const h = Number(lines[1].split(" ")[1]);
  const rows = lines.slice(4, 4 + h);
  const free = [];
  rows.forEach((row, y) => [...row].forEach((c, x) => { if (".GS".includes(c)) free.push([x, y]); }));
  const blocked = [];
  rows.forEach((row, y) => [...row].forEach((c, x) => { if ("@OTW".includes(c)) blocked.push([x, y]); }));
  return { free, blocked };
}
let seed = 12345;
const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
const pick = (a) => a[rand(a.length)];
const at = ([x, y]) => ({ x: x + 0.5, y: y + 0.5 });

const bodies = [];
const maps = readdirSync(cfg.maps).filter((f) => f.endsWith(".map")).sort();
const variants = [
  {},
  { search: { smoothing: "none" } },
  { search: { algorithm: "astar", connectivity: 4 } },
  { unit: { radius: 0.4 } },
  { search: { algorithm: "jps" }, samples: { step: 1 } },
];
for (const f of maps) {
  const id = f.replace(/\.map$/, "");
  const m = readMap(path.join(cfg.maps, f));
  for (let i = 0; i < 30; i++)
    bodies.push({ map: id, start: at(pick(m.free)), goal: at(pick(m.free)), ...variants[i % variants.length] });
  // A unit with a turning radius (the legal-turn pipeline runs on the worker pool, not the HTTP thread).
  for (let i = 0; i < 4; i++)
    bodies.push({ map: id, start: { ...at(pick(m.free)), heading: 0 }, goal: at(pick(m.free)),
                  unit: { radius: 0.4, turning_radius: 2 }, deadline_ms: 2000 });
  bodies.push({ map: id, start: at(pick(m.blocked)), goal: at(pick(m.free)) }); // 422 start_blocked
}

// ---- HTTP ----------------------------------------------------------------------------------------------
const agent = new http.Agent({ keepAlive: true, maxSockets: cfg.concurrency });
// split: the headers go first and the body 3 ms later, as a client on a real network often sends them (two
// TCP reads at the balancer, which may only resend a request it holds whole: http-buffer-request).
function post(base, body, useAgent, split = false) {
  return new Promise((resolve) => {
    const data = JSON.stringify(body);
    const req = http.request(`${base}/v1/path`, {
      method: "POST", agent: useAgent ? agent : false, timeout: 30000,
      headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data) },
    }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, server: res.headers["x-served-by"],
                                     body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", (e) => resolve({ error: `response: ${e.code || e.message}` }));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (e) => resolve({ error: `request: ${e.code || e.message}` }));
    if (split) {
      req.flushHeaders();
      setTimeout(() => req.end(data), 3);
    } else {
      req.end(data);
    }
  });
}
// The HTTP status of a GET, or the error's code ("ECONNREFUSED", "ECONNRESET", "timeout", ...).
function getStatus(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 1000 }, (res) => { res.resume(); resolve(res.statusCode); });
    req.on("timeout", () => req.destroy(Object.assign(new Error("timeout"), { code: "timeout" })));
    req.on("error", (e) => resolve(e.code || e.message));
  });
}
// An answer without `stats`, as a canonical string (the server writes keys in a fixed order).
function canon(text) {
  try {
    const o = JSON.parse(text);
    if (o && typeof o === "object") delete o.stats;
    return JSON.stringify(o);
  } catch {
    return null;
  }
}

// ---- 1. known answers ------------------------------------------------------------------------------------
const last = cfg.replicas[cfg.replicas.length - 1];
const expected = [];
for (const b of bodies) {
  const r = await post(last.url, b, false);
  if (r.error || canon(r.body) === null) {
    console.log(`FAIL known answer from ${last.name}: ${r.error || r.body}`);
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
  expected.push({ status: r.status, body: canon(r.body) });
}
const statuses = {};
for (const e of expected) statuses[e.status] = (statuses[e.status] || 0) + 1;

// ---- 2. the load ------------------------------------------------------------------------------------------
const N = cfg.requests;
const results = new Array(N);
let next = 0;
let killedAt = -1, termAt = -1, drainedAt = -1; // request indices: the first one sent after each event
let termStarted = null;
// The drain counts as begun only on its own evidence: /readyz answering 503 (draining) or the listener
// refusing the connection (arcpathd shuts it down when the drain begins). A timeout or a reset proves
// nothing (a replica busy under the sanitizer, or its per-address connection limit, which HAProxy's
// connections from the same loopback address share), and such a poll could set drainedAt before the
// replica began draining: the likeliest reading of one ASan run (2026-12-04) in which the draining
// replica answered one request counted as sent after its drain began.
async function watchDrain(url) {
  for (let i = 0; i < 200 && Date.now() < deadline; i++) { // bounded: 200 polls of at most 1 s
    const st = await getStatus(`${url}/readyz`);
    if (st === 503 || st === "ECONNREFUSED") { drainedAt = next; return; }
    await new Promise((r) => setTimeout(r, 20));
  }
}
async function worker() {
  while (next < N && Date.now() < deadline) {
    const i = next++;
    if (killedAt < 0 && i >= N * cfg.kill_at) {
      killedAt = i;
      process.kill(cfg.replicas[0].pid, "SIGKILL");
    }
    if (termAt < 0 && i >= N * cfg.term_at) {
      termAt = i;
      process.kill(cfg.replicas[1].pid, "SIGTERM");
      termStarted = watchDrain(cfg.replicas[1].url);
    }
    const k = i % bodies.length;
    results[i] = { k, ...(await post(cfg.lb, bodies[k], true, i % 2 === 1)) };
  }
}
const t0 = Date.now();
await Promise.all(Array.from({ length: cfg.concurrency }, worker));
if (termStarted) await termStarted;
const seconds = (Date.now() - t0) / 1000;
agent.destroy();

// ---- 3. the verdict -----------------------------------------------------------------------------------------
let passed = 0, failed = 0;
function check(name, ok, detail) {
  if (ok) passed++; else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}`);
  if (!ok && detail) console.log(`     ${detail}`);
}
const sent = results.filter(Boolean).length;
let correct = 0, documented = 0, timedOut = 0;
const unexpected = [];
const byServer = {};
for (let i = 0; i < sent; i++) {
  const r = results[i], e = expected[r.k];
  if (r.error) { unexpected.push(`#${i}: ${r.error}`); continue; }
  byServer[r.server] = (byServer[r.server] || 0) + 1;
  if (r.status === e.status && canon(r.body) === e.body) { correct++; continue; }
  let code = null;
  try { code = JSON.parse(r.body)?.error?.code; } catch { /* not arcpath's JSON: unexpected */ }
  if (r.status === 503 && (code === "not_ready" || code === "overloaded")) { documented++; continue; }
  if (r.status === 200 && bodies[r.k].deadline_ms !== undefined && e.status === 200) {
    let got = null;
    try { got = JSON.parse(r.body); } catch { /* unexpected below */ }
    const want = JSON.parse(e.body);
    if (got?.status === "timeout" && got.map === want.map && got.map_version === want.map_version) {
      timedOut++;
      continue;
    }
  }
  unexpected.push(`#${i} (${r.server}): HTTP ${r.status} ${r.body.slice(0, 160)}`);
}
console.log(`     ${bodies.length} bodies (known answers by HTTP status: ${JSON.stringify(statuses)}); ` +
            `${sent} requests through the balancer in ${seconds.toFixed(1)} s, ${cfg.concurrency} at a time; ` +
            `SIGKILL ${cfg.replicas[0].name} at #${killedAt}, SIGTERM ${cfg.replicas[1].name} at #${termAt}, ` +
            `its /readyz 503 or refused from #${drainedAt}; answered by ${JSON.stringify(byServer)}`);
check(`all ${N} requests sent within ${cfg.max_seconds} s`, sent === N, `${sent} sent`);
check("both events happened mid-load", killedAt > 0 && termAt > killedAt && drainedAt >= termAt && drainedAt < N,
      `kill #${killedAt}, term #${termAt}, drained #${drainedAt}`);
check(`every answer correct, a documented 503 or a documented timeout (correct ${correct}, documented 503 ` +
      `${documented}, timeout ${timedOut}, unexpected ${unexpected.length})`,
      unexpected.length === 0 && correct + documented + timedOut === sent,
      unexpected.slice(0, 10).join("\n     "));
const fromKilled = results.slice(Math.max(killedAt, 0) + cfg.concurrency)
  .filter((r) => r && r.server === cfg.replicas[0].name).length;
check(`no answer from ${cfg.replicas[0].name} once it was killed`, killedAt >= 0 && fromKilled === 0,
      `${fromKilled} answers`);
const after = drainedAt >= 0 ? results.slice(drainedAt + cfg.concurrency).filter(Boolean) : [];
const notLast = after.filter((r) => r.server !== last.name);
check(`${last.name} answered every request after ${cfg.replicas[1].name} began draining ` +
      `(${after.length} requests)`, after.length >= N / 5 && notLast.length === 0,
      `${after.length} after, ${notLast.length} from others: ${notLast.slice(0, 3).map((r) => r.server).join(", ")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
