#!/bin/sh
# Install what arcpath needs to build, run and test, but only what is missing: Debian packages, then the
# npm packages of the browser test, the OpenAPI linter, the contract test, the deploy checks and the JS
# client's types check (pinned by the package-lock.json of tests/browser, tests/spec, tests/contract,
# tests/deploy and tests/clients), and promtool for tests/deploy.
# Used by `make run` and `make check`; safe to run again. `install-deps.sh packages` installs the Debian
# packages only, `install-deps.sh npm` the npm packages and promtool only (make check builds while npm
# installs: npm leaves most of a core idle).
set -e
cd "$(dirname "$0")/.."
# chromium (+ a font) runs the viewer test headless; nodejs/npm drive it (tests/browser); curl runs the
# README's examples as written (tests/contract). python3 and Mono (mcs, the runtime, HttpClient and the JSON
# serializer: about 8 MB to download) run the clients (tests/clients). libcairo2-dev: the PNG pictures
# (proto/render_png.c). zlib1g-dev: gzip answers (server/gzip.c). haproxy is the load balancer of the
# scale-out test (tests/deploy/scaleout.sh).
PKGS="build-essential pkg-config libmicrohttpd-dev libjansson-dev libuv1-dev libcairo2-dev zlib1g-dev check
libcurl4-openssl-dev wrk chromium fonts-dejavu-core curl haproxy
python3 mono-mcs mono-runtime libmono-system-net-http4.0-cil libmono-system-runtime-serialization4.0-cil"
# `install-deps.sh analyze` (make analyze): also the two static analyzers of tools/analyze.sh.
[ "${1:-}" = analyze ] && PKGS="$PKGS clang cppcheck"
missing=""
if [ "${1:-}" != npm ]; then
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
fi
[ "${1:-}" = packages ] && exit 0
# npm writes node_modules/.package-lock.json on install: older than the lockfile means a changed pin.
for dir in tests/browser tests/spec tests/contract tests/deploy tests/clients; do
    if [ ! -f $dir/node_modules/.package-lock.json ] || [ $dir/package-lock.json -nt $dir/node_modules/.package-lock.json ]; then
        echo "arcpath: installing the npm packages of $dir"
        (cd $dir && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
    fi
done
# promtool (tests/deploy/run.sh checks deploy/compose/prometheus.yml with it) comes from Debian's prometheus
# package, but only that one file, unpacked into tests/deploy/.bin: installing the package would also
# install and start a Prometheus server listening on every interface (port 9090) on the developer's machine.
if ! command -v promtool >/dev/null 2>&1 && [ ! -x tests/deploy/.bin/promtool ]; then
    echo "arcpath: unpacking promtool from Debian's prometheus package into tests/deploy/.bin"
    tmp=$(mktemp -d)
    if ! (cd "$tmp" && apt-get download -q prometheus >/dev/null 2>&1); then
        SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
        $SUDO apt-get update -q && (cd "$tmp" && apt-get download -q prometheus >/dev/null)
    fi
    mkdir -p tests/deploy/.bin
    dpkg-deb --fsys-tarfile "$tmp"/prometheus_*.deb | tar -x -O ./usr/bin/promtool > tests/deploy/.bin/promtool.tmp
    chmod 755 tests/deploy/.bin/promtool.tmp && mv tests/deploy/.bin/promtool.tmp tests/deploy/.bin/promtool
    rm -rf "$tmp"
fi
