# Thin wrapper around CMake and ctest; the real build lives in CMakeLists.txt.
#   make deps | build | test | demo | bench | engine-only | sanitize | fuzz | fuzz-long |
#   format-check | clean
# Variables: BUILD (build directory), JOBS (parallel jobs), CMAKE_ARGS (extra configure flags),
# FUZZ_SECONDS (per fuzz target and run), FUZZ_TARGETS (default: all), FUZZ_UNTIL (fuzz-long:
# executions per target to reach, counted over all runs in $(FUZZ_BUILD)/fuzz/totals.tsv).
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_ARGS ?=
ENGINE_BUILD ?= build-engine
ASAN_BUILD ?= build-asan
CLANG_BUILD ?= build-clang
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
FUZZ_UNTIL ?= 10000000
CTEST_FLAGS ?= --output-on-failure -j2 --no-label-summary
MAKEFLAGS += --no-print-directory

.PHONY: all deps build test demo bench engine-only sanitize fuzz fuzz-long determinism format-check clean

all: build

deps:
	deploy/install-deps.sh build

# Configures once; afterwards `cmake --build` re-runs CMake by itself when a CMakeLists changes.
build:
	@test -f $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) $(CMAKE_ARGS)
	cmake --build $(BUILD) -j $(JOBS)

demo:
	deploy/install-deps.sh demo
	$(MAKE) build
	deploy/demo.sh $(BUILD)/bin/pbemd $(BUILD)/demo

test:
	deploy/install-deps.sh test
	$(MAKE) build
	ctest --test-dir $(BUILD) $(CTEST_FLAGS)

# One command for every figure (tests/bench.sh): the Google Benchmark micro-benchmarks, then
# the service benchmarks of issues 7 and 19 (as root: the mail one starts Postfix and Dovecot
# on loopback): HTTP with wrk, each figure beside nginx's in the same run, and mail; the load
# average before and after, and a summary of the ratios.
bench:
	deploy/install-deps.sh bench
	$(MAKE) build
	tests/bench.sh $(BUILD)

# The engine and its tests with no third-party library at all (no find_package of any).
engine-only:
	deploy/install-deps.sh toolchain
	@test -f $(ENGINE_BUILD)/CMakeCache.txt || \
	  cmake -S . -B $(ENGINE_BUILD) -DPBEM_ENGINE_ONLY=ON $(CMAKE_ARGS)
	cmake --build $(ENGINE_BUILD) -j $(JOBS)
	ctest --test-dir $(ENGINE_BUILD) $(CTEST_FLAGS)

sanitize:
	@test -f $(ASAN_BUILD)/CMakeCache.txt || \
	  cmake -S . -B $(ASAN_BUILD) -DPBEM_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug $(CMAKE_ARGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  ctest --test-dir $(ASAN_BUILD) $(CTEST_FLAGS)

# The libFuzzer targets (tests/fuzz/), built with clang-14 + ASan + UBSan in their own build
# directory, each run for FUZZ_SECONDS one after the other: prints executions, exec/s and
# crashes per target (and the executions of all runs so far); fails on any crash.
fuzz: fuzz-build
	tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The issue-13 acceptance: rounds of FUZZ_SECONDS per target until every target has FUZZ_UNTIL
# (10 million) executions over all runs; resumable (totals and grown corpora stay in
# $(FUZZ_BUILD)/fuzz/). Hours: tests/fuzz/README.md gives the time per target.
fuzz-long: fuzz-build
	FUZZ_UNTIL=$(FUZZ_UNTIL) tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

.PHONY: fuzz-build
fuzz-build:
	deploy/install-deps.sh fuzz
	@test -f $(FUZZ_BUILD)/CMakeCache.txt || \
	  cmake -S . -B $(FUZZ_BUILD) -DPBEM_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-14 \
	    -DCMAKE_C_COMPILER=clang-14 -DPBEM_BUILD_BENCH=OFF $(CMAKE_ARGS)
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz

# gcc and clang must give byte-identical game results (bot games hashed turn by turn).
determinism: build
	@test -f $(CLANG_BUILD)/CMakeCache.txt || \
	  cmake -S . -B $(CLANG_BUILD) -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14 \
	    -DPBEM_BUILD_BENCH=OFF $(CMAKE_ARGS)
	cmake --build $(BUILD) -j $(JOBS) --target m42_soak
	cmake --build $(CLANG_BUILD) -j $(JOBS) --target pbem m42_soak
	tests/determinism/compare_compilers.sh $(BUILD)/bin/pbem $(CLANG_BUILD)/bin/pbem \
	  $(BUILD)/bin/m42_soak $(CLANG_BUILD)/bin/m42_soak

# Checks the formatting of every C++ file git knows (tracked, or new and not ignored).
format-check:
	@if command -v clang-format-14 >/dev/null 2>&1; then \
	  files=$$(git ls-files --cached --others --exclude-standard -- '*.h' '*.cc'); \
	  if [ -n "$$files" ]; then clang-format-14 --dry-run -Werror $$files || exit 1; fi; \
	  echo "format-check: $$(echo "$$files" | grep -c . || true) files clean"; \
	else \
	  echo "format-check: clang-format-14 not installed, skipped"; \
	fi

clean:
	rm -rf $(BUILD) $(ENGINE_BUILD) $(ASAN_BUILD) $(CLANG_BUILD) $(FUZZ_BUILD)
