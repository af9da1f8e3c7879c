# The two commands: `make test` and `make bench`. Everything else is CMake underneath.
CMAKE ?= cmake
CC ?= cc
COMPILER := $(notdir $(CC))
JOBS ?= 2

.PHONY: all test bench clean

all:
	$(CMAKE) -S . -B build/release -DCMAKE_BUILD_TYPE=Release
	$(CMAKE) --build build/release -j $(JOBS)

# Debug build with address and undefined-behaviour sanitizers, then every test.
test:
	$(CMAKE) -S . -B build/test-$(COMPILER) -DCMAKE_BUILD_TYPE=Debug -DDOD_SANITIZE=address,undefined
	$(CMAKE) --build build/test-$(COMPILER) -j $(JOBS)
	cd build/test-$(COMPILER) && ctest --output-on-failure -j $(JOBS)

# Release build, then the whole benchmark suite (DOD_BENCH_QUICK=1 for a short run).
bench: all
	$(CMAKE) --build build/release --target bench

clean:
	rm -rf build
