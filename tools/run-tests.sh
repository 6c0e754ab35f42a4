#!/bin/sh
# Run each test program given as an argument; print one closing line with the totals, then, for each program that
# failed, the few lines that say why (a CI log is often read from its end); fail if any failed.
# Check's own per-program summary ("100%: Checks: N, Failures: 0, Errors: 0") is printed by each program.
# Each program's wall time is printed after it (the README asks `make check` to stay under 10 minutes on 2
# cores: these lines say where the time goes).
#
# PROGRAM@N runs PROGRAM as N shards side by side (ARCPATH_TEST_SHARD=i/N, tests/planner/main.c), sharing its
# suites as they go (ARCPATH_TEST_CLAIMS: a directory where each shard claims the next suite), each one's
# output kept apart and printed after it in shard order; the program fails when a shard fails. Only for
# programs whose tests need nothing but a core (the planner's: no servers, no ports, no timed assertions).
#
# Shards run in one process each (CK_FORK=no, as the sanitizer build runs every program) with glibc's malloc
# keeping freed memory for reuse (GLIBC_TUNABLES: no mmap below 32 MiB, no trimming): a forked child per test
# and per-allocation mmaps made every test fault its maps, tables and workspaces in afresh (1.48 M minor page
# faults for the planner in one process, 33 s of system time; 0.14 M and 18 s so). The planner's two shards,
# the old way and this way alternated twice on 2026-12-07: 120-141 s of CPU (61-72 s wall) before, 97-104 s
# (49-53 s) now. Sanitizer builds keep their own allocator (the tunables do not reach it).
#
# beside:PROGRAM runs PROGRAM in the background at nice 10, beside the programs after it, one such program at
# a time (each beside: program starts when the one before it has ended), and prints its output after theirs.
# For the scripts that mostly wait (the browser, the README and error contract, the clients, the deploy
# replicas, the soak: each starts its own servers on free ports) beside the integration tests, which wait
# too: nice 10 weighs about a tenth of nice 0, so a foreground test that wants a core still gets it.
#
# nice:PROGRAM[@N] runs PROGRAM (or its shards) at nice 19 in the background, beside the programs after it,
# and prints its output after theirs. For CPU-only programs (the planner's) ahead of programs that mostly
# wait (the integration tests and the scripts wait on servers, sockets and browsers: about one of the two
# cores idle): the background takes the idle core, while a foreground program that wants a core gets it
# (nice 19 weighs 1.5 % of nice 0 in Linux's scheduler), so their timed assertions see the machine as before.
passed=0; failed=0; bad=""
all0=$(date +%s)

# run_shards PROGRAM N [NICE]: 0 when every shard passed.
run_shards() {
    dir=$(mktemp -d) || return 1
    mkdir "$dir/claims" || return 1
    i=0; pids=""
    while [ "$i" -lt "$2" ]; do
        CK_FORK=no GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=4294967296 \
          ARCPATH_TEST_SHARD="$i/$2" ARCPATH_TEST_CLAIMS="$dir/claims" nice -n "${3:-0}" "$1" > "$dir/$i" 2>&1 &
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

# run PROGRAM[@N] [NICE]: 0 when it passed.
run() {
    case "$1" in
    *@[0-9]*) run_shards "${1%@*}" "${1##*@}" "$2" ;;
    *) nice -n "${2:-0}" "$1" ;;
    esac
}

# count PROGRAM OK T0 T1 OUT: add to the totals, print the wall time; a failed program's output (file OUT)
# is kept for the closing summary.
count() {
    if [ "$2" -eq 1 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1)); bad="$bad $1"
        cp "$5" "$bg_dir/failed.$failed"; echo "$1" > "$bg_dir/failed.$failed.name"
    fi
    echo "   ($1: $(( $4 - $3 )) s)"
}

# why N: what made the Nth failed program fail, in a few lines: Check's failing checks (file:line:F: or :E:)
# and a script's FAIL lines, a sanitizer's report with the top of its stack, else its last lines. Printed
# last, since a CI log is often read from its end only (the program's own output lies hundreds of lines up).
why() {
    f="$bg_dir/failed.$1"
    echo "-- why $(cat "$f.name") failed:"
    { grep -E ':[0-9]+:[FE]:|^not ok|FAIL' "$f" | head -n 8
      grep -m 1 -A 10 -E 'ERROR: [A-Za-z]+Sanitizer|runtime error:' "$f"; } | cut -c1-400 > "$bg_dir/why"
    if [ -s "$bg_dir/why" ]; then cat "$bg_dir/why"; else tail -n 8 "$f" | cut -c1-400; fi
}

bg_dir=$(mktemp -d) || exit 1
trap 'rm -rf "$bg_dir"' EXIT
bg=""
prev_beside="" # the background entry of the last beside: program, which the next one waits for
for t in "$@"; do
    case "$t" in
    nice:* | beside:*)
        n=$(echo "$bg" | wc -w)
        if [ "${t%%:*}" = nice ]; then
            t=${t#nice:}; level=19; after=""
            echo "== $t: at nice 19 beside the programs after it (its output after theirs)"
        else
            t=${t#beside:}; level=10; after=$prev_beside; prev_beside=$n
            echo "== $t: at nice 10 beside the programs after it${after:+, once the beside: one before it ends} (its output after theirs)"
        fi
        echo "$level" > "$bg_dir/$n.nice"
        ( if [ -n "$after" ]; then while [ ! -e "$bg_dir/$after.t1" ]; do sleep 0.2; done; fi
          date +%s > "$bg_dir/$n.t0"
          if run "$t" "$level" > "$bg_dir/$n.out" 2>&1; then echo 1; else echo 0; fi > "$bg_dir/$n.ok"
          date +%s > "$bg_dir/$n.t1" ) &
        bg="$bg $!:$t"
        continue ;;
    esac
    echo "== $t"
    t0=$(date +%s)
    # into a file (kept for the summary), followed as it grows; not through a pipe, whose reader would wait
    # for any process a test left behind that still holds the program's output
    : > "$bg_dir/fg.out"
    run "$t" > "$bg_dir/fg.out" 2>&1 &
    pid=$!
    tail -n +1 -s 0.1 -f --pid="$pid" "$bg_dir/fg.out"
    if wait "$pid"; then ok=1; else ok=0; fi
    count "$t" "$ok" "$t0" "$(date +%s)" "$bg_dir/fg.out"
done
n=0
for b in $bg; do
    wait "${b%%:*}"
    t=${b#*:}
    echo "== $t (at nice $(cat "$bg_dir/$n.nice"), beside the programs above)"
    cat "$bg_dir/$n.out"
    count "$t" "$(cat "$bg_dir/$n.ok")" "$(cat "$bg_dir/$n.t0")" "$(cat "$bg_dir/$n.t1")" "$bg_dir/$n.out"
    n=$((n + 1))
done
echo "test programs: $passed passed, $failed failed ($(( $(date +%s) - all0 )) s)"
n=1
while [ "$n" -le "$failed" ]; do why "$n"; n=$((n + 1)); done
[ "$failed" -eq 0 ] || { echo "failed:$bad" >&2; exit 1; }
