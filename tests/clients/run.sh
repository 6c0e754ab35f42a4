#!/bin/sh
# The clients in clients/ (C, Python, JavaScript, C#) against a live arcpathd ($ARCPATHD, default
# build/arcpathd, serving config/maps on a free 127.0.0.1 port) and against busy_stub.py (a stand-in that
# answers 503 overloaded with Retry-After). For each client's example program:
#   - the README's first query (arena, (3.5, 3.5) → (90.5, 88.5)) prints the answer curl gets for the same
#     body: status, length and grid_cost (the same doubles), the number of segments and clear;
#   - an unknown map prints the client's typed error: HTTP 404, code unknown_map, the server's message,
#     field "map";
#   - the same query on islands (its goal off the map) prints the typed 422: out_of_bounds, field "goal" and
#     the error's map_version;
#   - one 503 with Retry-After is retried (2 requests, then the stub's answer);
#   - an always-503 server is tried exactly 3 times (the clients' default bound), then the overloaded error;
#   - a 503 whose Retry-After is not delta-seconds (an HTTP-date, an empty value) is not retried (1 request);
#   - an answer over 64 MiB (its Content-Length saying so, or none) is the client's bad_answer; a short one
#     nested 1,000 deep is read, or bad_answer where the client's JSON parser stops short of that depth.
# For the kinodynamic members of the C and JavaScript clients' typed requests and of every client's answer
# (the C, JavaScript and C# examples' "kinodynamic" mode; C# sends the body as JSON text; the body KINO
# below):
#   - the tank on arena through search.algorithm kinodynamic prints curl's answer to the same body: status
#     ok, length and duration_s (the same doubles, duration_s > 0), segments, 1 turn on the spot, every
#     segment timed (v_start, v_end, t_start, duration), the samples of samples.dt, probe 0, clear;
#   - the same with unit.max_speed -1 prints the server's 400 invalid_request on field unit.max_speed;
#   - (C) unit.max_speed inf, which JSON cannot carry, is the client's own "argument" error on that field;
#     a 200 whose "segments" is not an array has no path (segments 0, probe -1).
# And the clients' options (Python's timeout over a whole answer; JavaScript's maxAttempts, timeoutMs and a
# Retry-After too long for a number).
# And the JavaScript client's TypeScript declarations: tests/clients/types.ts compiles under tsc --strict
# (TypeScript pinned in this folder's package-lock.json; make deps installs it), its @ts-expect-error lines
# included (each must be an error).
# The C example is built by make ($(BUILD)/arcpath-client-example, beside $ARCPATHD); the C# one is compiled
# here with Mono's mcs into $(BUILD)/csharp/. A missing toolchain is a FAIL naming what is missing (make deps
# installs them all). Prints "ok"/"FAIL" lines and "N passed, N failed"; exit status non-zero on any failure.
# Run by `make test` through tools/run-tests.sh. With ARCPATH_TEST_QUICK=1 (make check's sanitizer pass) only the
# C client runs: it is the one built with the sanitizers; the others' checks would test the same server code
# with the same bodies as the plain pass, or only the stub (~25 s of CPU).
cd "$(dirname "$0")/../.." || exit 1
ARCPATHD=${ARCPATHD:-build/arcpathd}
BUILD=$(dirname "$ARCPATHD")
QUERY='{"map":"arena","start":{"x":3.5,"y":3.5},"goal":{"x":90.5,"y":88.5}}'
UNKNOWN='{"map":"no_such_map","start":{"x":3.5,"y":3.5},"goal":{"x":90.5,"y":88.5}}'
# The README's query on islands (40 x 20): its goal is off the map, a 422 that names the map_version.
OUTSIDE='{"map":"islands","start":{"x":3.5,"y":3.5},"goal":{"x":90.5,"y":88.5}}'
# kino_body [MAX_SPEED]: the body the examples' kinodynamic mode sends (clients/c/example.c,
# clients/js/example.mjs), with "unit": {"max_speed": MAX_SPEED} when given.
kino_body() {
    echo '{"map":"arena","start":{"x":5.5,"y":5.5,"heading":3.14159,"speed":0},"goal":{"x":20.5,"y":12.5,"speed":0},'\
'"unit":{"kind":"tank","reverse":false'"${1:+,\"max_speed\":$1}"'},"goal_tolerance":{"position":0.5,"speed":0.5},'\
'"search":{"algorithm":"kinodynamic","max_expansions":100000},"samples":{"dt":0.5}}'
}
export PYTHONDONTWRITEBYTECODE=1
if [ "${ARCPATH_TEST_QUICK:-0}" = 1 ]; then clients="c"; else clients="c python js csharp"; fi
# wants NAME: client NAME is among those this run tests.
wants() { case " $clients " in *" $1 "*) return 0 ;; esac; return 1; }

