// curand_host.cpp — the simulator's cuRAND host API (curand.h): generators
// that fill device memory from their stream, or host memory at once.
//
// Results are laid out as cuRAND's kernels lay them out in the default
// ordering (measured against the CUDA toolkit's own host generators; the
// CTest sim-curand-reference compares every value). XORWOW and MRG32k3a deal
// results to a fixed number of streams in turn (4096 and 81920; stream t is
// subsequence t), each stream drawing the numbers a result needs from where
// it stands and keeping its place between calls. Philox4_32_10 counts in
// groups of four numbers over 65536 streams: group G is group G / T of
// stream G % T, and integer or float i of a call at offset O is number O + i.
// It is longer than 600 lines as one concern: the generator object, the
// layout of each generator's results and the calls that drive them.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include <curand_kernel.h>

#include "check.hpp"
#include "cublas_internal.hpp"
#include "internal.hpp"
#include "model.hpp"
#include "trace.hpp"

struct curandGenerator_st {
    curandRngType_t type = CURAND_RNG_PSEUDO_XORWOW;
    bool host = false; // curandCreateGeneratorHost: fills host memory, at once
    int device = 0;
    cudaStream_t stream = nullptr;
    unsigned long long seed = 0;
    unsigned long long offset = 0;
    curandOrdering_t ordering = CURAND_ORDERING_PSEUDO_DEFAULT;
    // XORWOW and MRG32k3a: where each of the generator's streams stands (empty:
    // as the offset says) and the stream the next call starts with.
    std::vector<unsigned long long> pos;
    unsigned start = 0;
};

