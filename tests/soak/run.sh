#!/bin/sh
# A short soak (tools/soak.py) in make test: arcpathd under a saturating mixed load while its `soak` map is
# reloaded and patched, with a slowloris client and a fuzzing client beside; every probe answer checked
# against the map version it names. 12 s (8 s with ARCPATH_TEST_QUICK, the sanitizer run); the 10-minute
# run and its figures: BENCHMARKS.md "Soak".
cd "$(dirname "$0")/../.." || exit 1
command -v python3 >/dev/null 2>&1 || { echo "tests/soak: python3 missing (run: make deps)" >&2; exit 1; }
secs=12
[ -n "$ARCPATH_TEST_QUICK" ] && secs=8
exec python3 tools/soak.py --arcpathd "${ARCPATHD:-build/arcpathd}" --seconds "$secs" --threads 3
