#!/bin/sh
# The contract test: README.md's request examples, proto/openapi.yaml's request examples and the error
# catalogue (tests/contract/cases.json) sent to real arcpathd processes ($ARCPATHD, default build/arcpathd)
# on free 127.0.0.1 ports; every answer is validated against proto/openapi.yaml with openapi-backend (pinned
# by tests/contract/package-lock.json). Examples on Moving AI maps read $ARCPATH_MOVINGAI (default
# ../shared/data/movingai; ARCPATH_REQUIRE_DATA=1 makes its absence a failure). Each check prints "ok" or
# "FAIL" (with the violations); the closing line is "N passed, N failed" and the exit status is non-zero
# when any check failed. Run by `make test` through tools/run-tests.sh; `make deps` installs the packages.
cd "$(dirname "$0")/../.." || exit 1
missing=""
command -v node >/dev/null 2>&1 || missing="$missing node"
command -v curl >/dev/null 2>&1 || missing="$missing curl"
[ -d tests/contract/node_modules/openapi-backend ] || missing="$missing tests/contract/node_modules"
if [ -n "$missing" ]; then
    echo "tests/contract: missing:$missing (run: make deps)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
exec node tests/contract/contract.mjs