passed=0; failed=0
pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; shift; for line in "$@"; do echo "     $line"; done; }

missing=""
[ -x "$ARCPATHD" ] || missing="$missing $ARCPATHD"
command -v curl >/dev/null 2>&1 || missing="$missing curl"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
if [ -n "$missing" ]; then
    fail "tests/clients: the harness needs:$missing (run: make deps && make)"
    echo "$passed passed, $failed failed"
    exit 1
fi

tmp=$(mktemp -d) || exit 1
server_pid=""; stub_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    [ -n "$stub_pid" ] && kill "$stub_pid" 2>/dev/null && wait "$stub_pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# canon: an example's (or curl's, through answer_lines) output with length and grid_cost as shortest
# round-trip doubles, so "121.63058825805291" from %.17g, repr, String() and "R" compare equal.
canon() {
    python3 -c '
import sys
for line in sys.stdin.read().splitlines():
    key, _, value = line.partition(" ")
    if key in ("length", "grid_cost", "duration_s"):
        value = repr(float(value))
    print(key, value)
'
}
# answer_lines: a /v1/path answer (JSON on stdin) as the examples print it.
answer_lines() {
    python3 -c '
import json, sys
a = json.load(sys.stdin)
print("status", a["status"]); print("length", repr(a["length"])); print("grid_cost", repr(a["grid_cost"]))
print("segments", len(a["segments"])); print("clear", "true" if a["clear"] else "false")
'
}
# kino_lines: a kinodynamic /v1/path answer (JSON on stdin) as the examples' kinodynamic mode prints it.
kino_lines() {
    python3 -c '
import json, math, sys
a = json.load(sys.stdin)
segs = a.get("segments")
timed = [s for s in segs or [] if all(isinstance(s.get(k), (int, float)) for k in ("v_start", "v_end", "t_start", "duration"))]
print("status", a["status"]); print("length", repr(a["length"])); print("duration_s", repr(a["duration_s"]))
print("segments", len(segs)); print("turns", sum(s["type"] == "turn" for s in segs)); print("timed", len(timed))
print("samples", len(a.get("samples", []))); print("probe", -1 if segs is None else int(a.get("probe", False)))
print("clear", "true" if a["clear"] else "false")
'
}
# error_line: an error body (JSON on stdin) and its HTTP status ($1) as the examples print it.
error_line() {
    python3 -c '
import json, sys
e = json.load(sys.stdin)["error"]
print("error %s %s: %s (field: %s)" % (sys.argv[1], e["code"], e["message"], e.get("field", ""))
      + (" map_version %d" % e["map_version"] if e.get("map_version") else ""))
' "$1"
}
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# --- the live server and the stub --------------------------------------------------------------------
port=$(free_port)
base="http://127.0.0.1:$port"
"$ARCPATHD" --listen "127.0.0.1:$port" --maps config/maps >"$tmp/server.log" 2>&1 &
server_pid=$!
i=0
until curl -sf "$base/readyz" >/dev/null 2>&1; do
    i=$((i + 1))
    if [ $i -gt 600 ] || ! kill -0 "$server_pid" 2>/dev/null; then
        fail "tests/clients: arcpathd did not become ready on $base" "$(tail -5 "$tmp/server.log")"
        echo "$passed passed, $failed failed"
        exit 1
    fi
    sleep 0.05
done
curl -s "$base/v1/path" -d "$QUERY" | answer_lines >"$tmp/expect-answer" || echo "curl answer" >"$tmp/expect-answer"
status=$(curl -s -o "$tmp/unknown.json" -w '%{http_code}' "$base/v1/path" -d "$UNKNOWN")
error_line "$status" <"$tmp/unknown.json" >"$tmp/expect-unknown" 2>&1
case $(cat "$tmp/expect-unknown") in
    "error 404 unknown_map: "*"(field: map)"*) ;;
    *) fail "curl's answer to a query on an unknown map is not 404 unknown_map on map" \
            "$(cat "$tmp/expect-unknown")" ;;