namespace
{

using gpulab_sim::report;

// What a call asks for.
enum class kind {
    bits,
    uniform,
    uniform_double,
    normal,
    normal_double,
    log_normal,
    log_normal_double
};

struct request {
    kind k;
    void *out;
    size_t n;
    double mean, stddev;
};

// Where a generator's T streams stand: stream t at number pos[t] of its own
// sequence, the next result going to stream `start`.
struct streams {
    std::vector<unsigned long long> pos;
    unsigned start;
};

// The streams as a fresh generator at `offset` has them: the first offset
// numbers dealt out one to a stream in turn.
streams streams_at(unsigned long long offset, unsigned T)
{
    streams s{ std::vector<unsigned long long>(T), (unsigned)(offset % T) };
    for (unsigned t = 0; t < T; t++)
        s.pos[t] = offset / T + (t < offset % T ? 1 : 0);
    return s;
}

// Lays out `results` results, each made by unit(state, index) from one of
// the streams of generator type S, as the host API's kernels do: result u
// goes to stream (start + u) % T, which draws the numbers it needs from where
// it stands.
template <typename S, typename Init, typename Unit>
void lay_out(unsigned long long seed, const streams &at, size_t results, Init init, Unit unit)
{
    unsigned T = (unsigned)at.pos.size();
    for (unsigned t = 0; t < T; t++) {
        unsigned long long q = (t + (unsigned long long)T - at.start) % T;
        if (q >= results)
            continue;
        S s;
        init(seed, (unsigned long long)t, &s);
        unit.skip(at.pos[t], &s);
        for (size_t u = q; u < results; u += T)
            unit(&s, u);
    }
}

// The streams after a call of `results` results of `per` numbers each.
void move_streams(streams *at, size_t results, unsigned per)
{
    unsigned T = (unsigned)at->pos.size();
    size_t rounds = results / T, rest = results % T;
    for (unsigned t = 0; t < T; t++) {
        unsigned long long q = (t + (unsigned long long)T - at->start) % T;
        at->pos[t] += per * (rounds + (q < rest ? 1 : 0));
    }
    at->start = (unsigned)((at->start + results) % T);
}

// Numbers of its stream one result takes: an integer, a float, an MRG32k3a
// double one; an XORWOW double two; a normal pair two (XORWOW's pair of
// doubles four).
unsigned numbers_per_result(curandRngType_t type, kind k)
{
    bool mrg = type == CURAND_RNG_PSEUDO_MRG32K3A;
    switch (k) {
    case kind::bits:
    case kind::uniform:
        return 1;
    case kind::uniform_double:
        return mrg ? 1 : 2;
    case kind::normal:
    case kind::log_normal:
        return 2;
    default:
        return mrg ? 2 : 4;
    }
}

bool pairs_of(kind k)
{
    return k == kind::normal || k == kind::log_normal || k == kind::normal_double ||
           k == kind::log_normal_double;
}

// Philox: groups of four numbers, group G being group G / T of stream G % T;
// result u of a call at group `first` starts at group first + u and takes
// the groups it needs one after another from its stream.
template <typename Init, typename Unit>
void lay_out_groups(unsigned long long seed, unsigned long long first, size_t results, unsigned T,
                    Init init, Unit unit)
{
    for (unsigned t = 0; t < T; t++) {
        unsigned long long q = (t + (unsigned long long)T - first % T) % T;
        if (q >= results)
            continue;
        curandStatePhilox4_32_10_t s;
        init(seed, (unsigned long long)t, &s);
        unit.skip((first + q) / T, &s);
        for (size_t u = q; u < results; u += T)
            unit(&s, u);
    }
}

template <typename T>
T scaled(kind k, T v, double mean, double stddev)
{
    switch (k) {
    case kind::normal:
    case kind::normal_double:
        return (T)(mean + stddev * v);
    case kind::log_normal:
        return (T)expf((float)(mean + stddev * v));
    case kind::log_normal_double:
        return (T)exp(mean + stddev * v);
    default:
        return v;
    }
}

// XORWOW and MRG32k3a: one stream number after another.
template <typename S>
struct scalar_unit {
    const request *r;
    void skip(unsigned long long numbers, S *s) const
    {
        skipahead(numbers, s);
    }
    void operator()(S *s, size_t u) const
    {
        const request &q = *r;
        switch (q.k) {
        case kind::bits:
            ((unsigned int *)q.out)[u] = curand(s);
            return;
        case kind::uniform:
            ((float *)q.out)[u] = curand_uniform(s);
            return;
        case kind::uniform_double:
            ((double *)q.out)[u] = curand_uniform_double(s);
            return;
        case kind::normal:
        case kind::log_normal: {
            float2 v = gpulab_curand::normal2(s);
            float *o = (float *)q.out + 2 * u;
            o[0] = scaled(q.k, v.x, q.mean, q.stddev);
            if (2 * u + 1 < q.n)
                o[1] = scaled(q.k, v.y, q.mean, q.stddev);
            return;
        }
        default: {
            double2 v = gpulab_curand::normal2_double(s);
            double *o = (double *)q.out + 2 * u;
            o[0] = scaled(q.k, v.x, q.mean, q.stddev);
            if (2 * u + 1 < q.n)
                o[1] = scaled(q.k, v.y, q.mean, q.stddev);
            return;
        }
        }
    }
};

// Philox4_32_10: one group of four numbers per result.
struct philox_unit {
    const request *r;
    size_t lead; // numbers of the first group before the offset (bits, uniform)
    void skip(unsigned long long groups, curandStatePhilox4_32_10_t *s) const
    {
        skipahead(4 * groups, s);
    }
    void operator()(curandStatePhilox4_32_10_t *s, size_t u) const
    {
        const request &q = *r;
        uint4 x = curand4(s);
        unsigned int w[4] = { x.x, x.y, x.z, x.w };
        switch (q.k) {
        case kind::bits:
        case kind::uniform:
            // Output i is number first + i of the sequence, whatever the
            // offset's place in its group of four.
            for (size_t j = 0; j < 4; j++) {
                size_t i = 4 * u + j;
                if (i < lead || i - lead >= q.n)
                    continue;
                if (q.k == kind::bits)
                    ((unsigned int *)q.out)[i - lead] = w[j];
                else
                    ((float *)q.out)[i - lead] = gpulab_curand::u32_to_float(w[j]);
            }
            return;
        case kind::normal:
        case kind::log_normal:
            for (size_t j = 0; j < 4 && 4 * u + j < q.n; j += 2) {
                float2 v = gpulab_curand::box_muller(w[j], w[j + 1]);
                float *o = (float *)q.out + 4 * u + j;
                o[0] = scaled(q.k, v.x, q.mean, q.stddev);
                if (4 * u + j + 1 < q.n)
                    o[1] = scaled(q.k, v.y, q.mean, q.stddev);
            }
            return;
        case kind::uniform_double:
            // Two groups, four doubles.
            for (int g = 0; g < 2; g++) {
                if (g == 1) {
                    x = curand4(s);
                    w[0] = x.x, w[1] = x.y, w[2] = x.z, w[3] = x.w;
                }
                for (size_t j = 0; j < 2 && 4 * u + 2 * g + j < q.n; j++)
                    ((double *)q.out)[4 * u + 2 * g + j] =
                        gpulab_curand::u53_to_double(w[2 * j], w[2 * j + 1]);
            }
            return;
        default:
            // Two groups, two pairs.
            for (int g = 0; g < 2; g++) {
                if (g == 1) {
                    x = curand4(s);
                    w[0] = x.x, w[1] = x.y, w[2] = x.z, w[3] = x.w;
                }
                double2 v = gpulab_curand::box_muller_double(w[0], w[1], w[2], w[3]);
                double *o = (double *)q.out + 4 * u + 2 * g;
                if (4 * u + 2 * g < q.n)
                    o[0] = scaled(q.k, v.x, q.mean, q.stddev);
                if (4 * u + 2 * g + 1 < q.n)
                    o[1] = scaled(q.k, v.y, q.mean, q.stddev);
            }
            return;
        }
    }
};

void xorwow_init(unsigned long long seed, unsigned long long t, curandStateXORWOW_t *s)
{
    curand_init(seed, t, 0, s);
}
void philox_init(unsigned long long seed, unsigned long long t, curandStatePhilox4_32_10_t *s)
{
    curand_init(seed, t, 0, s);
}
void mrg_init(unsigned long long seed, unsigned long long t, curandStateMRG32k3a_t *s)
{
    curand_init(seed, t, 0, s);
}

size_t output_size(kind k)
{
    switch (k) {
    case kind::uniform_double:
    case kind::normal_double:
    case kind::log_normal_double:
        return sizeof(double);
    default:
        return sizeof(float);
    }
}

// Fills r.out: Philox from number `first` of its sequence, XORWOW and
// MRG32k3a from their streams `at`.
void fill(curandRngType_t type, unsigned long long seed, unsigned long long first,
          const streams &at, const request &r)
{
    if (type == CURAND_RNG_PSEUDO_PHILOX4_32_10) {
        // A result: one group of four numbers (four integers, floats or
        // normals), or two groups (four doubles, or two pairs of normal doubles).
        bool dbl = r.k == kind::uniform_double || r.k == kind::normal_double ||
                   r.k == kind::log_normal_double;
        size_t lead = !dbl && (r.k == kind::bits || r.k == kind::uniform) ? first % 4 : 0;
        lay_out_groups(seed, first / 4, (lead + r.n + 3) / 4, 65536, philox_init,
                       philox_unit{ &r, lead });
        return;
    }
    size_t results = pairs_of(r.k) ? (r.n + 1) / 2 : r.n;
    if (type == CURAND_RNG_PSEUDO_MRG32K3A)
        lay_out<curandStateMRG32k3a_t>(seed, at, results, mrg_init,
                                       scalar_unit<curandStateMRG32k3a_t>{ &r });
    else
        lay_out<curandStateXORWOW_t>(seed, at, results, xorwow_init,
                                     scalar_unit<curandStateXORWOW_t>{ &r });
}

bool pseudo(curandRngType_t t)
{
    return t == CURAND_RNG_PSEUDO_XORWOW || t == CURAND_RNG_PSEUDO_MRG32K3A ||
           t == CURAND_RNG_PSEUDO_PHILOX4_32_10;
}

const char *type_name(curandRngType_t t)
{
    switch (t) {
    case CURAND_RNG_PSEUDO_MTGP32:
        return "MTGP32";
    case CURAND_RNG_PSEUDO_MT19937:
        return "MT19937";
    case CURAND_RNG_QUASI_DEFAULT:
    case CURAND_RNG_QUASI_SOBOL32:
        return "Sobol32";
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL32:
        return "scrambled Sobol32";
    case CURAND_RNG_QUASI_SOBOL64:
        return "Sobol64";
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL64:
        return "scrambled Sobol64";
    default:
        return "this";
    }
}

curandStatus_t create(curandGenerator_t *g, curandRngType_t type, bool host, const char *fn)
{
    if (!g)
        return CURAND_STATUS_NOT_INITIALIZED;
    if (type == CURAND_RNG_PSEUDO_DEFAULT)
        type = CURAND_RNG_PSEUDO_XORWOW;
    if (!pseudo(type)) {
        report("%s: the %s generator (curandRngType_t %d) is not part of the simulator, which has "
               "XORWOW, MRG32k3a and Philox4_32_10 (docs/simulator.md)",
               fn, type_name(type), (int)type);
        return CURAND_STATUS_TYPE_ERROR;
    }
    int d = 0;
    if (!host && gpulab_sim::enter(&d, fn) != cudaSuccess)
        return CURAND_STATUS_INITIALIZATION_FAILED;
    curandGenerator_st *gen = new curandGenerator_st;
    gen->type = type;
    gen->host = host;
    gen->device = d;
    *g = gen;
    return CURAND_STATUS_SUCCESS;
}

// Philox's normals and doubles from an offset that is not a multiple of four
// come out of cuRAND in a layout of its own, which the simulator does not
// reproduce: said once.
void philox_layout_note(const char *fn, unsigned long long offset)
{
    static std::atomic<bool> said{ false };
    if (!said.exchange(true))
        report("%s: the Philox generator's offset is %llu, not a multiple of 4; from such an "
               "offset cuRAND lays normal and double results out its own way, and the "
               "simulator's numbers (right in distribution) differ from a GPU's",
               fn, offset);
}

curandStatus_t generate(curandGenerator_t g, const request &r, const char *fn)
{
    gpulab_sim::trace_api api(fn);
    if (!g)
        return CURAND_STATUS_NOT_INITIALIZED;
    bool pairs = pairs_of(r.k);
    if (pairs && r.n % 2 != 0) {
        report("%s: n is %zu; normal results come in Box-Muller pairs, so n must be even", fn, r.n);
        return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
    }
    if (pairs && r.stddev <= 0 && r.k != kind::normal && r.k != kind::normal_double)
        return CURAND_STATUS_OUT_OF_RANGE;
    if (r.n == 0)
        return CURAND_STATUS_SUCCESS;
    unsigned long long first = g->offset;
    streams at;
    if (g->type == CURAND_RNG_PSEUDO_PHILOX4_32_10) {
        if ((pairs || r.k == kind::uniform_double) && first % 4 != 0)
            philox_layout_note(fn, first);
        g->offset += r.n;
    } else {
        if (g->pos.empty()) {
            streams fresh =
                streams_at(g->offset, g->type == CURAND_RNG_PSEUDO_MRG32K3A ? 81920 : 4096);
            g->pos = std::move(fresh.pos);
            g->start = fresh.start;
        }
        at = streams{ g->pos, g->start };
        streams next = at;
        move_streams(&next, pairs ? r.n / 2 : r.n, numbers_per_result(g->type, r.k));
        g->pos = std::move(next.pos);
        g->start = next.start;
    }
    curandRngType_t type = g->type;
    unsigned long long seed = g->seed;
    size_t bytes = r.n * output_size(r.k);
    if (g->host) {
        if (gpulab_sim::blas::device_only(r.out)) {
            report("%s: the output (%p) is device memory, but the generator comes from "
                   "curandCreateGeneratorHost and writes host memory",
                   fn, r.out);
            return CURAND_STATUS_LAUNCH_FAILURE;
        }
        fill(type, seed, first, at, r);
        return CURAND_STATUS_SUCCESS;
    }
    gpulab_sim::blas::call c{ fn, nullptr, -1, 0 };
    if (!gpulab_sim::stream_device(g->stream, &c.device)) {
        report("%s: the generator's stream (%p, from curandSetStream) is not a valid stream; was "
               "it destroyed?",
               fn, (void *)g->stream);
        return CURAND_STATUS_LAUNCH_FAILURE;
    }
    if (gpulab_sim::sticky(c.device) != cudaSuccess)
        return CURAND_STATUS_PREEXISTING_FAILURE;
    if (!gpulab_sim::blas::operand_ok(c, { "outputPtr", r.out, 0, bytes, false })) {
        if (gpulab_sim::enqueue(g->stream, fn, [] { return cudaErrorIllegalAddress; }) !=
            cudaSuccess)
            gpulab_sim::set_sticky(c.device, cudaErrorIllegalAddress);
        return CURAND_STATUS_LAUNCH_FAILURE;
    }
    cudaStream_t stream = g->stream;
    request q = r;
    auto where = std::make_shared<streams>(std::move(at));
    cudaError_t e =
        gpulab_sim::enqueue(stream, fn, [type, seed, first, where, q, bytes, stream, fn] {
            gpulab_sim::device_memory_batch_open();
            fill(type, seed, first, *where, q);
            if (gpulab_sim::check_tools() & gpulab_sim::CHECK_INIT)
                gpulab_sim::check_mark_init(q.out, bytes);
            // On a GPU: a kernel writing the results, a few operations per number.
            gpulab_sim::model_blas(stream, fn, 20.0 * (double)q.n, (double)bytes, (double)q.n);
            return cudaSuccess;
        });
    return e == cudaSuccess ? CURAND_STATUS_SUCCESS : CURAND_STATUS_LAUNCH_FAILURE;
}

curandStatus_t no_sobol(const char *fn)
{
    report("%s: the Sobol generators are not simulated (docs/simulator.md)", fn);
    return CURAND_STATUS_TYPE_ERROR;
}

} // namespace

