#!/usr/bin/env python3
"""soak.py — arcpathd under saturation while its maps change (issue "live worlds", soak).

One arcpathd on a free 127.0.0.1 port with the demo maps plus a map of its own, `soak` (64 x 64: a wall
with a door, and a second wall that moves between two file versions). For --seconds it runs at once:

  - load threads sending well-formed queries as fast as answered: short paths on the demo maps, batches,
    curves, turning-unit queries (slow lane), and probe queries on `soak` whose answers are checked;
  - a mutator: every 10 s the `soak` file is rewritten (the moving wall) and reloaded
    (POST /v1/maps/soak/reload), every second a PATCH opens or closes the door;
  - a slowloris client holding up to 200 connections that trickle header bytes;
  - a fuzzer sending mutated bodies (truncated, bit-flipped, duplicated keys, huge numbers).

Checks (the exit status is non-zero when one fails):
  - the server never dies, and exits 0 on SIGTERM at the end;
  - well-formed requests get 200 or 503 only (a 503 is the documented overload/drain answer);
  - every probe answer on `soak` is right for the map version it names: its grid_cost equals an
    independent Dijkstra (octile, no corner cutting) on exactly that version's cells, or it is no_path
    when that version has no path; versions are known because the mutator is the only writer and every
    change answers with its map_version;
  - fuzzed bodies never get a 5xx other than 503;
  - RSS after warm-up (the first fifth of the run) stays within +-5 % (checked for runs of 60 s or more).

Usage: tools/soak.py [--arcpathd build/arcpathd] [--seconds 600] [--threads 4]
Prints one summary line per check and the figures for BENCHMARKS.md. Standard library only; every loop
is bounded by the deadline; everything talks to 127.0.0.1.
"""
import argparse
import heapq
import http.client
import json
import math
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

TOKEN = "soak-admin-token"
W = H = 64


def soak_grid(variant, door_open):
    """The `soak` map: a vertical wall at x = 32 with a door at y = 20 (open or closed) and a gap at
    y = 60; a horizontal wall at y = 40 (variant 0) or y = 24 (variant 1) from x = 0 to 50."""
    g = [["." for _ in range(W)] for _ in range(H)]
    for y in range(H):
        if y not in (20, 60):
            g[y][32] = "@"
    g[20][32] = "." if door_open else "@"
    wy = 40 if variant == 0 else 24
    for x in range(0, 51):
        g[wy][x] = "@"
    return ["".join(r) for r in g]


def map_text(rows):
    return "type octile\nheight %d\nwidth %d\nmap\n%s\n" % (H, W, "\n".join(rows))


PASSABLE = set(".GS")
SQ2 = math.sqrt(2.0)


def dijkstra(rows, s, g):
    """Octile distance between cell centres, 8-connected, no corner cutting; None when unreachable."""
    dist = {s: 0.0}
    pq = [(0.0, s)]
    while pq:
        d, (x, y) = heapq.heappop(pq)
        if (x, y) == g:
            return d
        if d > dist.get((x, y), math.inf):
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx == 0 and dy == 0:
                    continue
                nx, ny = x + dx, y + dy
                if not (0 <= nx < W and 0 <= ny < H) or rows[ny][nx] not in PASSABLE:
                    continue
                if dx and dy and (rows[y][nx] not in PASSABLE or rows[ny][x] not in PASSABLE):
                    continue
                nd = d + (SQ2 if dx and dy else 1.0)
                if nd < dist.get((nx, ny), math.inf):
                    dist[(nx, ny)] = nd
                    heapq.heappush(pq, (nd, (nx, ny)))
    return None