esac
status=$(curl -s -o "$tmp/outside.json" -w '%{http_code}' "$base/v1/path" -d "$OUTSIDE")
error_line "$status" <"$tmp/outside.json" >"$tmp/expect-outside" 2>&1
case $(cat "$tmp/expect-outside") in
    "error 422 out_of_bounds: "*"(field: goal) map_version 1") ;;
    *) fail "curl's answer to the README query on islands is not 422 out_of_bounds on goal, map_version 1" \
            "$(cat "$tmp/expect-outside")" ;;
esac
busy_answer='{"status":"ok","map":"arena","grid_cost":2.0,"length":2.0,"clear":true,"segments":[{}]}'
echo "$busy_answer" | answer_lines >"$tmp/expect-busy"
echo 'error 503 overloaded: the server is overloaded; retry later (field: )' >"$tmp/expect-overloaded"

python3 tests/clients/busy_stub.py >"$tmp/stub.port" 2>"$tmp/stub.log" &
stub_pid=$!
i=0
while [ ! -s "$tmp/stub.port" ] && [ $i -lt 200 ]; do i=$((i + 1)); sleep 0.05; done
stub="http://127.0.0.1:$(head -1 "$tmp/stub.port")"
stub_count() { curl -s "$stub/count"; }

# --- the clients ---------------------------------------------------------------------------------------
# run_example NAME ARGS...: the example of client NAME with ARGS; stdout+stderr in $tmp/out, status in $rc.
run_example() {
    name=$1; shift
    case $name in
        c) "$BUILD/arcpath-client-example" "$@" ;;
        python) python3 clients/python/example.py "$@" ;;
        js) node clients/js/example.mjs "$@" ;;
        csharp) mono "$BUILD/csharp/arcpath-example.exe" "$@" ;;
    esac >"$tmp/out" 2>&1
    rc=$?
}

# toolchain NAME: what client NAME lacks to run ("" when nothing), building the C# example first.
toolchain() {
    case $1 in
        c) [ -x "$BUILD/arcpath-client-example" ] || echo "$BUILD/arcpath-client-example (run: make)" ;;
        python) python3 -c 'import sys; sys.exit(sys.version_info < (3, 8))' || echo "python3 >= 3.8" ;;
        js) command -v node >/dev/null 2>&1 && node -e 'process.exit(+process.versions.node.split(".")[0] >= 18 ? 0 : 1)' \
                || echo "node >= 18 (run: make deps)" ;;
        csharp)
            if ! command -v mcs >/dev/null 2>&1 || ! command -v mono >/dev/null 2>&1; then
                echo "mono-mcs and mono-runtime (run: make deps)"
            else
                mkdir -p "$BUILD/csharp"
                mcs -langversion:7 -warnaserror -nologo -out:"$BUILD/csharp/arcpath-example.exe" \
                    -r:System.Net.Http.dll -r:System.Runtime.Serialization.dll -r:System.Xml.dll \
                    clients/csharp/ArcpathClient.cs clients/csharp/Example.cs >"$tmp/mcs.log" 2>&1 \
                    || echo "a C# build that compiles: $(cat "$tmp/mcs.log")"
            fi ;;
    esac
}

