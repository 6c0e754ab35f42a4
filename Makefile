# arcpath — build, run, test, bench.
#
#   make          build build/arcpathd, the test programs, build/arcpath-bench and build/arcpath-client-example
#   make run      install missing Debian packages, build, serve config/maps on 127.0.0.1:8080 (config/demo.conf)
#   make check    install missing Debian and npm packages, build, run every test (plain, then ASan+UBSan)
#   make bench    planner and server benchmarks (figures for BENCHMARKS.md)
#   make check-tsan  arcpathd, the integration tests and a short soak under ThreadSanitizer (not in make check)
#
# BUILD=dir selects the output folder; SAN=1 builds with AddressSanitizer + UndefinedBehaviorSanitizer.

CC      ?= cc
BUILD   ?= build
SAN     ?= 0
# make check builds with one job a core (the tests then run one program at a time, the planner's in shards)
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
PKGS     = libmicrohttpd jansson libuv cairo zlib
TESTPKGS = check libcurl

OPT      = -O2
SANFLAGS =
DEBUG    = -g
# The sanitizer build keeps line tables only (-g1): its reports' stacks still name file and line, and it
# compiles in ~18 % less CPU time than with full debug information (make check builds it every run).
ifeq ($(SAN),1)
OPT      = -O1 -fno-omit-frame-pointer -fno-sanitize-recover=all
SANFLAGS = -fsanitize=address,undefined
DEBUG    = -g1
endif

WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
# -fno-math-errno: nothing reads errno after a libm call, and without it GCC guards every inlined sqrt with
# a test and a call for negative input (-1.4 % instructions on the kinodynamic search; same results to the bit).
# -fno-trapping-math: nothing enables floating-point traps or reads the exception flags (no fenv.h), so GCC
# may evaluate a comparison or an operation whose result goes unused (-0.9 %; the same results to the bit).
MATH     = -fno-math-errno -fno-trapping-math
CFLAGS  ?=
CFLAGS  += -std=c11 -D_GNU_SOURCE $(OPT) $(MATH) $(SANFLAGS) $(DEBUG) $(WARN) -MMD -MP
LDFLAGS += $(SANFLAGS)

PKG_CFLAGS  = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS    = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
TEST_CFLAGS = $(shell pkg-config --cflags $(TESTPKGS) 2>/dev/null)
TEST_LIBS   = $(shell pkg-config --libs $(TESTPKGS) 2>/dev/null)
JANSSON_LIBS = $(shell pkg-config --libs jansson 2>/dev/null)
# proto/render_png.c draws PNGs with cairo
CAIRO_LIBS   = $(shell pkg-config --libs cairo 2>/dev/null)

PLANNER_SRC = $(wildcard planner/*/*.c)
PROTO_SRC   = $(wildcard proto/*.c)
CONFIG_SRC  = $(wildcard config/*.c)
SERVER_SRC  = $(filter-out server/main.c,$(wildcard server/*.c)) $(STATIC_C)
# The viewer's files (GET /) and the API's description (GET /openapi.yaml, /openapi.json), embedded in
# arcpathd as a generated C source.
STATIC_FILES = $(sort $(wildcard server/static/*)) proto/openapi.yaml proto/openapi.json
STATIC_C     = $(BUILD)/gen/static_files.c

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

PLANNER_LIB = $(BUILD)/libarcpath_planner.a
PROTO_LIB   = $(BUILD)/libarcpath_proto.a
CONFIG_LIB  = $(BUILD)/libarcpath_config.a
SERVER_LIB  = $(BUILD)/libarcpath_server.a

TEST_PLANNER     = $(BUILD)/test-planner
TEST_PROTO       = $(BUILD)/test-proto
TEST_CONFIG      = $(BUILD)/test-config
TEST_SERVER      = $(BUILD)/test-server
TEST_INTEGRATION = $(BUILD)/test-integration
FUZZ_DRIVERS     = $(patsubst tests/fuzz/%/,$(BUILD)/fuzz-%,$(sort $(dir $(wildcard tests/fuzz/*/fuzz.c))))
BENCH            = $(BUILD)/arcpath-bench $(BUILD)/arcpath-bare-http $(patsubst tests/bench/bench_%.c,$(BUILD)/arcpath-bench-%,$(wildcard tests/bench/bench_*.c))
TOOLS            = $(BUILD)/arcpath-mapgen
# The C client (clients/c) and its example: their own objects, not linked into arcpathd.
CLIENT_EXAMPLE   = $(BUILD)/arcpath-client-example
CLIENT_CFLAGS    = $(shell pkg-config --cflags libcurl jansson 2>/dev/null)
CLIENT_LIBS      = $(shell pkg-config --libs libcurl jansson 2>/dev/null)

