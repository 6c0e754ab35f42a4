# Sourced by the shell test scripts (tests/spec/run.sh, tests/deploy/run.sh): a check list that prints
# "ok   NAME" or "FAIL NAME" per check and closes with "N passed, N failed" (the line tools/run-tests.sh and
# CI read).
#   . tests/check.sh        sets passed=0 failed=0 and $out, a temporary file removed on exit
#   check NAME COMMAND...   runs COMMAND with its output in $out, shown only when it fails; sets ok to 1 or 0
#   check_done              prints the closing line; returns 1 when any check failed
passed=0; failed=0
out=$(mktemp) || exit 1
trap 'rm -f "$out" "$out".*' EXIT

check() {
    name=$1; shift
    if "$@" >"$out" 2>&1; then
        ok=1; passed=$((passed + 1)); echo "ok   $name"
    else
        ok=0; failed=$((failed + 1)); echo "FAIL $name"; cat "$out"
    fi
}

check_done() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
