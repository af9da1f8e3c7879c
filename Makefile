# The two commands: `make test` and `make bench`. Everything else is CMake underneath.
CMAKE ?= cmake
CC ?= cc
COMPILER := $(notdir $(CC))
JOBS ?= 2

.PHONY: all test bench clean

all:
	$(CMAKE) -S . -B build/release -DCMAKE_BUILD_TYPE=Release
	$(CMAKE) --build build/release -j $(JOBS)

# Debug build with address and undefined-behaviour sanitizers, then every test. An optional test
# that skips (its tool missing: scipy, Eigen, python3) prints "<test> skipped: <why>", which
# ctest does not show: those lines are repeated after its summary.
test:
	$(CMAKE) -S . -B build/test-$(COMPILER) -DCMAKE_BUILD_TYPE=Debug -DDOD_SANITIZE=address,undefined
	$(CMAKE) --build build/test-$(COMPILER) -j $(JOBS)
	@cd build/test-$(COMPILER) && { ctest --output-on-failure -j $(JOBS); status=$$?; \
	 grep -h -E '^[A-Za-z0-9_]+ skipped: ' Testing/Temporary/LastTest.log; exit $$status; }

# Release build, then every benchmark suite (DOD_BENCH_QUICK=1 for a short run). The build is
# quiet (its log is shown only when it fails) so that the run ends on bench_runner's summary.
BENCH_LOG := build/release/make-bench-build.log
bench:
	@mkdir -p build/release
	@echo "make bench: Release build (log: $(BENCH_LOG))"
	@{ $(CMAKE) -S . -B build/release -DCMAKE_BUILD_TYPE=Release && \
	   $(CMAKE) --build build/release -j $(JOBS); } > $(BENCH_LOG) 2>&1 || \
	 { cat $(BENCH_LOG); echo "make bench: the build failed"; exit 1; }
	@build/release/bench/bench_runner

clean:
	rm -rf build