TESTS = $(TEST_PLANNER) $(TEST_PROTO) $(TEST_CONFIG) $(TEST_SERVER) $(TEST_INTEGRATION)
# What `make test` runs: the sanitizer build makes only these (the bench programs and tools are built, and
# so compiled, by the plain run's `all`).
TEST_DEPS = $(BUILD)/arcpathd $(TESTS) $(FUZZ_DRIVERS) $(CLIENT_EXAMPLE)

.SECONDARY:
.PHONY: all deps run check check-asan check-tsan analyze coverage check-layers test test-code test-deps bench clean maps openapi-json
all: $(BUILD)/arcpathd $(TESTS) $(FUZZ_DRIVERS) $(BENCH) $(TOOLS) $(CLIENT_EXAMPLE)

deps:
	@sh tools/install-deps.sh

run: deps
	@$(MAKE) --no-print-directory $(BUILD)/arcpathd
	./$(BUILD)/arcpathd --listen 127.0.0.1:8080 --maps config/maps --config config/demo.conf

# The sanitizer build runs at nice 19 beside the plain pass (its output in build-asan/build.log): it takes
# the core the plain tests leave idle (see TEST_CODE), and check-asan then finds it built (or builds what
# is left and shows any error itself).
# The npm installs (a fresh clone's ~30 s, with most of a core idle) run beside the plain build, after the
# Debian packages the builds need; the plain tests start once both are done.
check:
	@sh tools/install-deps.sh packages
	@mkdir -p build-asan
	@echo "== the sanitizer build at nice 19 beside the plain pass (build-asan/build.log)"
	@nice -n 19 $(MAKE) --no-print-directory -j$(JOBS) BUILD=build-asan SAN=1 test-deps > build-asan/build.log 2>&1 & \
	  bpid=$$!; sh tools/install-deps.sh npm & npid=$$!; \
	  $(MAKE) --no-print-directory -j$(JOBS) all; rc=$$?; wait $$npid || rc=1; \
	  [ $$rc -ne 0 ] || $(MAKE) --no-print-directory test; rc2=$$?; wait $$bpid; [ $$rc -eq 0 ] && exit $$rc2; exit $$rc
	@$(MAKE) --no-print-directory check-asan

# The test programs, run in order; each prints Check's summary line (node's test runner for the viewer in
# headless Chromium, tests/browser; Redocly's OpenAPI linter on proto/openapi.yaml, tests/spec; the README's
# examples and the error catalogue against live servers, validated against the spec, tests/contract; the C,
# Python, JavaScript and C# clients against a live arcpathd, tests/clients; deploy/ under validators and 3
# replicas behind HAProxy, tests/deploy; a short soak while maps change, tests/soak) and fails the make on
# any failure. The planner's suites run as two shards side by side (one a core: tools/run-tests.sh PROGRAM@N)
# at nice 19 in the background (nice:PROGRAM) beside the programs after them: they need nothing but a core
# and are half of the run's CPU time, while the integration tests and the scripts wait on servers, sockets
# and browsers with about one core idle. The scripts run one after another beside the integration tests
# (beside:, at nice 10: each waits on servers of its own), not after them.
# TEST_FILES check files only (the spec, deploy/'s manifests), none of our code: the sanitizer pass leaves them out.
TEST_CODE = nice:$(TEST_PLANNER)@2 $(TEST_PROTO) $(TEST_CONFIG) $(TEST_SERVER) \
  beside:tests/browser/run.sh beside:tests/contract/run.sh beside:tests/clients/run.sh \
  beside:tests/deploy/scaleout.sh beside:tests/soak/run.sh $(TEST_INTEGRATION) $(FUZZ_DRIVERS)
