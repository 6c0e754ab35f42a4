#!/bin/sh
# Run each test program given as an argument; print one closing line with the totals; fail if any failed.
# Check's own per-program summary ("100%: Checks: N, Failures: 0, Errors: 0") is printed by each program.
passed=0; failed=0; bad=""
for t in "$@"; do
    echo "== $t"
    if "$t"; then passed=$((passed + 1)); else failed=$((failed + 1)); bad="$bad $t"; fi
done
echo "test programs: $passed passed, $failed failed"
[ "$failed" -eq 0 ] || { echo "failed:$bad" >&2; exit 1; }
