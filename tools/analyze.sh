#!/bin/sh
# analyze.sh — static analysis of the shipped C code (planner/, server/, proto/, config/, clients/c/): clang's
# static analyzer (`clang --analyze`, the checks scan-build runs) and cppcheck (warning, portability), each
# file on its own, two at a time. `make analyze` runs it; it is not part of `make check` (about 80 s on 2
# cores, and the analyzers' verdicts change with their versions).
#
# Both analyzers report some paths the code cannot take (an invariant held across functions or files that
# they do not follow). Those are listed, each with the reason it cannot happen, in tools/analyze-known.txt,
# one finding a line: `tool|file|function|check|why`. A finding is known when its tool, file, enclosing
# function and check match a line there (line numbers are left out: they move with every edit). This
# script prints every finding that is not known and fails when there is one; known entries no longer
# reported are printed too (delete them), without failing.
#
# Usage: sh tools/analyze.sh [FILE.c ...]    (default: every .c file of the folders above)
set -eu
cd "$(dirname "$0")/.."
KNOWN=tools/analyze-known.txt
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [ $# -gt 0 ]; then
    printf '%s\n' "$@" > "$out/files"
else
    ls planner/*/*.c server/*.c proto/*.c config/*.c clients/c/*.c > "$out/files"
fi
for t in clang cppcheck pkg-config; do
    command -v $t >/dev/null 2>&1 || { echo "analyze: $t is missing (make analyze installs it)" >&2; exit 1; }
done
cflags="-std=c11 -D_GNU_SOURCE -O2 -I. $(pkg-config --cflags libmicrohttpd jansson libuv cairo zlib libcurl 2>/dev/null)"
export cflags out

# clang: one text report per file (warnings only; `-analyzer-output=text` would add the path notes).
# shellcheck disable=SC2016
xargs -P 2 -n 1 sh -c 'clang --analyze $cflags "$1" -o /dev/null > "$out/$(echo "$1" | tr / _).clang" 2>&1 || true' _ < "$out/files"
# cppcheck: file|line|id|message, the same files.
# shellcheck disable=SC2046
cppcheck -q -j 2 --enable=warning,portability --std=c11 -D_GNU_SOURCE -I. --inline-suppr \
    --template='{file}|{line}|{id}|{message}' $(cat "$out/files") 2> "$out/cppcheck" >/dev/null || true

# Each finding as tool|file|line|check|message.
cat "$out"/*.clang 2>/dev/null | sed -n 's/^\([^:]*\.c\):\([0-9]*\):[0-9]*: warning: \(.*\) \[\([^]]*\)\]$/clang|\1|\2|\4|\3/p' > "$out/findings"
grep -E '^[^|]+\.c\|[0-9]+\|' "$out/cppcheck" | sed 's/^/cppcheck|/' >> "$out/findings" || true
# A compiler error means a file was not analysed at all: fail, do not let it pass as "no finding".
if grep -h ' error: ' "$out"/*.clang 2>/dev/null; then
    echo "analyze: clang could not compile the files above" >&2
    exit 1
fi

# The enclosing function of file:line: the nearest definition above it (this code base opens every
# function definition at column 0: `type name(args)`), else "-".
enclosing() {
    awk -v L="$2" 'NR > L { exit }
        /^[A-Za-z_][A-Za-z0-9_ *]*[ *]([A-Za-z_][A-Za-z0-9_]*)\(/ && !/;[ \t]*$/ {
            s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ *]+/); f = w[n] }
        END { print (f == "" ? "-" : f) }' "$1"
}

new=0
: > "$out/seen"
while IFS='|' read -r tool file line check msg; do
    fn=$(enclosing "$file" "$line")
    key="$tool|$file|$fn|$check"
    echo "$key" >> "$out/seen"
    if ! grep -v '^#' "$KNOWN" | cut -d'|' -f1-4 | grep -qxF "$key"; then
        echo "NEW $tool $file:$line ($fn) [$check] $msg"
        new=$((new + 1))
    fi
done < "$out/findings"
total=$(wc -l < "$out/findings")
[ $# -gt 0 ] || grep -v '^#' "$KNOWN" | grep -v '^[[:space:]]*$' | cut -d'|' -f1-4 | while read -r key; do
    grep -qxF "$key" "$out/seen" || echo "stale (no longer reported; delete it from $KNOWN): $key"
done
echo "analyze: $(wc -l < "$out/files") files, $total findings, $new not in $KNOWN"
[ "$new" -eq 0 ]
