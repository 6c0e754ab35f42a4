#!/usr/bin/env python3
"""kino_walls.py — kinodynamic A* where a wall hides the goal (BENCHMARKS.md "The obstacle-aware term").

usage: kino_walls.py SCEN MAP_ID URL [URL_B] [N]
       KINO_SEARCH='{"weight": 1.5}' kino_walls.py ...   (fields merged into every body's "search")
       KINO_UNIT='{"kind": "pedestrian"}' kino_walls.py ... (the body's "unit" instead of the car's)

From the Moving AI scenario file SCEN (its map loaded as MAP_ID by the arcpathd at URL), the scenario pairs
of 10-80 tiles whose straight line crosses a blocked cell (a 0.45-tile square swept along it, sampled every
0.05 tiles), shuffled with a fixed seed, the first N (default 60): the car with turning radius 2 and a 0.4 disc,
from rest facing the goal to the goal at rest, search.max_expansions 100000. Prints how many are proven,
and the mean and median expansions and search µs; with URL_B (another build serving the same map) the same
bodies go to both and the table compares them over the queries both prove, with the answers' time change;
also the median search µs over the queries every server answers (capped answers included).
Only the standard library; talks to 127.0.0.1 servers the caller started.
"""
import json
import math
import os
import random
import statistics as st
import sys
import urllib.request


def load(scen_path):
    rows = [l.split('\t') for l in open(scen_path).read().splitlines()[1:] if l.strip()]
    map_path = scen_path[: -len('.scen')]
    grid = open(map_path).read().splitlines()[4:]

    def crosses_wall(sx, sy, gx, gy):
        n = int(math.hypot(gx - sx, gy - sy) / 0.05) + 1
        for i in range(n + 1):
            t = i / n
            x, y = sx + (gx - sx) * t, sy + (gy - sy) * t
            for dx in (-0.45, 0.45):
                for dy in (-0.45, 0.45):
                    if grid[int(math.floor(y + dy))][int(math.floor(x + dx))] not in '.G':
                        return True
        return False

    return [r for r in rows if 10 < float(r[8]) < 80 and
            crosses_wall(int(r[4]) + .5, int(r[5]) + .5, int(r[6]) + .5, int(r[7]) + .5)]


def ask(url, body):
    req = urllib.request.Request(url + '/v1/path', data=json.dumps(body).encode())
    return json.load(urllib.request.urlopen(req, timeout=300))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    scen, map_id, url_a = sys.argv[1:4]
    url_b = sys.argv[4] if len(sys.argv) > 4 and not sys.argv[4].isdigit() else None
    n = int(sys.argv[-1]) if sys.argv[-1].isdigit() else 60
    extra = json.loads(os.environ.get('KINO_SEARCH', '{}'))
    unit = json.loads(os.environ.get('KINO_UNIT', '{"kind": "car", "turning_radius": 2, "radius": 0.4}'))
    rows = load(scen)
    random.Random(3).shuffle(rows)
    res = []
    for r in rows[:n]:
        sx, sy, gx, gy = int(r[4]) + .5, int(r[5]) + .5, int(r[6]) + .5, int(r[7]) + .5
        body = {"map": map_id, "start": {"x": sx, "y": sy, "heading": math.atan2(gy - sy, gx - sx), "speed": 0},
                "goal": {"x": gx, "y": gy, "speed": 0}, "unit": unit,
                "search": {"algorithm": "kinodynamic", "max_expansions": 100000, **extra}, "deadline_ms": 30000}
        res.append([ask(u, body) for u in ([url_a, url_b] if url_b else [url_a])])

    def proven(a):
        return a.get('status') == 'ok' and not a.get('capped')

    k = len(res[0]) if res else 1
    both = [x for x in res if all(proven(a) for a in x)]
    print(f"{len(res)} queries; proven: " + ", ".join(str(sum(proven(x[i]) for x in res)) for i in range(k)))
    for i in range(k):
        exp = [x[i]['stats']['expanded'] for x in both]
        us = [x[i]['stats'].get('search_us', 0) for x in both]
        if both:
            print(f"server {'AB'[i]}: over the {len(both)} proven by all: expansions mean {st.mean(exp):.0f} "
                  f"median {st.median(exp):.0f}; search µs median {st.median(us):.0f}")
    answered = [x for x in res if all(a.get('status') == 'ok' for a in x)]
    for i in range(k):
        if answered:
            print(f"server {'AB'[i]}: over the {len(answered)} answered by all: search µs median "
                  f"{st.median(x[i]['stats'].get('search_us', 0) for x in answered):.0f}, expansions median "
                  f"{st.median(x[i]['stats']['expanded'] for x in answered):.0f}")
    if k == 2 and both:
        d = [(x[1]['duration_s'] - x[0]['duration_s']) / x[0]['duration_s'] * 100 for x in both]
        print(f"B's answer time against A's: mean {st.mean(d):+.3f} %, min {min(d):+.3f} %, max {max(d):+.3f} %")


if __name__ == '__main__':
    main()
