#!/bin/sh
# bench-warthog.sh WARTHOG_BIN_DIR [BUILD] — arcpath's grid searches beside warthog's, timed interleaved in
# one run on the same scenario lines (the machines are shared and noisy, so figures from separate runs do
# not compare).
#
# WARTHOG_BIN_DIR holds warthog's two scenario runners, built outside this repository (nothing of warthog
# is in it): `warthog` (warthog-core's app: astar) and `warthog-jps` (warthog-jps's app: jps, jps2, jps+,
# jps2+). Built on 2026-12-03 from github.com/ShortestPathLab/warthog-jps with warthog-core as its
# extern/warthog-core submodule: `cmake -DCMAKE_BUILD_TYPE=Release .. && make` (gcc 12, C++20).
#
# For each map (ARCPATH_WH_MAPS, default the ten of BENCHMARKS.md "Grid search") and each round
# (ARCPATH_BENCH_ROUNDS, default 3): warthog astar, arcpath astar, warthog jps and jps2, arcpath jps,
# warthog jps+ and jps2+, arcpath jps_plus, every line of the map's scenario file. Both print search time
# only, per query (warthog's `nanos`, arcpath-bench's `time_ns`). Printed per map and search: the median of
# the per-round medians and of the per-round means (µs), and arcpath's ratio to warthog's (to the better
# of warthog's two JPS variants for jps and jps_plus). Costs are compared too, line by line: a line where
# they differ by more than 1e-5 relative is counted (warthog prints 6 significant digits).
set -eu
WH=${1:?usage: tools/bench-warthog.sh WARTHOG_BIN_DIR [BUILD]}
B=${2:-build}
DATA=${ARCPATH_MOVINGAI:-../shared/data/movingai}
ROUNDS=${ARCPATH_BENCH_ROUNDS:-3}
MAPS=${ARCPATH_WH_MAPS:-"arena2 den520d brc202d Berlin_0_256 Paris_1_1024 maze512-32-0 random512-40-0 AR0011SR Aftershock 8room_000"}
[ -x "$WH/warthog" ] && [ -x "$WH/warthog-jps" ] || { echo "bench-warthog: $WH/warthog and $WH/warthog-jps needed" >&2; exit 1; }
[ -x "$B/arcpath-bench" ] || { echo "bench-warthog: run make all first ($B/arcpath-bench)" >&2; exit 1; }
[ -d "$DATA" ] || { echo "bench-warthog: Moving AI data not found at $DATA" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/arcpath-wh.XXXXXX")
trap 'rm -rf "$T"' EXIT
echo "# arcpath beside warthog — $(date -u +%Y-%m-%d) — arcpath $(git rev-parse --short HEAD 2>/dev/null || echo '?') — $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"

# stats FILE COLUMN: "median mean" (µs) of a TSV column given in ns, header skipped
stats() {
    awk -F'\t' -v c="$2" 'NR > 1 && $c != "" { print $c / 1000.0 }' "$1" | sort -g |
        awk '{ v[NR] = $1; s += $1 } END { if (NR == 0) { print "nan nan"; exit }
             m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f %.2f\n", m, s / NR }'
}
# median3 a b c ...: the median of the numbers
median_of() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf 'map\tsearch\twarthog med/mean\tarcpath med/mean\tratio (median)\tcost mismatches\n'
for m in $MAPS; do
    map=$DATA/$m.map; scen=$DATA/$m.map.scen
    [ -f "$map" ] && [ -f "$scen" ] || { echo "$m: missing, skipped" >&2; continue; }
    for r in $(seq 1 "$ROUNDS"); do
        "$WH/warthog" --alg astar --scen "$scen" --map "$map" 2>/dev/null > "$T/wh-astar.$r"
        "$B/arcpath-bench" --map "$map" --scen "$scen" --alg astar > "$T/ap-astar.$r"
        for a in jps jps2; do "$WH/warthog-jps" --alg $a --scen "$scen" --map "$map" 2>/dev/null > "$T/wh-$a.$r"; done
        "$B/arcpath-bench" --map "$map" --scen "$scen" --alg jps > "$T/ap-jps.$r"
        for a in jps+ jps2+; do "$WH/warthog-jps" --alg $a --scen "$scen" --map "$map" 2>/dev/null > "$T/wh-$a.$r"; done
        "$B/arcpath-bench" --map "$map" --scen "$scen" --alg jps_plus > "$T/ap-jps_plus.$r"
    done
    # per search: warthog's variants, arcpath's name
    for pair in "astar:astar" "jps jps2:jps" "jps+ jps2+:jps_plus"; do
        whs=${pair%%:*}; ap=${pair##*:}
        best_med=""; best_mean=""; best_name=""
        for w in $whs; do
            meds=""; means=""
            for r in $(seq 1 "$ROUNDS"); do
                set -- $(stats "$T/wh-$w.$r" 8); meds="$meds $1"; means="$means $2"
            done
            med=$(median_of $meds); mean=$(median_of $means)
            if [ -z "$best_med" ] || awk -v a="$med" -v b="$best_med" 'BEGIN { exit !(a < b) }'; then
                best_med=$med; best_mean=$mean; best_name=$w
            fi
        done
        meds=""; means=""
        for r in $(seq 1 "$ROUNDS"); do
            set -- $(stats "$T/ap-$ap.$r" 3); meds="$meds $1"; means="$means $2"
        done
        amed=$(median_of $meds); amean=$(median_of $means)
        # costs: warthog's pcost (column 10 of its 12) beside arcpath's cost (its column 4), line by line in file order
        mism=$(paste "$T/wh-$best_name.1" "$T/ap-$ap.1" | awk -F'\t' 'NR > 1 { d = $10 - $(12 + 4); if (d < 0) d = -d; if (d > 1e-5 * $10 + 1e-9) n++ } END { print n + 0 }')
        ratio=$(awk -v a="$amed" -v w="$best_med" 'BEGIN { printf "%.2f", a / w }')
        printf '%s\t%s (%s)\t%s / %s\t%s / %s\t%s\t%s\n' "$m" "$ap" "$best_name" "$best_med" "$best_mean" "$amed" "$amean" "$ratio" "$mism"
    done
done
