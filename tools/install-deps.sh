#!/bin/sh
# Install what arcpath needs to build, run and test, but only what is missing: Debian packages, then the
# npm packages of the browser test and the OpenAPI linter (pinned by tests/browser/package-lock.json and
# tests/spec/package-lock.json).
# Used by `make run` and `make check`; safe to run again.
set -e
cd "$(dirname "$0")/.."
# chromium (+ a font) runs the viewer test headless; nodejs/npm drive it (tests/browser).
PKGS="build-essential pkg-config libmicrohttpd-dev libjansson-dev libuv1-dev zlib1g-dev check libcurl4-openssl-dev wrk
chromium fonts-dejavu-core"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
# Node.js may come from elsewhere than Debian's packages (a newer release): the commands are what count.
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
    echo "arcpath: installing missing packages:$missing"
    SUDO=""
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
            echo "arcpath: need root (or sudo) to install:$missing" >&2; exit 1
        fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -q --no-install-recommends $missing
fi
# npm writes node_modules/.package-lock.json on install: older than the lockfile means a changed pin.
for dir in tests/browser tests/spec; do
    if [ ! -f $dir/node_modules/.package-lock.json ] || [ $dir/package-lock.json -nt $dir/node_modules/.package-lock.json ]; then
        echo "arcpath: installing the npm packages of $dir"
        (cd $dir && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
    fi
done