extern "C" {

curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type)
{
    return create(generator, rng_type, false, __func__);
}

curandStatus_t curandCreateGeneratorHost(curandGenerator_t *generator, curandRngType_t rng_type)
{
    return create(generator, rng_type, true, __func__);
}

curandStatus_t curandDestroyGenerator(curandGenerator_t generator)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    if (!generator->host)
        gpulab_sim::stream_sync(generator->stream);
    delete generator;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGetVersion(int *version)
{
    if (!version)
        return CURAND_STATUS_OUT_OF_RANGE;
    *version = CURAND_VERSION;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGetProperty(libraryPropertyType type, int *value)
{
    if (!value)
        return CURAND_STATUS_OUT_OF_RANGE;
    switch (type) {
    case MAJOR_VERSION:
        *value = CURAND_VER_MAJOR;
        return CURAND_STATUS_SUCCESS;
    case MINOR_VERSION:
        *value = CURAND_VER_MINOR;
        return CURAND_STATUS_SUCCESS;
    case PATCH_LEVEL:
        *value = CURAND_VER_PATCH;
        return CURAND_STATUS_SUCCESS;
    }
    return CURAND_STATUS_OUT_OF_RANGE;
}

curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    generator->stream = stream;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator,
                                                  unsigned long long seed)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    generator->seed = seed;
    generator->offset = 0;
    generator->pos.clear();
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    generator->offset = offset;
    generator->pos.clear();
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    if (order == CURAND_ORDERING_PSEUDO_DEFAULT || order == CURAND_ORDERING_PSEUDO_BEST) {
        generator->ordering = order;
        return CURAND_STATUS_SUCCESS;
    }
    if (order == CURAND_ORDERING_QUASI_DEFAULT)
        return CURAND_STATUS_OUT_OF_RANGE;
    report("curandSetGeneratorOrdering: ordering %d is not simulated; the simulator lays results "
           "out in CURAND_ORDERING_PSEUDO_DEFAULT (docs/simulator.md)",
           (int)order);
    return CURAND_STATUS_OUT_OF_RANGE;
}