PROBES = [((5, 5), (60, 5)), ((5, 50), (60, 50)), ((10, 30), (10, 50)), ((40, 10), (40, 62))]


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}
        self.failures = []

    def add(self, key, n=1):
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + n

    def fail(self, what):
        with self.lock:
            if len(self.failures) < 50:
                self.failures.append(what)
            self.counts["failures"] = self.counts.get("failures", 0) + 1


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def request(conn, method, path, body=None, headers=None):
    h = {"Content-Type": "application/json"}
    if headers:
        h.update(headers)
    data = body.encode() if isinstance(body, str) else body
    conn.request(method, path, body=data, headers=h)
    r = conn.getresponse()
    return r.status, r.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arcpathd", default=os.environ.get("ARCPATHD", "build/arcpathd"))
    ap.add_argument("--seconds", type=float, default=600.0)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--no-slowloris", action="store_true", help="leave out the slowloris client")
    ap.add_argument("--no-fuzz", action="store_true", help="leave out the fuzzing client")
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="arcpath-soak-")
    for f in os.listdir("config/maps"):
        if f.endswith(".map"):
            shutil.copy(os.path.join("config/maps", f), tmp)
    state = {"variant": 0, "door": True}
    rows = soak_grid(0, True)
    with open(os.path.join(tmp, "soak.map"), "w") as f:
        f.write(map_text(rows))
    port = free_port()
    env = dict(os.environ, ARCPATH_ADMIN_TOKEN=TOKEN, ARCPATH_ACCESS_LOG="false")
    # stderr to a file: a pipe nobody reads would fill and block the server's writes (its log lines)
    errlog = open(os.path.join(tmp, "arcpathd.err"), "w+")
    srv = subprocess.Popen([a.arcpathd, "--listen", "127.0.0.1:%d" % port, "--maps", tmp],
                           stdout=subprocess.DEVNULL, stderr=errlog, env=env)
    stats = Stats()
    versions = {}      # map_version -> rows (the mutator is the only writer)
    expected = {}      # (rows tuple, probe) -> cost or None
    vlock = threading.Lock()
    try:
        deadline_start = time.time() + 60
        while True:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                st, body = request(c, "GET", "/v1/maps/soak")
                c.close()
                if st == 200:
                    versions[json.loads(body)["map_version"]] = tuple(rows)
                    break
            except OSError:
                pass
            if time.time() > deadline_start or srv.poll() is not None:
                print("soak: arcpathd did not start", file=sys.stderr)
                return 1
            time.sleep(0.2)

        t0 = time.time()
        end = t0 + a.seconds
        auth = {"Authorization": "Bearer " + TOKEN}

        def mutator():
            nonlocal rows
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            last_reload = time.time()
            while time.time() < end:
                time.sleep(1.0)
                try:
                    if time.time() - last_reload >= 10.0:
                        last_reload = time.time()
                        state["variant"] ^= 1
                        new = soak_grid(state["variant"], state["door"])
                        with open(os.path.join(tmp, "soak.map.tmp"), "w") as f:
                            f.write(map_text(new))
                        os.replace(os.path.join(tmp, "soak.map.tmp"), os.path.join(tmp, "soak.map"))
                        st, body = request(c, "POST", "/v1/maps/soak/reload", "", auth)
                        kind = "reload"
                    else:
                        state["door"] = not state["door"]
                        new = [r for r in rows]
                        line = list(new[20])
                        line[32] = "." if state["door"] else "@"
                        new[20] = "".join(line)
                        cells = {"cells": [{"x": 32, "y": 20, "terrain": "." if state["door"] else "@"}]}
                        st, body = request(c, "PATCH", "/v1/maps/soak/cells", json.dumps(cells), auth)
                        kind = "patch"
                    if st not in (200, 201):
                        stats.fail("%s: HTTP %d %s" % (kind, st, body[:200]))
                        continue
                    v = json.loads(body)["map_version"]
                    with vlock:
                        versions[v] = tuple(new)
                    rows = new
                    stats.add(kind)
                except (OSError, http.client.HTTPException, ValueError, KeyError) as e:
                    stats.fail("mutator: %r" % e)
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

        short = [{"map": "arena", "start": {"x": 3.5, "y": 3.5}, "goal": {"x": 90.5, "y": 88.5}},
                 {"map": "rooms", "start": {"x": 3.5, "y": 3.5}, "goal": {"x": 20.5, "y": 15.5}},
                 {"map": "maze", "start": {"x": 1.5, "y": 1.5}, "goal": {"x": 94.5, "y": 94.5}}]
        turning = {"map": "rooms", "start": {"x": 3.5, "y": 3.5, "heading": 0}, "goal": {"x": 40.5, "y": 30.5},
                   "unit": {"radius": 0.4, "turning_radius": 2}}
        curve = {"start": {"x": 0, "y": 0, "heading": 0}, "goal": {"x": 10, "y": 4, "heading": 1.5},
                 "turning_radius": 2}
        batch = {"map": "arena", "queries": [{"start": {"x": 3.5 + i, "y": 3.5}, "goal": {"x": 80.5, "y": 70.5 - i}}
                                              for i in range(8)]}

        def loader(seed):
            rnd = random.Random(seed)
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            while time.time() < end:
                pick = rnd.random()
                try:
                    if pick < 0.45:
                        s, g = rnd.choice(PROBES)
                        q = {"map": "soak", "start": {"x": s[0] + 0.5, "y": s[1] + 0.5},
                             "goal": {"x": g[0] + 0.5, "y": g[1] + 0.5},
                             "search": {"algorithm": "astar", "smoothing": "none"}}
                        st, body = request(c, "POST", "/v1/path", json.dumps(q))
                        stats.add("probe")
                        if st == 503:
                            stats.add("503")
                            continue
                        if st != 200:
                            stats.fail("probe: HTTP %d %s" % (st, body[:200]))
                            continue
                        j = json.loads(body)
                        v = j.get("map_version")
                        vr = None
                        for _ in range(200):  # the mutator records a version once its change has answered
                            with vlock:
                                vr = versions.get(v)
                            if vr is not None or time.time() > end + 5:
                                break
                            time.sleep(0.01)
                        if vr is None:
                            stats.fail("probe: map_version %r was never announced" % v)
                            continue
                        key = (vr, (s, g))
                        if key not in expected:
                            expected[key] = dijkstra(vr, s, g)
                        want = expected[key]
                        if want is None:
                            if j["status"] != "no_path":
                                stats.fail("probe v%d %s->%s: %s, want no_path" % (v, s, g, j["status"]))
                        elif j["status"] != "ok" or abs(j["grid_cost"] - want) > 1e-9 * max(1.0, want):
                            stats.fail("probe v%d %s->%s: %s %s, want %.9f" % (v, s, g, j["status"],
                                                                               j.get("grid_cost"), want))
                        else:
                            stats.add("probe_verified")
                        continue
                    if pick < 0.75:
                        path, body_ = "/v1/path", json.dumps(rnd.choice(short))
                    elif pick < 0.85:
                        path, body_ = "/v1/paths", json.dumps(batch)
                    elif pick < 0.95:
                        path, body_ = "/v1/curve", json.dumps(curve)
                    else:
                        path, body_ = "/v1/path", json.dumps(turning)
                    st, body = request(c, "POST", path, body_)
                    stats.add("load")
                    if st == 503:
                        stats.add("503")
                    elif st != 200:
                        stats.fail("%s: HTTP %d %s" % (path, st, body[:200]))
                except (OSError, http.client.HTTPException, ValueError, KeyError) as e:
                    stats.fail("load: %r" % e)
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

        def slowloris():
            socks = []
            while time.time() < end:
                while len(socks) < 200 and time.time() < end:
                    try:
                        # from 127.0.0.2: another client address, as an attacker is (the per-address
                        # connection cap is what protects the others)
                        s = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=("127.0.0.2", 0))
                        s.sendall(b"POST /v1/path HTTP/1.1\r\nHost: x\r\n")
                        socks.append(s)
                    except OSError:
                        break
                for s in list(socks):
                    try:
                        s.sendall(b"X-a: b\r\n")
                    except OSError:
                        socks.remove(s)
                        s.close()
                        stats.add("slowloris_closed")
                time.sleep(1.0)
            for s in socks:
                s.close()

        def fuzzer():
            rnd = random.Random(7)
            seeds = [json.dumps(x) for x in short + [turning, batch]]
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.3", 0))
            while time.time() < end:
                b = bytearray(rnd.choice(seeds).encode())
                for _ in range(rnd.randint(1, 4)):
                    op = rnd.random()
                    i = rnd.randrange(len(b)) if b else 0
                    if op < 0.3 and b:
                        b[i] ^= 1 << rnd.randrange(8)
                    elif op < 0.5:
                        del b[i:]
                    elif op < 0.7:
                        b[i:i] = rnd.choice([b'"map":"x",', b"1e999", b"-", b"{", b"]", b"\xff", b"null", b"9" * 40])
                    else:
                        b += b[: rnd.randrange(len(b) + 1)]
                path = rnd.choice(["/v1/path", "/v1/paths", "/v1/curve"])
                try:
                    st, body = request(c, "POST", path, bytes(b))
                    stats.add("fuzz")
                    if st >= 500 and st != 503:
                        stats.fail("fuzz %s: HTTP %d for %r" % (path, st, bytes(b)[:120]))
                except (OSError, http.client.HTTPException):
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.3", 0))
                time.sleep(0.01)

        rss = []

        def sampler():
            while time.time() < end:
                try:
                    with open("/proc/%d/status" % srv.pid) as f:
                        for line in f:
                            if line.startswith("VmRSS:"):
                                rss.append((time.time() - t0, int(line.split()[1])))
                except OSError:
                    pass
                time.sleep(2.0)

        threads = [threading.Thread(target=mutator), threading.Thread(target=sampler)]
        if not a.no_slowloris:
            threads.append(threading.Thread(target=slowloris))
        if not a.no_fuzz:
            threads.append(threading.Thread(target=fuzzer))
        threads += [threading.Thread(target=loader, args=(i,)) for i in range(a.threads)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.time() - t0

        ok = True
        alive = srv.poll() is None
        print("%s arcpathd alive after %.0f s" % ("ok  " if alive else "FAIL", elapsed))
        ok &= alive
        srv.send_signal(signal.SIGTERM)
        try:
            code = srv.wait(timeout=60)
        except subprocess.TimeoutExpired:
            srv.kill()
            code = -1
        print("%s arcpathd exit status %d after SIGTERM" % ("ok  " if code == 0 else "FAIL", code))
        ok &= code == 0
        n = stats.counts
        good = n.get("failures", 0) == 0
        print("%s %d failures (well-formed answered other than 200/503, wrong or unannounced versions, fuzz 5xx)"
              % ("ok  " if good else "FAIL", n.get("failures", 0)))
        for f in stats.failures[:20]:
            print("     " + f)
        ok &= good
        verified = n.get("probe_verified", 0)
        print("%s %d probe answers verified against their map version (%d versions, %d reloads, %d patches)"
              % ("ok  " if verified > 0 else "FAIL", verified, len(versions), n.get("reload", 0), n.get("patch", 0)))
        ok &= verified > 0
        total = n.get("probe", 0) + n.get("load", 0)
        print("     %d well-formed requests (%.0f/s), %d answered 503, %d fuzzed bodies, %d slowloris sockets closed"
              % (total, total / elapsed, n.get("503", 0), n.get("fuzz", 0), n.get("slowloris_closed", 0)))
        if a.seconds >= 60 and rss:
            after = [kb for t, kb in rss if t >= a.seconds / 5]
            lo, hi = min(after), max(after)
            flat = (hi - lo) <= 0.05 * lo
            print("%s RSS after warm-up %d..%d KiB (%+.1f %%)" % ("ok  " if flat else "FAIL", lo, hi,
                                                               100.0 * (hi - lo) / lo))
            ok &= flat
        elif rss:
            print("     RSS %d..%d KiB (run shorter than 60 s: not checked for flatness)"
                  % (min(k for _, k in rss), max(k for _, k in rss)))
        if not ok:
            errlog.seek(0)
            err = errlog.read()
            print("     arcpathd's last log lines:\n" + "\n".join("       " + l for l in err.splitlines()[-15:]))
        print("soak: %s" % ("passed" if ok else "FAILED"))
        return 0 if ok else 1
    finally:
        if srv.poll() is None:
            srv.kill()
            srv.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
