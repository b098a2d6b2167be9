# Thin wrapper around CMake.  The real build lives in CMakeLists.txt.
#
#   make            configure into build/ (Release) and build
#   make test       check Debian deps, build, run ctest
#   make demo       build, lint the ISA, round-trip examples/demo.s, simulate
#                   examples/sim_demo.s with a trace
#   make asan       clang + ASan/UBSan build in build-asan/, run ctest
#   make tsan       clang + ThreadSanitizer build in build-tsan/, run the
#                   tests that use threads (TSAN_TESTS)
#   make clang|gcc  build with that compiler in build-<cc>/, run ctest
#   make valgrind   build, run the gisa program under valgrind memcheck on good
#                   and bad inputs of every subcommand (scripts/valgrind_cli.sh)
#   make fuzz       clang + libFuzzer build in build-fuzz/, run each harness
#                   for FUZZ_SECONDS (default 60)
#   make bench      build, run every benchmark
#   make docs       build, write the HTML reference manual of the shipped ISA
#                   into build/docs/ (open build/docs/index.html)
#   make install    build, install into PREFIX (default /usr/local; DESTDIR
#                   honoured): bin/gisa, lib/libgisa.so* and libgisa.a,
#                   include/gisa.h, lib/pkgconfig/gisa.pc, lib/cmake/gisa/,
#                   share/man/man1/gisa.1
#   make clean      remove all build directories

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

CMAKE        ?= cmake
CTEST        ?= ctest
JOBS         ?= 2
BUILD_TYPE   ?= Release
CLANG        ?= clang
GCC          ?= gcc
FUZZ_SECONDS ?= 60
PREFIX       ?= /usr/local

BUILD_DIRS := build build-asan build-tsan build-clang build-gcc build-fuzz

# $(call configure,<dir>,<extra cmake args>,<env prefix>)
# Configures only once; afterwards `cmake --build` re-runs CMake itself when
# CMakeLists.txt or a globbed directory changes.
define configure
	@if [ ! -f $(1)/CMakeCache.txt ]; then \
	  echo "$(3) $(CMAKE) -S . -B $(1) $(2)"; \
	  $(3) $(CMAKE) -S . -B $(1) $(2); \
	fi
endef

# $(call build,<dir>)
define build
	$(CMAKE) --build $(1) -j$(JOBS)
endef

# $(call ctest,<dir>)
define ctest
	$(CTEST) --test-dir $(1) --output-on-failure -j$(JOBS)
endef

.PHONY: all deps build test demo asan tsan clang gcc valgrind fuzz bench docs install clean

all: build

deps:
	./scripts/deps.sh

build: deps
	$(call configure,build,-DCMAKE_BUILD_TYPE=$(BUILD_TYPE))
	$(call build,build)

test:
	$(MAKE) --no-print-directory build
	$(call ctest,build)

demo: build
	./build/gisa lint
	./build/gisa doc FFMA_RRC
	./build/gisa as examples/demo.s -o - --format hex | ./build/gisa dis --format hex
	./build/gisa run examples/sim_demo.s --state examples/sim_demo.json --trace=- --out /dev/null

asan:
	$(call configure,build-asan,-DCMAKE_BUILD_TYPE=RelWithDebInfo -DGISA_SANITIZE=ON,CC=$(CLANG))
	$(call build,build-asan)
	ASAN_OPTIONS=detect_leaks=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(call ctest,build-asan)

