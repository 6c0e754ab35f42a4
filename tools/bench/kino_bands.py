#!/usr/bin/env python3
"""kino_bands.py — where kinodynamic A*'s iterations go on the Table 5.3 draws (BENCHMARKS.md "How tight the
heuristic is at the start, and what that buys").

usage: ARCPATH_BENCH_TRACE=1 build/arcpath-bench-kino [N ...] 2> trace.txt; kino_bands.py trace.txt [ROW]

Reads the `astar` lines of the trace (tests/bench/bench_kino.c, the file comment gives the fields), keeps the
queries A* proved (status 1) of row ROW (default 0: time heuristic, the thesis's tolerances) and groups them
by h0 / C, the heuristic at the start over the proven travel time (1 = a perfect bound there), and by a few
properties of the query: per group the count, the median h0 / C and the median and mean iterations, and how
many ran over 10,000. Only the standard library.
"""
import statistics as st
import sys


def load(path, row):
    out = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) < 18 or w[0] != "astar" or w[1] != row or w[3] != "1":
                continue
            q = {"it": int(w[4]), "C": float(w[5]), "h0": float(w[8]), "dist": float(w[10]), "R": float(w[12]),
                 "sv": float(w[14]), "gv": float(w[16]), "lat": float(w[18])}
            q["ratio"] = q["h0"] / q["C"] if q["C"] > 0 else 1.0
            q["vturn"] = (q["lat"] * q["R"]) ** 0.5  # the fastest speed on an arc of the turning radius (m/s)
            out.append(q)
    return out


def line(name, group):
    if not group:
        return
    its = [q["it"] for q in group]
    print(f"{name:<34} {len(group):>5} {st.median(q['ratio'] for q in group):>8.2f} {st.median(its):>10.0f} "
          f"{st.mean(its):>10.0f} {sum(1 for i in its if i > 10000):>7}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    qs = load(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "0")
    print(f"{len(qs)} proven queries")
    print(f"{'group':<34} {'n':>5} {'med h0/C':>8} {'med it':>10} {'mean it':>10} {'>10k it':>7}")
    for lo, hi in ((0.0, 0.5), (0.5, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 1.0 + 1e-9)):
        line(f"h0/C in [{lo:.2f}, {min(hi, 1.0):.2f}{']' if hi > 1 else ')'}", [q for q in qs if lo <= q["ratio"] < hi])
    for name, pred in (("goal within 2 turning radii", lambda q: q["dist"] < 2 * q["R"]),
                       ("goal 2-4 turning radii away", lambda q: 2 * q["R"] <= q["dist"] < 4 * q["R"]),
                       ("goal 4 or more turning radii away", lambda q: q["dist"] >= 4 * q["R"]),
                       ("start faster than sqrt(a_lat R)", lambda q: q["sv"] > q["vturn"]),
                       ("goal faster than sqrt(a_lat R)", lambda q: q["gv"] > q["vturn"])):
        line(name, [q for q in qs if pred(q)])


if __name__ == "__main__":
    main()
