#!/usr/bin/env python3
"""lanes_starve.py — do short queries wait behind long ones? (BENCHMARKS.md "Heavy set-ups begin on the slow
lane").

usage: lanes_starve.py PORT N_LONG SECONDS KIND      KIND: dir | kino | astar

An arcpathd on 127.0.0.1:PORT serving the demo maps and Paris_1_1024 (from ../shared/data/movingai). N_LONG
clients send one long query over and over (Paris_1_1024 corner to corner: `dir` directional24 for a disc of
0.4 with turning radius 2, `kino` a kinodynamic tank with a 3 s deadline, `astar` plain A*); beside them three
clients send short queries every 20 ms (A* across the demo arena, a short directional24 on rooms, a batch of
four on the arena) and report their latency (p50, p90, p99, max) and HTTP codes. Ends by itself after
SECONDS. Only the standard library.
"""
import http.client
import json
import sys
import threading
import time

PARIS = {"start": {"x": 320.5, "y": 1010.5, "heading": 0}, "goal": {"x": 991.5, "y": 89.5}, "map": "Paris_1_1024"}
LONG = {
    "dir": dict(PARIS, unit={"radius": 0.4, "turning_radius": 2}, search={"algorithm": "directional24"},
                deadline_ms=3000),
    "kino": dict(PARIS, unit={"kind": "tank"}, search={"algorithm": "kinodynamic", "max_expansions": 2000000},
                 deadline_ms=3000),
    "astar": {"map": "Paris_1_1024", "start": {"x": 320.5, "y": 1010.5}, "goal": {"x": 991.5, "y": 89.5},
              "search": {"algorithm": "astar"}},
}
SHORT = {
    "single": ("/v1/path", {"map": "arena", "start": {"x": 3.5, "y": 3.5}, "goal": {"x": 90.5, "y": 88.5}}),
    "dir_short": ("/v1/path", {"map": "rooms", "start": {"x": 3.5, "y": 3.5, "heading": 0},
                               "goal": {"x": 20.5, "y": 15.5, "heading": 1.5708},
                               "unit": {"radius": 0.4, "turning_radius": 2},
                               "search": {"algorithm": "directional24", "turn_penalty": 0.5}}),
    "batch": ("/v1/paths", {"map": "arena", "queries": [{"start": {"x": 3.5, "y": 3.5},
                                                         "goal": {"x": 10.5, "y": 10.5}}] * 4}),
}


def main():
    port, n_long, seconds, kind = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    stop = time.monotonic() + seconds
    long_res, short_res = [], {k: [] for k in SHORT}

    def long_client():
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        body = json.dumps(LONG[kind])
        while time.monotonic() < stop:
            c.request("POST", "/v1/path", body)
            r = c.getresponse()
            long_res.append((r.status, json.loads(r.read()).get("status")))

    def short_client(k):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        path, q = SHORT[k]
        body = json.dumps(q)
        time.sleep(0.5)
        while time.monotonic() < stop:
            t0 = time.monotonic()
            c.request("POST", path, body)
            r = c.getresponse()
            r.read()
            short_res[k].append((r.status, (time.monotonic() - t0) * 1000.0))
            time.sleep(0.02)

    ts = [threading.Thread(target=long_client) for _ in range(n_long)]
    ts += [threading.Thread(target=short_client, args=(k,)) for k in SHORT]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for k, v in short_res.items():
        lat = sorted(x[1] for x in v)
        pct = lambda p: lat[min(len(lat) - 1, int(len(lat) * p))]
        codes = {c: sum(1 for x in v if x[0] == c) for c in set(x[0] for x in v)}
        print("short %-9s n=%d codes %s p50=%.1f p90=%.1f p99=%.1f max=%.1f ms" % (
            k, len(v), codes, pct(.5), pct(.9), pct(.99), lat[-1]))
    print("long %s n=%d %s" % (kind, len(long_res),
                               {s: sum(1 for x in long_res if x == s) for s in set(long_res)}))


if __name__ == "__main__":
    main()
