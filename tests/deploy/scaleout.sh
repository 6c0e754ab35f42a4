#!/bin/sh
# Scale-out on a real load balancer: 3 arcpathd ($ARCPATHD, default build/arcpathd, serving config/maps)
# behind Debian's HAProxy, all on 127.0.0.1, with HAProxy running deploy/compose/haproxy.cfg itself (only the
# lines marked "test:" are rewritten: loopback binds, health checks every 200 ms instead of 2 s, the
# three replicas' addresses instead of Docker's DNS). tests/deploy/load.mjs then sends a bounded load
# through it, SIGKILLs replica s1 and SIGTERMs replica s2 mid-load, and checks every answer (see its
# header for what counts as correct, documented or unexpected). Here: the replicas start and get ready,
# HAProxy accepts the config and sees all three UP, s2 drains and exits 0, and afterwards HAProxy has s1
# and s2 DOWN and s3 UP.
# Load: 6000 requests, 16 at a time; 1500 with ARCPATH_TEST_QUICK=1 (the ASan run). Every wait is bounded,
# the whole run takes well under 60 s, and every process started here is stopped on exit, failure included.
# Closing line "N passed, N failed"; exit status 1 on any failure. Run by `make test` via tools/run-tests.sh.
cd "$(dirname "$0")/../.." || exit 1
bin=${ARCPATHD:-build/arcpathd}
missing=""
[ -x "$bin" ] || missing="$missing $bin"
command -v haproxy >/dev/null 2>&1 || missing="$missing haproxy"
command -v node >/dev/null 2>&1 || missing="$missing node"
command -v curl >/dev/null 2>&1 || missing="$missing curl"
if [ -n "$missing" ]; then
    echo "tests/deploy/scaleout.sh: missing:$missing (run: make deps)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
requests=6000
[ "${ARCPATH_TEST_QUICK:-0}" = 1 ] && requests=1500

