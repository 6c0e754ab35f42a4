#!/bin/sh
# The viewer in headless Chromium: tests/browser/viewer.test.mjs under node's test runner, from the
# repository root (it serves config/maps with $ARCPATHD, default build/arcpathd, and saves a screenshot
# beside it: $(BUILD)/viewer.png). Run by `make test` through tools/run-tests.sh; `make deps` (part of
# `make check`) installs Chromium, Node.js and the pinned playwright-core this needs.
cd "$(dirname "$0")/../.." || exit 1
missing=""
command -v node >/dev/null 2>&1 || missing="$missing node"
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || missing="$missing chromium"
[ -d tests/browser/node_modules/playwright-core ] || missing="$missing tests/browser/node_modules"
if [ -n "$missing" ]; then
    echo "tests/browser: missing:$missing (run: make deps)" >&2
    exit 1
fi
exec node --test tests/browser/viewer.test.mjs