curandStatus_t curandSetQuasiRandomGeneratorDimensions(curandGenerator_t generator,
                                                       unsigned int num_dimensions)
{
    (void)num_dimensions;
    return generator ? CURAND_STATUS_TYPE_ERROR : CURAND_STATUS_NOT_INITIALIZED;
}

curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int *outputPtr, size_t num)
{
    return generate(generator, request{ kind::bits, outputPtr, num, 0, 0 }, __func__);
}

curandStatus_t curandGenerateLongLong(curandGenerator_t generator, unsigned long long *outputPtr,
                                      size_t num)
{
    (void)outputPtr;
    (void)num;
    return generator ? CURAND_STATUS_TYPE_ERROR : CURAND_STATUS_NOT_INITIALIZED;
}

curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *outputPtr, size_t num)
{
    return generate(generator, request{ kind::uniform, outputPtr, num, 0, 0 }, __func__);
}

curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double *outputPtr,
                                           size_t num)
{
    return generate(generator, request{ kind::uniform_double, outputPtr, num, 0, 0 }, __func__);
}

curandStatus_t curandGenerateNormal(curandGenerator_t generator, float *outputPtr, size_t n,
                                    float mean, float stddev)
{
    return generate(generator, request{ kind::normal, outputPtr, n, mean, stddev }, __func__);
}

curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double *outputPtr, size_t n,
                                          double mean, double stddev)
{
    return generate(generator, request{ kind::normal_double, outputPtr, n, mean, stddev },
                    __func__);
}

curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float *outputPtr, size_t n,
                                       float mean, float stddev)
{
    return generate(generator, request{ kind::log_normal, outputPtr, n, mean, stddev }, __func__);
}

curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double *outputPtr,
                                             size_t n, double mean, double stddev)
{
    return generate(generator, request{ kind::log_normal_double, outputPtr, n, mean, stddev },
                    __func__);
}

curandStatus_t curandGeneratePoisson(curandGenerator_t generator, unsigned int *outputPtr, size_t n,
                                     double lambda)
{
    (void)outputPtr;
    (void)n;
    (void)lambda;
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    report("curandGeneratePoisson is not simulated (its host-API method is cuRAND's own); "
           "curand_poisson in a kernel is (docs/simulator.md)");
    return CURAND_STATUS_TYPE_ERROR;
}

curandStatus_t curandGenerateSeeds(curandGenerator_t generator)
{
    return generator ? CURAND_STATUS_SUCCESS : CURAND_STATUS_NOT_INITIALIZED;
}

curandStatus_t curandCreatePoissonDistribution(double lambda,
                                               curandDiscreteDistribution_t *discrete_distribution)
{
    (void)lambda;
    (void)discrete_distribution;
    report("curandCreatePoissonDistribution is not simulated (docs/simulator.md)");
    return CURAND_STATUS_TYPE_ERROR;
}

curandStatus_t curandDestroyDistribution(curandDiscreteDistribution_t discrete_distribution)
{
    (void)discrete_distribution;
    return CURAND_STATUS_TYPE_ERROR;
}

curandStatus_t curandGetDirectionVectors32(curandDirectionVectors32_t *vectors[],
                                           curandDirectionVectorSet_t set)
{
    (void)vectors;
    (void)set;
    return no_sobol(__func__);
}

curandStatus_t curandGetDirectionVectors64(curandDirectionVectors64_t *vectors[],
                                           curandDirectionVectorSet_t set)
{
    (void)vectors;
    (void)set;
    return no_sobol(__func__);
}

} // extern "C"