TEST_FILES = tests/spec/run.sh tests/deploy/run.sh

test: $(TEST_DEPS) check-layers
	ARCPATHD=$(BUILD)/arcpathd sh tools/run-tests.sh $(TEST_CODE) $(TEST_FILES)

test-code: $(TEST_DEPS) check-layers
	ARCPATHD=$(BUILD)/arcpathd sh tools/run-tests.sh $(TEST_CODE)

# The planner's folders are layers (base < geom < world < search < grid, turns, anyangle, kino < plan; hier above
# grid, tools/check-layers.sh): each may include only the layers below it, so planner/world names no search
# module and planner/search no domain.
check-layers:
	@sh tools/check-layers.sh

test-deps: $(TEST_DEPS)

# detect_stack_use_after_return: a job handed to the pool once read the parsing handler's stack (a corridor);
# only this mode sees such a read when nothing has reused the frame yet. ARCPATH_TEST_QUICK=1: the test programs
# sweep fewer maps and tests/clients runs the C client only (the one built with the sanitizers).
check-asan:
	@echo "== the same tests (but the file-only checks) under AddressSanitizer + UndefinedBehaviorSanitizer =="
	@$(MAKE) --no-print-directory -j$(JOBS) BUILD=build-asan SAN=1 test-deps
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tools/lsan.supp:print_suppressions=0 \
	  ARCPATH_TEST_QUICK=1 $(MAKE) --no-print-directory BUILD=build-asan SAN=1 test-code

# Not part of make check (about 5 minutes more): arcpathd and the integration tests under ThreadSanitizer, then
# a 30-second soak (maps patched and reloaded under load); any data race report fails it. TSan's reports go
# to build-tsan/tsan.* (the servers the tests start write there too). RSS is not checked: TSan's shadow
# memory grows it.
check-tsan: deps
	@CFLAGS=-fsanitize=thread LDFLAGS=-fsanitize=thread $(MAKE) --no-print-directory -j$(JOBS) BUILD=build-tsan \
	  build-tsan/arcpathd build-tsan/test-integration
	@rm -f build-tsan/tsan.*
	@TSAN_OPTIONS=log_path=$(CURDIR)/build-tsan/tsan ARCPATHD=build-tsan/arcpathd ARCPATH_TEST_START_S=300 \
	  sh tools/run-tests.sh build-tsan/test-integration
	@TSAN_OPTIONS=log_path=$(CURDIR)/build-tsan/tsan python3 tools/soak.py --arcpathd build-tsan/arcpathd \
	  --seconds 30 --threads 3
	@if ls build-tsan/tsan.* >/dev/null 2>&1; then cat build-tsan/tsan.*; echo "check-tsan: data races reported" >&2; \
	  exit 1; else echo "check-tsan: no ThreadSanitizer report"; fi

# Not part of make check (2-3 minutes; about 9 with ARCPATH_TEST_QUICK=0): the tests under gcov, and which lines and functions of the
# shipped code they run (tools/coverage.sh; build-cov/coverage.txt).
coverage:
	@sh tools/coverage.sh

# Not part of make check (about 80 s): clang's static analyzer and cppcheck over the shipped C code; fails on
# a finding not read and listed in tools/analyze-known.txt (tools/analyze.sh says how).
analyze:
	@sh tools/install-deps.sh analyze
	@sh tools/analyze.sh

bench: all
	sh tools/bench.sh $(BUILD)

# proto/openapi.json: proto/openapi.yaml as JSON, bundled by the pinned Redocly CLI (tests/spec; `make deps`).
# Run after every change to the YAML; tests/spec/run.sh fails while the two differ.
openapi-json:
	sh tools/openapi-json.sh proto/openapi.json

maps: $(TOOLS)
	$(BUILD)/arcpath-mapgen config/maps

clean:
	rm -rf build build-asan build-tsan