for name in $clients; do
    lack=$(toolchain $name)
    if [ -n "$lack" ]; then
        fail "$name: toolchain missing: $lack"
        continue
    fi

    run_example $name "$base"
    if [ $rc -eq 0 ] && canon <"$tmp/out" | cmp -s - "$tmp/expect-answer"; then
        pass "$name: README query on arena = curl's answer ($(tr '\n' ' ' <"$tmp/expect-answer"))"
    else
        fail "$name: README query on arena (exit $rc)" "expected: $(tr '\n' ' ' <"$tmp/expect-answer")" \
            "got:      $(tr '\n' ' ' <"$tmp/out")"
    fi

    run_example $name "$base" no_such_map
    if [ $rc -eq 1 ] && cmp -s "$tmp/out" "$tmp/expect-unknown"; then
        pass "$name: unknown map -> typed error ($(cat "$tmp/expect-unknown"))"
    else
        fail "$name: unknown map (exit $rc)" "expected: $(cat "$tmp/expect-unknown")" "got:      $(cat "$tmp/out")"
    fi

    run_example $name "$base" islands
    if [ $rc -eq 1 ] && cmp -s "$tmp/out" "$tmp/expect-outside"; then
        pass "$name: a 422 -> typed error with its map_version ($(cat "$tmp/expect-outside"))"
    else
        fail "$name: goal off the map (exit $rc)" "expected: $(cat "$tmp/expect-outside")" "got:      $(cat "$tmp/out")"
    fi

    before=$(stub_count)
    run_example $name "$stub"
    sent=$(( $(stub_count) - before ))
    if [ $rc -eq 0 ] && [ "$sent" -eq 2 ] && canon <"$tmp/out" | cmp -s - "$tmp/expect-busy"; then
        pass "$name: 503 + Retry-After retried once (2 requests, then the answer)"
    else
        fail "$name: 503 + Retry-After retried once (exit $rc, $sent requests; expected 0, 2)" "got: $(cat "$tmp/out")"
    fi

    before=$(stub_count)
    run_example $name "$stub" always_busy
    sent=$(( $(stub_count) - before ))
    if [ $rc -eq 1 ] && [ "$sent" -eq 3 ] && cmp -s "$tmp/out" "$tmp/expect-overloaded"; then
        pass "$name: always 503 -> 3 requests, then the overloaded error"
    else
        fail "$name: always 503 (exit $rc, $sent requests; expected 1, 3)" "expected: $(cat "$tmp/expect-overloaded")" \
            "got:      $(cat "$tmp/out")"
    fi

    # an answer past the clients' 64 MiB cap, declared or only sent, is bad_answer, not read on (the C client
    # had the cap; the others read whatever came)
    for form in huge huge_undeclared; do
        run_example $name "$stub" $form
        expect="error 0 bad_answer: the answer is larger than the client's 64 MiB cap (field: )"
        if [ $rc -eq 1 ] && [ "$(cat "$tmp/out")" = "$expect" ]; then
            pass "$name: an answer over 64 MiB ($form) -> bad_answer"
        else
            fail "$name: an answer over 64 MiB, $form (exit $rc)" "expected: $expect" "got:      $(cat "$tmp/out")"
        fi
    done

    # a short answer nested 1,000 deep is read (an unknown member, "x") or, where the JSON parser stops
    # short of that depth, bad_answer; never an untyped error (Python raised RecursionError: a helper)
    run_example $name "$stub" deep
    case "$rc:$(cat "$tmp/out")" in
        "0:status ok"* | "1:error 200 bad_answer: "*) pass "$name: a 200 nested 1,000 deep -> read, or bad_answer" ;;
        *) fail "$name: a 200 nested 1,000 deep (exit $rc; expected the answer or error 200 bad_answer)" \
            "got: $(cat "$tmp/out")" ;;
    esac
    run_example $name "$stub" deep_error
    case "$rc:$(cat "$tmp/out")" in
        "1:error 500 bad_answer: "*) pass "$name: a 500 nested 1,000 deep -> bad_answer" ;;
        *) fail "$name: a 500 nested 1,000 deep (exit $rc; expected 1, error 500 bad_answer)" "got: $(cat "$tmp/out")" ;;
    esac

    # a Retry-After that is not delta-seconds (arcpath sends only those) is no advice to retry: one request,
    # the same in every client (C retried the date at once, JavaScript the empty value: Number("") is 0)
    for form in busy_dated busy_blank; do
        before=$(stub_count)
        run_example $name "$stub" $form
        sent=$(( $(stub_count) - before ))
        if [ $rc -eq 1 ] && [ "$sent" -eq 1 ] && cmp -s "$tmp/out" "$tmp/expect-overloaded"; then
            pass "$name: 503 + Retry-After not in seconds ($form) -> not retried, the overloaded error"
        else
            fail "$name: 503 + Retry-After not in seconds, $form (exit $rc, $sent requests; expected 1, 1)" \
                "expected: $(cat "$tmp/expect-overloaded")" "got:      $(cat "$tmp/out")"
        fi
    done
done

# --- the kinodynamic members (C, JavaScript, C#) ---------------------------------------------------------
kino_body | curl -s "$base/v1/path" -d @- | kino_lines >"$tmp/expect-kino" 2>&1
status=$(kino_body -1 | curl -s -o "$tmp/kino-bad.json" -w '%{http_code}' "$base/v1/path" -d @-)
error_line "$status" <"$tmp/kino-bad.json" >"$tmp/expect-kino-bad" 2>&1
# The answer the clients must reproduce is the one the test means: ok, timed, one turn, all segments timed.
if ! python3 -c '
import sys
k = dict(line.split(" ", 1) for line in open(sys.argv[1]).read().splitlines())
sys.exit(not (k["status"] == "ok" and float(k["duration_s"]) > 0 and k["turns"] == "1"
              and k["timed"] == k["segments"] and int(k["segments"]) > 1 and int(k["samples"]) > 1))
