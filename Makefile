# gpulab — the short commands. Everything here is a thin layer over CMake and
# CTest; see README.md and CONTRIBUTING.md.
#
#   make grade      install what is missing, build, and grade your labs/ on the
#                   best backend here (a table at the end);
#                   make grade LAB=lab03: build and grade one lab only
#   make lab03      build one lab's programs (every backend and variant); a
#                   program whose sources fail to compile is removed, never
#                   left behind to run old code
#   make            configure and build everything (build/)
#   make test       install what is missing, build (warnings are errors in the
#                   kit's code, never in your lab files), run the kit's CTest
#                   suite, build the docs; your own labs: their demos and make grade
#   make docs       the Doxygen documentation (build/docs/html/index.html)
#   make bench-sim  how fast the CPU simulator runs kernels, on one worker and every core
#   make model-check  on a machine with an NVIDIA GPU: every lab kernel, copy and
#                   cuBLAS call measured with CUDA events against the performance
#                   model, written to docs/model-validation-<profile>.md
#                   (docs/model-validation.md); without the cuda backend, the model alone
#   make handout    build/gpulab-handout.tar.gz: the kit as students get it
#   make data-cifar10  download the CIFAR-10 binary archive for lab 05, check its
#                   MD5 and unpack it (CIFAR10_DIR=DIR, default ~/.cache/gpulab/cifar10)
#   make deps       install the Debian/Ubuntu packages gpulab needs
#   make format     clang-format every C, CUDA and C++ file
#   make clean      remove build/
#
# Variables: BUILD (build directory), JOBS (parallel jobs), CMAKE_ARGS (extra
# configure arguments, e.g. CMAKE_ARGS=-DGPULAB_CUDA=OFF), CTEST_ARGS,
# GRADE_ARGS (e.g. GRADE_ARGS="--backend sim --json grades.json"), LAB (one lab),
# DOCS (empty: make test skips the docs), CC and CXX (the compilers of a new
# build directory: make test BUILD=build-clang CC=clang-14 CXX=clang++-14).

BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
CTEST_ARGS ?=
LAB ?=
DOCS ?= 1
# The labs: one per folder labs/NN_name/ (lab01 for labs/01_devices/).
LABS = $(foreach d,$(sort $(wildcard labs/[0-9][0-9]_*/CMakeLists.txt)),lab$(firstword $(subst _, ,$(word 2,$(subst /, ,$(d))))))

FORMAT_FILES = $(shell git ls-files '*.c' '*.h' '*.cu' '*.cuh' '*.cpp' '*.hpp' 2>/dev/null)

.PHONY: all build configure test grade docs deps deps-check format format-check clean bench-sim model-check handout data-cifar10 $(LABS)

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
	$(if $(DOCS),cmake --build $(BUILD) --target docs)

# A lab that does not compile must cost its points, not stop the grading:
# the build keeps going (-k), and the grader reports what was not built. The
# lab programs are relinked each time, so a stale one is never graded.
grade: deps
	cmake -S . -B $(BUILD) $(CMAKE_ARGS)
	rm -f $(BUILD)/bin/$(or $(LAB),*)-*-student $(BUILD)/bin/$(or $(LAB),*)-*-solution \
	  $(BUILD)/bin/$(or $(LAB),*)-*-student.check $(BUILD)/bin/$(or $(LAB),*)-*-solution.check
	cmake --build $(BUILD) -j $(JOBS) $(if $(LAB),--target $(LAB) gpulab-grade) -- -k || \
	  echo "make grade: some programs did not build (errors above); their checks score 0"
	$(BUILD)/bin/gpulab-grade --compare $(if $(LAB),--lab $(LAB)) $(GRADE_ARGS)

$(LABS): configure
	cmake --build $(BUILD) -j $(JOBS) --target $@

docs: configure
	cmake --build $(BUILD) --target docs

handout: configure
	cmake --build $(BUILD) --target handout

bench-sim: build
	cmake --build $(BUILD) --target run-bench-sim

model-check: configure
	cmake --build $(BUILD) -j $(JOBS) --target run-model-check

# Needs internet; without it the script says what to do, and lab 05 uses its
# synthetic set.
data-cifar10:
	labs/05_training/tools/fetch_cifar10.sh $(CIFAR10_DIR)

format:
	clang-format -i $(FORMAT_FILES)

format-check:
	clang-format --dry-run --Werror $(FORMAT_FILES)

clean:
	rm -rf $(BUILD)
