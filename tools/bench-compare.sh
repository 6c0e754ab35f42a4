#!/bin/sh
# bench-compare.sh OLD_REV [BUILD] — old build beside new, timed interleaved in one run (the machines are
# shared and noisy, so figures from separate runs do not compare).
#
#   1. planner: A*, JPS and JPS+ over every scenario line of every Moving AI map, old / new / old / new /
#      old / new; per map the median of the three per-run medians (µs per query) and new / old. Expansion
#      means must be equal (same search), so they are printed too.
#   2. server: short den520d queries (wrk -t1 -c16), old and new arcpathd side by side, three rounds each
#      alternated; requests/s and p99.
#
# OLD_REV is built in a scratch git worktree under ${TMPDIR:-/tmp}; the current tree's BUILD (default
# build) must be built already (make all). All traffic goes to 127.0.0.1; every wrk run is bounded by -d.
set -eu
OLD=${1:?usage: tools/bench-compare.sh OLD_REV [BUILD]}
B=${2:-build}
DATA=${ARCPATH_MOVINGAI:-../shared/data/movingai}
DUR=${ARCPATH_BENCH_SECONDS:-5}
ROUNDS=${ARCPATH_BENCH_ROUNDS:-3}
[ -d "$DATA" ] || { echo "bench-compare: Moving AI data not found at $DATA" >&2; exit 1; }
[ -x "$B/arcpath-bench" ] && [ -x "$B/arcpathd" ] || { echo "bench-compare: run make all first" >&2; exit 1; }

OLDDIR=$(mktemp -d "${TMPDIR:-/tmp}/arcpath-old.XXXXXX")
git worktree add -q --detach "$OLDDIR" "$OLD"
cleanup() { git worktree remove --force "$OLDDIR" 2>/dev/null || rm -rf "$OLDDIR"; }
trap cleanup EXIT
make -s -C "$OLDDIR" -j2 build/arcpath-bench build/arcpathd > /dev/null
OB=$OLDDIR/build
echo "# arcpath bench-compare — $(date -u +%Y-%m-%d) — old $(git rev-parse --short "$OLD") vs new $(git rev-parse --short HEAD)$(git diff --quiet || echo '+dirty') — $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"

# median_of a b c ... (numbers)
median_of() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print ((NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# one summary line from arcpath-bench: "<id>: N queries, median M us, mean X us, mean expansions E"
summary() { "$1/arcpath-bench" --map "$2" --scen "$2.scen" --alg "$3" --summary 2>&1 > /dev/null | tail -n 1; }
field() { echo "$1" | sed -n "s/.*$2 \([0-9.]*\).*/\1/p"; }

for alg in astar jps jps_plus; do
    echo
    echo "## $alg, all scenario lines: median µs per query (median of $ROUNDS interleaved runs)"
    printf "map\told_us\tnew_us\tnew/old\told_exp\tnew_exp\n"
    for scen in "$DATA"/*.map.scen; do
        map=${scen%.scen}
        o=""; n=""; oe=""; ne=""
        r=0
        while [ $r -lt "$ROUNDS" ]; do
            so=$(summary "$OB" "$map" "$alg"); sn=$(summary "$B" "$map" "$alg")
            o="$o $(field "$so" median)"; n="$n $(field "$sn" median)"
            oe=$(field "$so" 'mean expansions'); ne=$(field "$sn" 'mean expansions')
            r=$((r + 1))
        done
        mo=$(median_of $o); mn=$(median_of $n)
        printf "%s\t%s\t%s\t%.3f\t%s\t%s\n" "$(basename "$map" .map)" "$mo" "$mn" \
            "$(echo "$mn $mo" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')" "$oe" "$ne"
    done
done

if [ ! -f "$DATA/den520d.map.scen" ]; then
    echo
    echo "## Server: skipped (the HTTP run uses den520d, which $DATA does not hold)"
    exit 0
fi
echo
echo "## Server: short den520d queries, wrk -t1 -c16, ${DUR}s a round, old and new alternated"
PO=${ARCPATH_BENCH_PORT:-18080}
PN=$((PO + 1))
BODIES=$(mktemp)
tools/bench/scen_bodies.sh "$DATA/den520d.map.scen" den520d 0 5 > "$BODIES"
"$OB/arcpathd" --listen 127.0.0.1:$PO --maps "$DATA" > /dev/null 2>&1 &
OPID=$!
"$B/arcpathd" --listen 127.0.0.1:$PN --maps "$DATA" > /dev/null 2>&1 &
NPID=$!
trap 'kill $OPID $NPID 2>/dev/null || true; rm -f "$BODIES"; cleanup' EXIT
for p in $PO $PN; do
    i=0
    until curl -fsS "http://127.0.0.1:$p/readyz" > /dev/null 2>&1; do
        i=$((i + 1)); [ $i -lt 600 ] || { echo "arcpathd on $p did not start" >&2; exit 1; }; sleep 0.1
    done
done
r=0
while [ $r -lt "$ROUNDS" ]; do
    for side in old new; do
        p=$PO; [ $side = new ] && p=$PN
        printf "%s\t" $side
        ARCPATH_BODIES="$BODIES" wrk -t1 -c16 -d"${DUR}s" --latency -s tools/bench/wrk_path.lua \
            "http://127.0.0.1:$p" | grep ARCPATH_WRK
    done
    r=$((r + 1))
done
