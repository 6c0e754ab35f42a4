#!/bin/sh
# proto/openapi.json: proto/openapi.yaml as JSON, the one document served at GET /openapi.json. Not written
# by hand and no YAML parser of ours: the pinned Redocly CLI (tests/spec, `make deps`) bundles the YAML with
# --ext json. tests/spec/run.sh runs this into a temporary file and fails when it differs from the committed
# one, so the two never drift.
#   usage: tools/openapi-json.sh OUT.json      (`make openapi-json` writes proto/openapi.json)
set -eu
cd "$(dirname "$0")/.."
out=$1
redocly=tests/spec/node_modules/.bin/redocly
if ! command -v node >/dev/null 2>&1 || [ ! -x "$redocly" ]; then
    echo "tools/openapi-json.sh: missing node or $redocly (run: make deps)" >&2
    exit 1
fi
export REDOCLY_SUPPRESS_UPDATE_NOTICE=true REDOCLY_TELEMETRY=off
tmp="$out.tmp.json"
"$redocly" bundle --config tests/spec/redocly.yaml --ext json -o "$tmp" proto/openapi.yaml >/dev/null 2>&1 || {
    rm -f "$tmp"
    echo "tools/openapi-json.sh: redocly bundle failed (run it by hand to see why)" >&2
    exit 1
}
mv "$tmp" "$out"
