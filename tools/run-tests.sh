#!/bin/sh
# Run each test program given as an argument; print one closing line with the totals; fail if any failed.
# Check's own per-program summary ("100%: Checks: N, Failures: 0, Errors: 0") is printed by each program.
# Each program's wall time is printed after it (the README asks `make check` to stay under 10 minutes on 2
# cores: these lines say where the time goes).
passed=0; failed=0; bad=""
all0=$(date +%s)
for t in "$@"; do
    echo "== $t"
    t0=$(date +%s)
    if "$t"; then passed=$((passed + 1)); else failed=$((failed + 1)); bad="$bad $t"; fi
    echo "   ($t: $(( $(date +%s) - t0 )) s)"
done
echo "test programs: $passed passed, $failed failed ($(( $(date +%s) - all0 )) s)"
[ "$failed" -eq 0 ] || { echo "failed:$bad" >&2; exit 1; }
