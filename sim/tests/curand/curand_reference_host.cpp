// curand_reference_host.cpp — curand_reference.cu built with the host
// compiler against the CUDA toolkit's cuRAND: the reference the simulator's
// cuRAND is compared with (CTest sim-curand-reference).
#define GPULAB_CURAND_REFERENCE 1
#include "curand_reference.cu"
