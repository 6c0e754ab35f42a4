#!/usr/bin/env python3
"""kino_ab.py — two arcpathd builds side by side on the same random kinodynamic queries over HTTP
(BENCHMARKS.md "The corner speed's intensity").

usage: kino_ab.py OLD_PORT NEW_PORT SEED N KINDS P_ACCEL ACCELS
  e.g. kino_ab.py 18080 18081 1 120 car,tank,pedestrian,ship 0.5 1,3,10,30,100

Both servers run the demo maps (config/maps, config/demo.conf) on 127.0.0.1. Each query: a random free cell
of arena or rooms, a goal 4-20 tiles away in a random direction, a random start heading and speed (0-3 m/s),
a goal heading half the time, unit.kind from KINDS with turning_radius 1, 2 or 3 tiles, with probability
P_ACCEL a unit.max_accel drawn from ACCELS, reverse 3 times in 10; search.algorithm "kinodynamic" at the
default cap. Over the queries both builds prove (ok, not capped): how many each answers faster, the mean
travel times, the median and mean expansions, and the three largest gains and losses (with their bodies).
Only the standard library.
"""
import json
import math
import random
import statistics
import sys
import urllib.error
import urllib.request


def post(port, q):
    r = urllib.request.Request('http://127.0.0.1:%d/v1/path' % port, data=json.dumps(q).encode(),
                               headers={'Content-Type': 'application/json'})
    try:
        with urllib.request.urlopen(r, timeout=60) as f:
            return json.load(f)
    except urllib.error.HTTPError as e:
        return json.load(e)


def load(name):
    lines = open('config/maps/%s.map' % name).read().split('\n')
    h = int(lines[1].split()[1])
    w = int(lines[2].split()[1])
    return w, h, lines[4:4 + h]


def main():
    old, new, seed, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    kinds, p_accel = sys.argv[5].split(','), float(sys.argv[6])
    accels = [float(v) for v in sys.argv[7].split(',')]
    rnd = random.Random(seed)
    maps = {m: load(m) for m in ('arena', 'rooms')}
    both, other = [], 0
    while len(both) + other < n:
        m = rnd.choice(sorted(maps))
        w, h, rows = maps[m]
        x, y = rnd.randrange(3, w - 3) + 0.5, rnd.randrange(3, h - 3) + 0.5
        if rows[int(y)][int(x)] != '.':
            continue
        a, d = rnd.uniform(-math.pi, math.pi), rnd.uniform(4, 20)
        gx, gy = round(x + d * math.cos(a), 2), round(y + d * math.sin(a), 2)
        if not (1 < gx < w - 1 and 1 < gy < h - 1) or rows[int(gy)][int(gx)] != '.':
            continue
        unit = {'kind': rnd.choice(kinds), 'turning_radius': rnd.choice([1, 2, 3])}
        if rnd.random() < p_accel:
            unit['max_accel'] = rnd.choice(accels)
        if rnd.random() < 0.3:
            unit['reverse'] = True
        start = {'x': x, 'y': y, 'heading': round(rnd.uniform(-3, 3), 3), 'speed': round(rnd.uniform(0, 3), 2)}
        goal = {'x': gx, 'y': gy}
        if rnd.random() < 0.5:
            goal['heading'] = round(rnd.uniform(-3, 3), 3)
        q = {'map': m, 'start': start, 'goal': goal, 'unit': unit, 'deadline_ms': 10000,
             'search': {'algorithm': 'kinodynamic'}}
        ra, rb = post(old, q), post(new, q)
        if ra.get('status') != 'ok' or rb.get('status') != 'ok' or ra.get('capped') or rb.get('capped'):
            other += 1
            continue
        both.append((q, ra['duration_s'], rb['duration_s'], ra['stats']['expanded'], rb['stats']['expanded']))
    print('both proven', len(both), 'of', n)
    print('new faster', sum(1 for b in both if b[2] < b[1] - 1e-9), 'slower', sum(1 for b in both if b[2] > b[1] + 1e-9))
    print('mean travel s old %.3f new %.3f' % (statistics.mean(b[1] for b in both), statistics.mean(b[2] for b in both)))
    print('expansions median old %d new %d, mean old %d new %d' % (
        statistics.median(b[3] for b in both), statistics.median(b[4] for b in both),
        statistics.mean(b[3] for b in both), statistics.mean(b[4] for b in both)))
    ranked = sorted(both, key=lambda b: (b[2] - b[1]) / b[1])
    for b in ranked[:3] + ranked[-3:]:
        print('%+.3f %.3f -> %.3f %s' % ((b[2] - b[1]) / b[1], b[1], b[2], json.dumps(b[0])))


if __name__ == '__main__':
    main()
