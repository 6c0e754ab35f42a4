#!/bin/sh
# Run each test program given as an argument; print one closing line with the totals; fail if any failed.
# Check's own per-program summary ("100%: Checks: N, Failures: 0, Errors: 0") is printed by each program.
# Each program's wall time is printed after it (the README asks `make check` to stay under 10 minutes on 2
# cores: these lines say where the time goes).
#
# PROGRAM@N runs PROGRAM as N shards side by side (ARCPATH_TEST_SHARD=i/N, tests/planner/main.c), sharing its
# suites as they go (ARCPATH_TEST_CLAIMS: a directory where each shard claims the next suite), each one's
# output kept apart and printed after it in shard order; the program fails when a shard fails. Only for
# programs whose tests need nothing but a core (the planner's: no servers, no ports, no timed assertions).
passed=0; failed=0; bad=""
all0=$(date +%s)

# run_shards PROGRAM N: 0 when every shard passed.
run_shards() {
    dir=$(mktemp -d) || return 1
    mkdir "$dir/claims" || return 1
    i=0; pids=""
    while [ "$i" -lt "$2" ]; do
        ARCPATH_TEST_SHARD="$i/$2" ARCPATH_TEST_CLAIMS="$dir/claims" "$1" > "$dir/$i" 2>&1 &
        pids="$pids $!"
        i=$((i + 1))
    done
    rc=0; i=0
    for p in $pids; do
        wait "$p" || rc=1
        echo "-- shard $i/$2"
        cat "$dir/$i"
        i=$((i + 1))
    done
    rm -rf "$dir"
    return $rc
}

for t in "$@"; do
    echo "== $t"
    t0=$(date +%s)
    case "$t" in
    *@[0-9]*) if run_shards "${t%@*}" "${t##*@}"; then ok=1; else ok=0; fi ;;
    *) if "$t"; then ok=1; else ok=0; fi ;;
    esac
    if [ "$ok" -eq 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); bad="$bad $t"; fi
    echo "   ($t: $(( $(date +%s) - t0 )) s)"
done
echo "test programs: $passed passed, $failed failed ($(( $(date +%s) - all0 )) s)"
[ "$failed" -eq 0 ] || { echo "failed:$bad" >&2; exit 1; }
