# Build the student's program.
NVCC ?= nvcc
#>>> SOLUTION
NVCCFLAGS = -O2 -lineinfo -arch=native
# === STUB
NVCCFLAGS = -O0 # TODO: optimize, and keep line info for the profiler
#  <<< END

vec_add: vec_add.cu
	$(NVCC) $(NVCCFLAGS) -o $@ $<