# --- libraries -------------------------------------------------------------------------------------------
$(PLANNER_LIB): $(call obj,$(PLANNER_SRC))
$(PROTO_LIB): $(call obj,$(PROTO_SRC))
$(CONFIG_LIB): $(call obj,$(CONFIG_SRC))
$(SERVER_LIB): $(call obj,$(SERVER_SRC))
$(BUILD)/lib%.a:
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(STATIC_C): $(STATIC_FILES) tools/embed-static.sh
	@mkdir -p $(dir $@)
	sh tools/embed-static.sh $@ $(STATIC_FILES)

# planner/ must stay free of HTTP, JSON and libuv: it is compiled without their include paths.
$(BUILD)/obj/planner/%.o: planner/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/clients/%.o: clients/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CLIENT_CFLAGS) -c $< -o $@

$(BUILD)/obj/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) $(TEST_CFLAGS) -I. -c $< -o $@

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -I. -c $< -o $@

# --- programs --------------------------------------------------------------------------------------------
$(BUILD)/arcpathd: $(call obj,server/main.c) $(SERVER_LIB) $(PROTO_LIB) $(CONFIG_LIB) $(PLANNER_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm -lpthread

$(TEST_PLANNER): $(call obj,$(wildcard tests/planner/*.c tests/planner/*/*.c) tests/util.c tests/runner.c) $(PLANNER_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(TEST_LIBS) -lm -lpthread

$(TEST_PROTO): $(call obj,$(wildcard tests/proto/*.c) tests/util.c tests/runner.c) $(PROTO_LIB) $(PLANNER_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(TEST_LIBS) $(JANSSON_LIBS) $(CAIRO_LIBS) -lm -lpthread

$(TEST_CONFIG): $(call obj,$(wildcard tests/config/*.c) tests/util.c tests/runner.c) $(CONFIG_LIB) $(PLANNER_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(TEST_LIBS) $(JANSSON_LIBS) -lm -lpthread

$(TEST_SERVER): $(call obj,$(wildcard tests/server/*.c) tests/util.c tests/runner.c) $(SERVER_LIB) $(PROTO_LIB) $(CONFIG_LIB) $(PLANNER_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(TEST_LIBS) $(PKG_LIBS) -lm -lpthread

$(TEST_INTEGRATION): $(call obj,$(wildcard tests/integration/*.c) tests/util.c) $(PLANNER_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(TEST_LIBS) $(JANSSON_LIBS) -lm -lpthread

$(BUILD)/fuzz-%: $(call obj,tests/fuzz/%/fuzz.c tests/fuzz/driver.c) $(PROTO_LIB) $(CONFIG_LIB) $(PLANNER_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm -lpthread

# build/arcpath-bench (scenario runner); tests/bench/bench_NAME.c -> build/arcpath-bench-NAME.
$(BUILD)/arcpath-bench: $(call obj,tests/bench/arcpath_bench.c) $(PLANNER_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

# The bare libmicrohttpd handler the server benchmark compares arcpathd with (tests/bench/bare_http.c).
$(BUILD)/arcpath-bare-http: $(call obj,tests/bench/bare_http.c)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lpthread

$(BUILD)/arcpath-bench-%: $(call obj,tests/bench/bench_%.c) $(PLANNER_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

# The HAA* figure reads scenario files with the test helpers (tests/util.c).
$(BUILD)/arcpath-bench-hier: $(call obj,tests/bench/bench_hier.c tests/util.c) $(PLANNER_LIB)
# The turning any-angle figure reads Moving AI scenario lines with the tests' reader (tests/util.c).
$(BUILD)/arcpath-bench-aaturn: $(call obj,tests/bench/bench_aaturn.c tests/util.c) $(PLANNER_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

# The gzip figure times the server's own compression (server/gzip.c, zlib).
$(BUILD)/arcpath-bench-gzip: $(call obj,tests/bench/bench_gzip.c server/gzip.c)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(TOOLS): $(call obj,tools/mapgen.c) $(PLANNER_LIB)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

$(CLIENT_EXAMPLE): $(call obj,clients/c/example.c clients/c/arcpath_client.c)
	$(CC) $(LDFLAGS) -o $@ $^ $(CLIENT_LIBS) -lm

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
