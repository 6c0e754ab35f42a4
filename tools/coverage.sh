#!/bin/sh
# coverage.sh — which lines and functions of the shipped C code (planner/, server/, proto/, config/) the unit
# and integration tests run: builds them with gcov instrumentation (--coverage -O0) into build-cov/, runs
# test-proto, test-config, test-server, test-integration (against build-cov/arcpathd, so the server's lines
# count too) and test-planner, then writes build-cov/coverage.txt: per file the share of lines run (lowest
# first), and the functions of each file that no test ran. `make coverage` runs it; not part of `make check`
# (2-3 minutes with ARCPATH_TEST_QUICK=1, the default here; about 9 with ARCPATH_TEST_QUICK=0, the full
# sweeps).
#
# What it is for: finding behaviour no test reaches (a branch, a fallback, a whole domain's successor
# function), not a number to chase; the lines left are mostly out-of-memory paths. Fails when a test fails.
set -eu
cd "$(dirname "$0")/.."
B=build-cov
CFLAGS="--coverage -O0" LDFLAGS=--coverage make --no-print-directory -j"${JOBS:-2}" BUILD=$B \
    $B/test-planner $B/test-proto $B/test-config $B/test-server $B/arcpathd $B/test-integration
find $B -name '*.gcda' -delete
export ARCPATH_TEST_QUICK="${ARCPATH_TEST_QUICK-1}"
[ "$ARCPATH_TEST_QUICK" = 0 ] && unset ARCPATH_TEST_QUICK
for t in test-proto test-config test-server; do
    $B/$t
done
ARCPATHD=$B/arcpathd $B/test-integration
$B/test-planner

out=$B/coverage.txt
: > "$out.lines"
: > "$out.funcs"
for f in planner/*/*.c server/*.c proto/*.c config/*.c; do
    # one gcov run: "Function 'fn'" blocks, then "File 'f'" blocks (f and the headers it includes), each
    # with its "Lines executed:P% of N"
    report=$(gcov -f -n -o "$B/obj/$(dirname "$f")" "$f" 2>/dev/null || true)
    printf '%s\n' "$report" | awk -v F="$f" '
        /^File / { cur = $2; gsub(/\047/, "", cur) }
        /^Lines executed/ && cur == F { split($2, a, ":"); sub(/%/, "", a[2]); printf "%6.2f%% of %5d lines  %s\n", a[2], $4, F }' >> "$out.lines"
    # functions never run that are defined in f itself (gcov also lists inline ones from headers)
    printf '%s\n' "$report" | awk '/^Function / { fn = $2; gsub(/\047/, "", fn) } /^Lines executed:0.00%/ && fn != "" { print fn; fn = "" } /^File / { fn = "" }' |
        while read -r fn; do
            if grep -Eq "^[A-Za-z_].*[ *]$fn\(" "$f"; then echo "  $f: $fn" >> "$out.funcs"; fi
        done
done
{
    echo "Line coverage per file, lowest first ($(date -u +%Y-%m-%d), ARCPATH_TEST_QUICK=${ARCPATH_TEST_QUICK:-0}):"
    sort -u "$out.lines" | sort -n
    echo
    echo "Functions no test ran:"
    sort -u "$out.funcs"
} > "$out"
rm -f "$out.lines" "$out.funcs"
total=$(awk '/ of .* lines / { p = $1; sub(/%/, "", p); run += p * $3 / 100; all += $3 } END { printf "%.1f%% of %d lines", 100 * run / all, all }' "$out")
echo "coverage: $total run by the tests; per file and the functions never run: $out"
