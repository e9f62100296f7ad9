/* curand.h — the simulator's cuRAND host API: generators that fill device
 * (or, from curandCreateGeneratorHost, host) memory with the numbers
 * NVIDIA's cuRAND gives for the same seed, offset and ordering. Work is
 * queued on the generator's stream, in order with the program's kernels
 * and copies, as cuRAND's kernels are.
 *
 * Generators: XORWOW (the default), MRG32k3a and Philox4_32_10, in the
 * default ordering (CURAND_ORDERING_PSEUDO_DEFAULT and _BEST, which cuRAND
 * documents as the same). Distributions: 32-bit integers, uniform, normal
 * and log-normal in float and double, Poisson. Not simulated (the call
 * returns the status cuRAND gives for a type it lacks, and the simulator
 * says so on stderr): MTGP32, MT19937, the Sobol quasi-random generators,
 * the other orderings. docs/simulator.md lists what differs. */
#ifndef GPULAB_SIM_CURAND_H
#define GPULAB_SIM_CURAND_H

#include "cuda_runtime_api.h"

#include "library_types.h"

#define CURAND_VER_MAJOR 10
#define CURAND_VER_MINOR 4
#define CURAND_VER_PATCH 0
#define CURAND_VER_BUILD 0
#define CURAND_VERSION (CURAND_VER_MAJOR * 1000 + CURAND_VER_MINOR * 100 + CURAND_VER_PATCH)

#define CURANDAPI

#ifdef __cplusplus
extern "C" {
#endif

typedef enum curandStatus {
    CURAND_STATUS_SUCCESS = 0,
    CURAND_STATUS_VERSION_MISMATCH = 100,
    CURAND_STATUS_NOT_INITIALIZED = 101,
    CURAND_STATUS_ALLOCATION_FAILED = 102,
    CURAND_STATUS_TYPE_ERROR = 103,
    CURAND_STATUS_OUT_OF_RANGE = 104,
    CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105,
    CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
    CURAND_STATUS_LAUNCH_FAILURE = 201,
    CURAND_STATUS_PREEXISTING_FAILURE = 202,
    CURAND_STATUS_INITIALIZATION_FAILED = 203,
    CURAND_STATUS_ARCH_MISMATCH = 204,
    CURAND_STATUS_INTERNAL_ERROR = 999
} curandStatus_t;

typedef enum curandRngType {
    CURAND_RNG_TEST = 0,
    CURAND_RNG_PSEUDO_DEFAULT = 100,
    CURAND_RNG_PSEUDO_XORWOW = 101,
    CURAND_RNG_PSEUDO_MRG32K3A = 121,
    CURAND_RNG_PSEUDO_MTGP32 = 141,
    CURAND_RNG_PSEUDO_MT19937 = 142,
    CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161,
    CURAND_RNG_QUASI_DEFAULT = 200,
    CURAND_RNG_QUASI_SOBOL32 = 201,
    CURAND_RNG_QUASI_SCRAMBLED_SOBOL32 = 202,
    CURAND_RNG_QUASI_SOBOL64 = 203,
    CURAND_RNG_QUASI_SCRAMBLED_SOBOL64 = 204
} curandRngType_t;

typedef enum curandOrdering {
    CURAND_ORDERING_PSEUDO_BEST = 100,
    CURAND_ORDERING_PSEUDO_DEFAULT = 101,
    CURAND_ORDERING_PSEUDO_SEEDED = 102,
    CURAND_ORDERING_PSEUDO_LEGACY = 103,
    CURAND_ORDERING_PSEUDO_DYNAMIC = 104,
    CURAND_ORDERING_QUASI_DEFAULT = 201
} curandOrdering_t;

typedef enum curandDirectionVectorSet {
    CURAND_DIRECTION_VECTORS_32_JOEKUO6 = 101,
    CURAND_SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6 = 102,
    CURAND_DIRECTION_VECTORS_64_JOEKUO6 = 103,
    CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6 = 104
} curandDirectionVectorSet_t;

typedef unsigned int curandDirectionVectors32_t[32];
typedef unsigned long long curandDirectionVectors64_t[64];

typedef struct curandGenerator_st *curandGenerator_t;

/* A Poisson distribution made by curandCreatePoissonDistribution (used by
 * the device API's curand_discrete). */
typedef struct curandDiscreteDistribution_st *curandDiscreteDistribution_t;

typedef enum curandMethod {
    CURAND_CHOOSE_BEST = 0,
    CURAND_ITR = 1,
    CURAND_KNUTH = 2,
    CURAND_HITR = 3,
    CURAND_M1 = 4,
    CURAND_M2 = 5,
    CURAND_BINARY_SEARCH = 6,
    CURAND_DISCRETE_GAUSS = 7,
    CURAND_REJECTION = 8,
    CURAND_DEVICE_API = 9,
    CURAND_FAST_REJECTION = 10,
    CURAND_3RD = 11,
    CURAND_DEFINITION = 12,
    CURAND_POISSON = 13
} curandMethod_t;

curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type);
curandStatus_t curandCreateGeneratorHost(curandGenerator_t *generator, curandRngType_t rng_type);
curandStatus_t curandDestroyGenerator(curandGenerator_t generator);
curandStatus_t curandGetVersion(int *version);
curandStatus_t curandGetProperty(libraryPropertyType type, int *value);
curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream);
curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator,
                                                  unsigned long long seed);
curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset);
curandStatus_t curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order);
curandStatus_t curandSetQuasiRandomGeneratorDimensions(curandGenerator_t generator,
                                                       unsigned int num_dimensions);
curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int *outputPtr, size_t num);
curandStatus_t curandGenerateLongLong(curandGenerator_t generator, unsigned long long *outputPtr,
                                      size_t num);
curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *outputPtr, size_t num);
curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double *outputPtr,
                                           size_t num);
curandStatus_t curandGenerateNormal(curandGenerator_t generator, float *outputPtr, size_t n,
                                    float mean, float stddev);
curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double *outputPtr, size_t n,
                                          double mean, double stddev);
curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float *outputPtr, size_t n,
                                       float mean, float stddev);
curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double *outputPtr,
                                             size_t n, double mean, double stddev);
curandStatus_t curandGeneratePoisson(curandGenerator_t generator, unsigned int *outputPtr, size_t n,
                                     double lambda);
curandStatus_t curandGenerateSeeds(curandGenerator_t generator);
curandStatus_t curandCreatePoissonDistribution(double lambda,
                                               curandDiscreteDistribution_t *discrete_distribution);
curandStatus_t curandDestroyDistribution(curandDiscreteDistribution_t discrete_distribution);
curandStatus_t curandGetDirectionVectors32(curandDirectionVectors32_t *vectors[],
                                           curandDirectionVectorSet_t set);
curandStatus_t curandGetDirectionVectors64(curandDirectionVectors64_t *vectors[],
                                           curandDirectionVectorSet_t set);

#ifdef __cplusplus
}
#endif

#endif
