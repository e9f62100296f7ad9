# gpulab — the short commands. Everything here is a thin layer over CMake and
# CTest; see README.md and CONTRIBUTING.md.
#
#   make            configure and build everything (build/)
#   make test       install what is missing, build with warnings as errors,
#                   run the whole CTest suite, build the docs
#   make docs       the Doxygen documentation (build/docs/html/index.html)
#   make bench-sim  how fast the CPU simulator runs kernels, on one core
#   make deps       install the Debian/Ubuntu packages gpulab needs
#   make format     clang-format every C, CUDA and C++ file
#   make clean      remove build/
#
# Variables: BUILD (build directory), JOBS (parallel jobs), CMAKE_ARGS (extra
# configure arguments, e.g. CMAKE_ARGS=-DGPULAB_CUDA=OFF), CTEST_ARGS.

BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
CTEST_ARGS ?=

FORMAT_FILES = $(shell git ls-files '*.c' '*.h' '*.cu' '*.cuh' '*.cpp' '*.hpp' 2>/dev/null)

.PHONY: all build configure test docs deps deps-check format format-check clean bench-sim

all: build

deps-check:
	@cmake/deps.sh check

deps:
	@cmake/deps.sh install

configure: deps-check
	cmake -S . -B $(BUILD) $(CMAKE_ARGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: deps
	cmake -S . -B $(BUILD) -DGPULAB_WERROR=ON $(CMAKE_ARGS)
	cmake --build $(BUILD) -j $(JOBS)
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) $(CTEST_ARGS)
	cmake --build $(BUILD) --target docs

docs: configure
	cmake --build $(BUILD) --target docs

bench-sim: build
	cmake --build $(BUILD) --target run-bench-sim

format:
	clang-format -i $(FORMAT_FILES)

format-check:
	clang-format --dry-run --Werror $(FORMAT_FILES)

clean:
	rm -rf $(BUILD)