# The tests (a ctest regex) that run threads: the many-thread test, and
# those that run gisa_sim_run with worker threads (test_sim_int,
# test_sim_state, `gisa run` in cli/gisa_run). The others are
# single-threaded, already run under ASan, and some take minutes under
# ThreadSanitizer (test_mufu, test_sim_fp*).
TSAN_TESTS ?= ^(test_threads|test_sim_int|test_sim_state|cli/gisa_run)$$
# A report fails the test at once (exit status 66). ThreadSanitizer of
# clang < 18 cannot start on kernels with more ASLR entropy (vm.mmap_rnd_bits
# > 28: "unexpected memory mapping"); the tests then run without ASLR.
tsan:
	$(call configure,build-tsan,-DCMAKE_BUILD_TYPE=RelWithDebInfo -DGISA_TSAN=ON -DGISA_BUILD_BENCH=OFF,CC=$(CLANG))
	$(call build,build-tsan)
	@echo 'int main(void) { return 0; }' | $(CLANG) -fsanitize=thread -x c - -o build-tsan/tsan-probe
	@norand=""; \
	if ! ./build-tsan/tsan-probe 2>/dev/null; then \
	  norand="setarch $$(uname -m) -R"; \
	  echo "tsan: the runtime cannot start with ASLR here; running the tests under '$$norand'"; \
	fi; \
	TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1$${TSAN_OPTIONS:+:$$TSAN_OPTIONS}" \
	$$norand $(CTEST) --test-dir build-tsan --output-on-failure -j$(JOBS) -R '$(TSAN_TESTS)'

clang:
	$(call configure,build-clang,-DCMAKE_BUILD_TYPE=$(BUILD_TYPE),CC=$(CLANG))
	$(call build,build-clang)
	$(call ctest,build-clang)

gcc:
	$(call configure,build-gcc,-DCMAKE_BUILD_TYPE=$(BUILD_TYPE),CC=$(GCC))
	$(call build,build-gcc)
	$(call ctest,build-gcc)

valgrind: build
	./scripts/valgrind_cli.sh build/gisa

# Each fuzz/<h>.c becomes build-fuzz/fuzz/<h>.  It runs on a scratch copy of
# fuzz/corpus/<h>/ (so the repo corpus is not polluted; new inputs are thrown
# away) with fuzz/<h>.dict if present and the libFuzzer options of
# fuzz/<h>.options (fuzz_docsem: a -max_len for long pseudo-code, above the
# default that the seeds' sizes give); crashes go to build-fuzz/artifacts/<h>/.
fuzz:
	$(call configure,build-fuzz,-DCMAKE_BUILD_TYPE=RelWithDebInfo -DGISA_FUZZ=ON,CC=$(CLANG))
	$(call build,build-fuzz)
	@for src in fuzz/*.c; do \
	  [ -e "$$src" ] || continue; \
	  h=$$(basename "$$src" .c); \
	  mkdir -p "fuzz/corpus/$$h" "build-fuzz/artifacts/$$h"; \
	  work=$$(mktemp -d "$${TMPDIR:-/tmp}/gisa-fuzz-$$h.XXXXXX"); \
	  cp -R "fuzz/corpus/$$h/." "$$work/"; \
	  dict=""; [ -f "fuzz/$$h.dict" ] && dict="-dict=fuzz/$$h.dict"; \
	  opts=""; [ -f "fuzz/$$h.options" ] && opts=$$(cat "fuzz/$$h.options"); \
	  echo "== fuzz $$h for $(FUZZ_SECONDS)s (corpus copy in $$work)"; \
	  rc=0; \
	  ./build-fuzz/fuzz/$$h -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix="build-fuzz/artifacts/$$h/" $$dict $$opts "$$work" || rc=$$?; \
	  rm -rf "$$work"; \
	  if [ $$rc -ne 0 ]; then echo "fuzz $$h failed (rc=$$rc), see build-fuzz/artifacts/$$h/" >&2; exit $$rc; fi; \
	done

bench: build
	@for src in bench/*.c; do \
	  [ -e "$$src" ] || continue; \
	  b=$$(basename "$$src" .c); \
	  echo "== bench $$b"; \
	  ./build/bench/$$b; \
	done

docs: build
	./build/gisa doc --html build/docs
	@echo "manual: build/docs/index.html"

# Installs what build/ holds (a Release build unless BUILD_TYPE says otherwise
# when build/ is first configured); `cmake --install` reads DESTDIR from the
# environment for staged installs.
install: build
	$(CMAKE) --install build --prefix "$(PREFIX)"

clean:
	rm -rf $(BUILD_DIRS)
