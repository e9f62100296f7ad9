// curand.cpp — what the simulator's cuRAND device API (curand_kernel.h)
// needs from the runtime: the skip-ahead powers of each generator's step
// matrix, computed once at first use, and the one-time note for Poisson
// numbers that are not cuRAND's. The host API is in curand_host.cpp.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include <curand_kernel.h>

#include "internal.hpp"

namespace
{

// ---------------------------------------------------------------------------
// XORWOW: the step is linear over GF(2) on the 160-bit xorshift part, so a
// skip of n numbers multiplies that part by M^n. jump_table(k) holds M^(2^k)
// as 20 byte tables (entry b of table j: the image of byte value b at byte j),
// so that one product is 20 lookups of five words.

constexpr int xorwow_powers = 67 + 64; // offsets up to 2^64, subsequences 2^67 apart

struct xorwow_table {
    uint32_t t[20][256][5];
};

void xorwow_step(uint32_t v[5])
{
    uint32_t t = v[0] ^ (v[0] >> 2);
    v[0] = v[1];
    v[1] = v[2];
    v[2] = v[3];
    v[3] = v[4];
    v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
}

// Columns of a 160 x 160 matrix: col[i] is the image of bit i.
using xorwow_matrix = std::vector<std::array<uint32_t, 5>>;

void matrix_apply(const xorwow_matrix &m, const uint32_t in[5], uint32_t out[5])
{
    uint32_t r[5] = { 0, 0, 0, 0, 0 };
    for (int i = 0; i < 160; i++)
        if (in[i / 32] >> (i % 32) & 1)
            for (int k = 0; k < 5; k++)
                r[k] ^= m[i][k];
    memcpy(out, r, sizeof r);
}

struct xorwow_jumps {
    std::vector<xorwow_matrix> powers; // M^(2^k)
    std::unique_ptr<xorwow_table> tables[xorwow_powers];
    std::once_flag made[xorwow_powers];
};

xorwow_jumps &xorwow()
{
    static xorwow_jumps *j = [] {
        xorwow_jumps *x = new xorwow_jumps;
        xorwow_matrix m(160);
        for (int i = 0; i < 160; i++) {
            uint32_t v[5] = { 0, 0, 0, 0, 0 };
            v[i / 32] = 1u << (i % 32);
            xorwow_step(v);
            memcpy(m[i].data(), v, sizeof v);
        }
        x->powers.push_back(m);
        for (int k = 1; k < xorwow_powers; k++) {
            const xorwow_matrix &p = x->powers.back();
            xorwow_matrix sq(160);
            for (int i = 0; i < 160; i++)
                matrix_apply(p, p[i].data(), sq[i].data());
            x->powers.push_back(std::move(sq));
        }
        return x;
    }();
    return *j;
}

const xorwow_table &xorwow_table_for(int k)
{
    xorwow_jumps &j = xorwow();
    std::call_once(j.made[k], [&j, k] {
        auto t = std::make_unique<xorwow_table>();
        const xorwow_matrix &m = j.powers[k];
        for (int byte = 0; byte < 20; byte++)
            for (int b = 0; b < 256; b++)
                for (int w = 0; w < 5; w++) {
                    uint32_t x = 0;
                    for (int bit = 0; bit < 8; bit++)
                        if (b >> bit & 1)
                            x ^= m[byte * 8 + bit][w];
                    t->t[byte][b][w] = x;
                }
        j.tables[k] = std::move(t);
    });
    return *j.tables[k];
}

// ---------------------------------------------------------------------------
// MRG32k3a: each component is a linear recurrence mod m on three words; a skip
// of e numbers multiplies by A^e. Powers A^(2^k) for k < 127 + 64.

constexpr uint64_t mrg_m1 = 4294967087ULL, mrg_m2 = 4294944443ULL;
constexpr int mrg_powers = 127 + 64;

struct mat3 {
    uint64_t a[3][3];
};

mat3 mat3_mul(const mat3 &x, const mat3 &y, uint64_t m)
{
    mat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            unsigned __int128 s = 0;
            for (int k = 0; k < 3; k++)
                s += (unsigned __int128)x.a[i][k] * y.a[k][j];
            r.a[i][j] = (uint64_t)(s % m);
        }
    return r;
}

void mat3_apply(const mat3 &x, unsigned int s[3], uint64_t m)
{
    uint64_t r[3];
    for (int i = 0; i < 3; i++) {
        unsigned __int128 t = 0;
        for (int k = 0; k < 3; k++)
            t += (unsigned __int128)x.a[i][k] * s[k];
        r[i] = (uint64_t)(t % m);
    }
    for (int i = 0; i < 3; i++)
        s[i] = (unsigned int)r[i];
}

struct mrg_jumps {
    mat3 p1[mrg_powers], p2[mrg_powers];
};

const mrg_jumps &mrg()
{
    static const mrg_jumps *j = [] {
        mrg_jumps *x = new mrg_jumps;
        x->p1[0] = mat3{ { { 0, 1, 0 }, { 0, 0, 1 }, { mrg_m1 - 810728, 1403580, 0 } } };
        x->p2[0] = mat3{ { { 0, 1, 0 }, { 0, 0, 1 }, { mrg_m2 - 1370589, 0, 527612 } } };
        for (int k = 1; k < mrg_powers; k++) {
            x->p1[k] = mat3_mul(x->p1[k - 1], x->p1[k - 1], mrg_m1);
            x->p2[k] = mat3_mul(x->p2[k - 1], x->p2[k - 1], mrg_m2);
        }
        return x;
    }();
    return *j;
}

} // namespace

extern "C" void gpulab_sim_curand_xorwow_jump(unsigned int v[5], unsigned long long n, int shift)
{
    for (int k = 0; n && k < 64 && shift + k < xorwow_powers; k++, n >>= 1) {
        if (!(n & 1))
            continue;
        const xorwow_table &t = xorwow_table_for(shift + k);
        uint32_t r[5] = { 0, 0, 0, 0, 0 };
        for (int byte = 0; byte < 20; byte++) {
            const uint32_t *e = t.t[byte][(v[byte / 4] >> (8 * (byte % 4))) & 0xff];
            for (int w = 0; w < 5; w++)
                r[w] ^= e[w];
        }
        memcpy(v, r, sizeof r);
    }
}

extern "C" void gpulab_sim_curand_mrg_jump(unsigned int s1[3], unsigned int s2[3],
                                           unsigned long long n, int shift)
{
    const mrg_jumps &j = mrg();
    for (int k = 0; n && k < 64 && shift + k < mrg_powers; k++, n >>= 1) {
        if (!(n & 1))
            continue;
        mat3_apply(j.p1[shift + k], s1, mrg_m1);
        mat3_apply(j.p2[shift + k], s2, mrg_m2);
    }
}

extern "C" void gpulab_sim_curand_poisson_note(double lambda)
{
    static std::atomic<bool> said{ false };
    if (!said.exchange(true))
        gpulab_sim::report("curand_poisson with lambda %g (between 64 and 4000): the simulator "
                           "draws from the Poisson distribution by inversion, so its numbers are "
                           "not the ones cuRAND's rejection method gives on a GPU",
                           lambda);
}
