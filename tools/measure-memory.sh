#!/bin/sh
# Resident memory of one arcpathd serving a maps folder, for capacity planning (README "Deploying",
# docs/DEPLOY.md). Starts ARCPATHD (default build/arcpathd) on a free 127.0.0.1 port with the given
# maps folder, workers and slow_slots, waits (bounded) until /readyz answers 200 (or /healthz, for a
# folder with no maps), prints one TSV line "maps_dir workers slow_slots maps rss_kib hwm_kib" and stops
# the server with SIGTERM.
#   tools/measure-memory.sh DIR [WORKERS [SLOW_SLOTS]]
set -u
dir=$1; workers=${2:-2}; slots=${3:-4}
bin=${ARCPATHD:-build/arcpathd}
port=$(( 20000 + $$ % 20000 ))
ARCPATH_ACCESS_LOG=0 ARCPATH_SLOW_SLOTS="$slots" "$bin" --listen 127.0.0.1:$port --maps "$dir" --workers "$workers" \
    >/dev/null 2>&1 &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT
route=readyz
[ -n "$(ls "$dir"/*.map 2>/dev/null)" ] || route=healthz
i=0
until curl -fs "http://127.0.0.1:$port/$route" >/dev/null 2>&1; do
    i=$((i + 1)); [ $i -le 600 ] || { echo "arcpathd did not get ready on :$port" >&2; exit 1; }
    kill -0 $pid 2>/dev/null || { echo "arcpathd exited" >&2; exit 1; }
    sleep 0.1
done
# Another process may hold the port (then ours exited at start and the answers above were not its own).
sleep 0.2
kill -0 $pid 2>/dev/null || { echo "arcpathd exited (port $port taken?)" >&2; exit 1; }
maps=$(curl -fs "http://127.0.0.1:$port/metrics" | awk '/^arcpath_maps_loaded/ {print $2}')
rss=$(awk '/^VmRSS/ {print $2}' /proc/$pid/status)
hwm=$(awk '/^VmHWM/ {print $2}' /proc/$pid/status)
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$dir" "$workers" "$slots" "$maps" "$rss" "$hwm"
