#!/bin/sh
# proto/openapi.yaml under a real OpenAPI linter: Redocly CLI's `lint` with its recommended rules
# (tests/spec/redocly.yaml), pinned by tests/spec/package-lock.json. Each check prints "ok" or "FAIL" and
# the linter's output on failure; the closing line is "N passed, N failed" and the exit status is non-zero
# when any check failed. Run by `make test` through tools/run-tests.sh; `make deps` installs the package.
cd "$(dirname "$0")/../.." || exit 1
redocly=tests/spec/node_modules/.bin/redocly
if ! command -v node >/dev/null 2>&1 || [ ! -x "$redocly" ]; then
    echo "tests/spec: missing node or $redocly (run: make deps)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
# The CLI would otherwise ask the network for a newer version and send usage telemetry.
export REDOCLY_SUPPRESS_UPDATE_NOTICE=true REDOCLY_TELEMETRY=off
. tests/check.sh

# 0 errors under the recommended rules; after a pass its warnings are listed, not counted as failures.
check "redocly lint proto/openapi.yaml: 0 errors" \
    "$redocly" lint --config tests/spec/redocly.yaml --format=stylish proto/openapi.yaml
[ "$ok" = 1 ] && grep -E " warning " "$out" | sed "s/^/     /"
# The spec is one self-contained document: bundling it resolves every $ref.
check "redocly bundle proto/openapi.yaml: every \$ref resolves" \
    "$redocly" bundle --config tests/spec/redocly.yaml -o "$out.json" proto/openapi.yaml
rm -f "$out.json"
# proto/openapi.json (GET /openapi.json) is the YAML bundled as JSON by the same pinned CLI: a fresh bundle
# must equal the committed file byte for byte (after a change to the YAML: make openapi-json).
check "proto/openapi.json is proto/openapi.yaml bundled as JSON (make openapi-json)" \
    sh -c 'sh tools/openapi-json.sh "$1" && cmp "$1" proto/openapi.json' sh "$out.fresh.json"
rm -f "$out.fresh.json"

check_done