' "$tmp/expect-kino" 2>/dev/null; then
    fail "kinodynamic: curl's answer to the tank body is not ok, timed, with one turn" "$(tr '\n' ' ' <"$tmp/expect-kino")"
fi
case $(cat "$tmp/expect-kino-bad") in
    "error 400 invalid_request: "*"(field: unit.max_speed)") ;;
    *) fail "kinodynamic: curl's answer to unit.max_speed -1 is not 400 invalid_request on unit.max_speed" \
            "$(cat "$tmp/expect-kino-bad")" ;;
esac
for name in c js csharp; do
    wants $name && [ -z "$(toolchain $name)" ] || continue   # (a missing toolchain: already a FAIL above)
    run_example $name "$base" arena kinodynamic
    if [ $rc -eq 0 ] && canon <"$tmp/out" | cmp -s - "$tmp/expect-kino"; then
        pass "$name: typed kinodynamic query = curl's answer ($(tr '\n' ' ' <"$tmp/expect-kino"))"
    else
        fail "$name: typed kinodynamic query (exit $rc)" "expected: $(tr '\n' ' ' <"$tmp/expect-kino")" \
            "got:      $(tr '\n' ' ' <"$tmp/out")"
    fi
    run_example $name "$base" arena kinodynamic -1
    if [ $rc -eq 1 ] && cmp -s "$tmp/out" "$tmp/expect-kino-bad"; then
        pass "$name: typed unit.max_speed -1 -> $(cat "$tmp/expect-kino-bad")"
    else
        fail "$name: typed unit.max_speed -1 (exit $rc)" "expected: $(cat "$tmp/expect-kino-bad")" "got:      $(cat "$tmp/out")"
    fi
done
# C#: the typed request's doubles reach the server bit for bit (Mono's serializer sent 16.230544366138002 as
# 16.230544366138), and a 200 of the wrong shape is the client's bad_answer, not a reflection exception.
if wants csharp && [ -z "$(toolchain csharp)" ]; then
    run_example csharp "$base" arena start 16.230544366138002
    if [ $rc -eq 0 ] && python3 -c 'import sys; sys.exit(float(open(sys.argv[1]).read().split()[1]) != 16.230544366138002)' "$tmp/out"; then
        pass "csharp: typed start x 16.230544366138002 arrives as that double"
    else
        fail "csharp: typed start x 16.230544366138002 (exit $rc)" "got: $(cat "$tmp/out")"
    fi
    # the body is read by the client itself (under its cap): cut short it is still a transport error
    run_example csharp "$stub" truncated
    case $rc:$(cat "$tmp/out") in
        "1:error 0 transport: "*) pass "csharp: a body cut short -> transport" ;;
        *) fail "csharp: a body cut short (exit $rc; expected 1, error 0 transport)" "got: $(cat "$tmp/out")" ;;
    esac
    run_example csharp "$stub" badly_typed
    case $rc:$(cat "$tmp/out") in
        "1:error 200 bad_answer: "*) pass "csharp: a 200 with a member of the wrong type -> bad_answer" ;;
        *) fail "csharp: a 200 with a member of the wrong type (exit $rc; expected 1, error 200 bad_answer)" \
               "got: $(cat "$tmp/out")" ;;
    esac
fi
if wants c && [ -z "$(toolchain c)" ]; then
    # "segments" not an array is no path: probe -1 (it was 0, as for a path without the probe)
    run_example c "$stub" badly_typed kinodynamic
    if [ $rc -eq 0 ] && grep -qx 'probe -1' "$tmp/out" && grep -qx 'segments 0' "$tmp/out"; then
        pass "c: a 200 whose segments is not an array -> segments 0, probe -1"
    else
        fail "c: a 200 whose segments is not an array (exit $rc; expected segments 0, probe -1)" "got: $(tr '\n' ' ' <"$tmp/out")"
    fi
    run_example c "$base" arena kinodynamic inf
    expect='error 0 argument: unit.max_speed must be a finite number (NaN means not sent) (field: unit.max_speed)'
    if [ $rc -eq 1 ] && [ "$(cat "$tmp/out")" = "$expect" ]; then
        pass "c: typed unit.max_speed inf -> the client's argument error, nothing sent"
    else
        fail "c: typed unit.max_speed inf (exit $rc)" "expected: $expect" "got:      $(cat "$tmp/out")"
    fi
