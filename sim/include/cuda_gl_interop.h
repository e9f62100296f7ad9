/* cuda_gl_interop.h — gpulab simulator stand-in: OpenGL interoperability is not simulated. This
 * file exists so that a program including it gets this message, not a confusing error from some
 * other CUDA installation's header. */
#ifndef GPULAB_SIM_ABSENT_CUDA_GL_INTEROP_H
#define GPULAB_SIM_ABSENT_CUDA_GL_INTEROP_H
#error                                                                                             \
    "gpulab-sim: OpenGL interoperability is not part of the CPU simulator (see docs/simulator.md); build this program with nvcc for a GPU"
#endif