tmp=$(mktemp -d) || exit 1
pids=""
cleanup() {
    for p in $pids; do kill -KILL "$p" 2>/dev/null; done
    for p in $pids; do wait "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

passed=0; failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }
# On any failure, the end of every log (replicas' stderr, HAProxy's request log), then the closing line.
finish() {
    if [ "$failed" -gt 0 ]; then
        for f in "$tmp"/*.log; do
            [ -s "$f" ] && { echo "     --- $(basename "$f") (last lines)"; tail -n 12 "$f" | sed 's/^/     /'; }
        done
    fi
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]; exit $?
}

# Five free loopback ports, from the kernel (another process may hold any fixed one).
ports=$(node -e '
const net = require("net"); const s = [];
(async () => { for (let i = 0; i < 5; i++) await new Promise((r) => { const v = net.createServer();
  v.listen(0, "127.0.0.1", () => { s.push(v); r(); }); });
  console.log(s.map((v) => v.address().port).join(" ")); s.forEach((v) => v.close()); })();')
set -- $ports
p1=$1; p2=$2; p3=$3; lb=$4; st=$5

# wait_http URL CODE PID: until URL answers CODE (at most 30 s), while PID lives (0: no process to watch).
wait_http() {
    i=0
    while [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$1")" != "$2" ]; do
        i=$((i + 1))
        [ $i -le 300 ] || return 1
        [ "$3" = 0 ] || kill -0 "$3" 2>/dev/null || return 1
        sleep 0.1
    done
}

# ---- three replicas ----------------------------------------------------------------------------------
n=0
for p in $p1 $p2 $p3; do
    n=$((n + 1))
    ARCPATH_ACCESS_LOG=0 "$bin" --listen 127.0.0.1:$p --maps config/maps >"$tmp/s$n.out" 2>"$tmp/s$n.log" &
    eval "pid$n=\$!"
    pids="$pids $!"
done
ready=1
for n in 1 2 3; do
    eval "p=\$p$n; pid=\$pid$n"
    wait_http "http://127.0.0.1:$p/readyz" 200 "$pid" || ready=0
done
if [ $ready = 1 ]; then ok "3 arcpathd replicas ready on 127.0.0.1:$p1, :$p2, :$p3"; else fail "3 arcpathd replicas ready"; finish; fi

# ---- HAProxy on deploy/compose/haproxy.cfg -------------------------------------------------------------
cfg="$tmp/haproxy.cfg"
awk -v lb="$lb" -v st="$st" -v p1="$p1" -v p2="$p2" -v p3="$p3" '
    /# test: resolvers/ { next }
    /# test: bind/      { sub(/bind :8080/, "bind 127.0.0.1:" lb) }
    /# test: stats/     { sub(/bind :8404/, "bind 127.0.0.1:" st) }
    /# test: checks/    { sub(/inter 2s/, "inter 200ms") }
    /# test: servers/   { print "    server s1 127.0.0.1:" p1 " check"; print "    server s2 127.0.0.1:" p2 " check";
                          print "    server s3 127.0.0.1:" p3 " check"; next }
    { print }' deploy/compose/haproxy.cfg > "$cfg"
# The rewrite must have touched every marked line (a changed haproxy.cfg must not silently test less).
if [ "$(grep -c '# test:' deploy/compose/haproxy.cfg)" = 7 ] && grep -q "bind 127.0.0.1:$lb" "$cfg" &&
   grep -q "bind 127.0.0.1:$st" "$cfg" && grep -q "inter 200ms" "$cfg" && ! grep -q resolvers "$cfg" &&
   haproxy -c -q -f "$cfg" >"$tmp/haproxy-check.log" 2>&1; then
    ok "deploy/compose/haproxy.cfg rewritten for loopback and accepted by haproxy -c"
else
    fail "deploy/compose/haproxy.cfg rewritten for loopback and accepted by haproxy -c"; finish
fi
haproxy -db -f "$cfg" >"$tmp/haproxy.log" 2>&1 &
hpid=$!
pids="$pids $hpid"
# stats_csv: the backend's server rows "name,status" from HAProxy's stats page.
stats_csv() {
    curl -s --max-time 1 "http://127.0.0.1:$st/stats;csv" | awk -F, '$1 == "arcpathd" && $2 ~ /^s[0-9]$/ { print $2 "," $18 }' | tr '\n' ' '
}
i=0
while [ "$(stats_csv)" != "s1,UP s2,UP s3,UP " ]; do
    i=$((i + 1)); [ $i -le 100 ] && kill -0 $hpid 2>/dev/null || break; sleep 0.1
done
if [ "$(stats_csv)" = "s1,UP s2,UP s3,UP " ] && wait_http "http://127.0.0.1:$lb/readyz" 200 $hpid; then
    ok "HAProxy on 127.0.0.1:$lb sees s1, s2 and s3 UP and answers /readyz"
else
    fail "HAProxy on 127.0.0.1:$lb sees s1, s2 and s3 UP (stats: $(stats_csv))"; finish
fi

# ---- the load, with SIGKILL to s1 and SIGTERM to s2 ------------------------------------------------------
cat > "$tmp/load.json" <<EOF
{"lb": "http://127.0.0.1:$lb", "maps": "config/maps", "requests": $requests, "concurrency": 16,
 "kill_at": 0.3, "term_at": 0.5, "max_seconds": 40,
 "replicas": [{"name": "s1", "url": "http://127.0.0.1:$p1", "pid": $pid1},
              {"name": "s2", "url": "http://127.0.0.1:$p2", "pid": $pid2},
              {"name": "s3", "url": "http://127.0.0.1:$p3", "pid": $pid3}]}
EOF
node tests/deploy/load.mjs "$tmp/load.json" >"$tmp/load.txt" 2>&1
sed -n '/passed, .* failed$/!p' "$tmp/load.txt"
lp=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$tmp/load.txt")
lf=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$tmp/load.txt")
passed=$((passed + ${lp:-0})); failed=$((failed + ${lf:-1}))
[ -n "$lf" ] || { fail "load.mjs ran to its verdict"; finish; }

# ---- afterwards ------------------------------------------------------------------------------------------
# s2 drains and exits 0 (at most drain_timeout_ms 10 s + 2 s send wait; waited for up to 20 s).
i=0
while kill -0 "$pid2" 2>/dev/null && [ $i -le 200 ]; do
    # A zombie still answers kill -0: reap it (it has exited) by waiting for it below.
    [ "$(awk '{print $3}' /proc/$pid2/stat 2>/dev/null)" = Z ] && break
    i=$((i + 1)); sleep 0.1
done
if kill -0 "$pid2" 2>/dev/null && [ "$(awk '{print $3}' /proc/$pid2/stat 2>/dev/null)" != Z ]; then
    fail "s2 exits after SIGTERM (still running after 20 s)"
else
    wait "$pid2"; rc=$?
    pids=$(echo $pids | tr ' ' '\n' | grep -vx "$pid2" | tr '\n' ' ') # reaped: its number may be reused
    if [ $rc = 0 ] && grep -q "draining" "$tmp/s2.log"; then ok "s2 drained and exited 0 after SIGTERM"
    else fail "s2 drained and exited 0 after SIGTERM (exit status $rc)"; fi
fi
i=0
while [ "$(stats_csv)" != "s1,DOWN s2,DOWN s3,UP " ] && [ $i -le 50 ]; do i=$((i + 1)); sleep 0.1; done
s=$(stats_csv)
if [ "$s" = "s1,DOWN s2,DOWN s3,UP " ]; then ok "HAProxy has s1 and s2 DOWN, s3 UP"
else fail "HAProxy has s1 and s2 DOWN, s3 UP (stats: $s)"; fi
finish