fi

# --- answers cut short, and bad options -----------------------------------------------------------------------
# Python: timeout bounds the whole request (a body, or the header lines, a byte every 0.3 s are cut off at 1 s,
# not read for 6 s: the headers went on for ever), and a
# body cut short is a TransportError (both escaped as other exceptions, or not at all). JavaScript: maxAttempts
# NaN takes the default 3 (it retried without end); a Retry-After of 401 digits (Infinity as a number) is
# retried after maxRetryWaitMs (it was not retried); timeoutMs 0, -1 and 2^32 take the default or the
# longest timer (each failed every call as transport).
if wants python; then
out=$(PYTHONPATH=clients/python python3 -c '
import sys, time
from arcpath_client import ArcpathClient, TransportError
c = ArcpathClient(sys.argv[1], timeout=1.0, max_attempts=1)
for m in ("drip", "truncated", "slowhead"):
    t0 = time.monotonic()
    try:
        c.path({"map": m})
        print(m, "answered")
    except TransportError as e:
        print(m, "transport", "fast" if time.monotonic() - t0 < 2.5 else "slow")
    except BaseException as e:
        print(m, "untyped", type(e).__name__)
' "$stub" 2>&1)
expect=$(printf 'drip transport fast\ntruncated transport fast\nslowhead transport fast')
if [ "$out" = "$expect" ]; then
    pass "python: timeout bounds the whole answer; a body cut short is a transport error"
else
    fail "python: answers cut short" "expected: $expect" "got:      $out"
fi
fi
if wants js; then
before=$(stub_count)
out=$(node -e '
import(process.argv[1]).then(async (m) => {
  const c = new m.ArcpathClient(process.argv[2], { maxAttempts: Number("x"), maxRetryWaitMs: 0 });
  try { await c.path({ map: "always_busy" }); console.log("answered"); } catch (e) { console.log(e.code, c.maxAttempts); }
  const l = new m.ArcpathClient(process.argv[2], { maxAttempts: 2, maxRetryWaitMs: 1 });
  try { await l.path({ map: "busy_long" }); console.log("answered"); } catch (e) { console.log(e.code, e.attempts); }
  for (const t of [0, -1, 2 ** 32]) {
    const tc = new m.ArcpathClient(process.argv[2], { timeoutMs: t, maxAttempts: 1 });
    try { const a = await tc.path({ map: "x" }); console.log(tc.timeoutMs, a.status); } catch (e) { console.log(tc.timeoutMs, e.code); }
  }
});' "$PWD/clients/js/arcpath-client.mjs" "$stub" 2>&1)
sent=$(( $(stub_count) - before ))
# (the stub answers "x" 503 and 200 in turn with the default map's count: one of the three calls may be
# the 503, "overloaded", but never a transport error)
expect=$(printf 'overloaded 3\noverloaded 2\n10000 .*\n10000 .*\n2147483647 .*')
if ! echo "$out" | grep -q transport && [ "$(echo "$out" | head -2)" = "$(printf 'overloaded 3\noverloaded 2')" ] \
   && [ "$(echo "$out" | sed -n '3,5s/ .*//p' | tr '\n' ' ')" = "10000 10000 2147483647 " ] && [ "$sent" -eq 8 ]; then
    pass "js: maxAttempts NaN takes the default (3 requests); a Retry-After of 401 digits is retried; timeoutMs 0, -1, 2^32 answered"
else
    fail "js: options ($sent requests; expected 8)" "expected: $expect" "got:      $out"
fi
fi

# --- the JavaScript client's declarations -------------------------------------------------------------------
tsc=tests/clients/node_modules/.bin/tsc
if ! wants js; then
    :
elif [ ! -x "$tsc" ]; then
    fail "js: toolchain missing: $tsc (run: make deps)"
elif "$tsc" --noEmit --strict --module nodenext --moduleResolution nodenext --target es2022 tests/clients/types.ts \
        >"$tmp/tsc.log" 2>&1; then
    pass "js: arcpath-client.d.mts types the kinodynamic members (tests/clients/types.ts under tsc --strict)"
else
    fail "js: tests/clients/types.ts under tsc --strict" "$(cat "$tmp/tsc.log")"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
