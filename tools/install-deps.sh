#!/bin/sh
# Install the Debian packages arcpath needs to build, run and test, but only those that are missing.
# Used by `make run` and `make check`; safe to run again.
set -e
PKGS="build-essential pkg-config libmicrohttpd-dev libjansson-dev libuv1-dev check libcurl4-openssl-dev wrk"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
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
