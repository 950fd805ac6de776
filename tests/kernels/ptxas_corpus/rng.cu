// Quasi/pseudo-random generators: Sobol direction-vector generator, LCG/xorwow streams, Box-Muller normal
#include <cuda_runtime.h>
#define n_directions 32
#define k_2powneg32 2.3283064E-10F

extern "C" __global__ void sobolGPU_kernel(unsigned n_vectors, unsigned n_dimensions, unsigned* d_directions, float* d_output)
{
    __shared__ unsigned int v[n_directions];
    d_directions = d_directions + n_directions * blockIdx.y;
    d_output = d_output + n_vectors * blockIdx.y;
    if (threadIdx.x < n_directions) v[threadIdx.x] = d_directions[threadIdx.x];
    __syncthreads();
    int i0 = threadIdx.x + blockIdx.x * blockDim.x;
    int stride = gridDim.x * blockDim.x;
    unsigned int g = i0 ^ (i0 >> 1);
    unsigned int X = 0;
    unsigned int mask;
    for (unsigned int k = 0; k < __ffs(stride) - 1; k++) {
        mask = -(g & 1);
        X ^= mask & v[k];
        g = g >> 1;
    }
    if (i0 < n_vectors) d_output[i0] = (float)X * k_2powneg32;
    unsigned int v_log2stridem1 = v[__ffs(stride) - 2];
    unsigned int v_stridemask = stride - 1;
    for (unsigned int i = i0 + stride; i < n_vectors; i += stride) {
        X ^= v_log2stridem1 ^ v[__ffs(~((i - stride) | v_stridemask)) - 1];
        d_output[i] = (float)X * k_2powneg32;
    }
}

struct XorwowState { unsigned int d, v[5]; };

__device__ inline unsigned int xorwow_next(XorwowState* s)
{
    unsigned int t = s->v[0] ^ (s->v[0] >> 2);
    s->v[0] = s->v[1]; s->v[1] = s->v[2]; s->v[2] = s->v[3]; s->v[3] = s->v[4];
    s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
    s->d += 362437;
    return s->v[4] + s->d;
}

extern "C" __global__ void xorwow_normal(XorwowState* states, float2* out, int nPerThread, float mean, float stddev)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    XorwowState s = states[tid];
    for (int i = 0; i < nPerThread; ++i) {
        float u1 = (xorwow_next(&s) + 1.0f) * k_2powneg32;
        float u2 = xorwow_next(&s) * k_2powneg32;
        float r = sqrtf(-2.0f * logf(u1));
        float sn, cs;
        sincospif(2.0f * u2, &sn, &cs);
        out[(size_t)i * gridDim.x * blockDim.x + tid] = make_float2(mean + stddev * r * cs, mean + stddev * r * sn);
    }
    states[tid] = s;
}

// 64-bit LCG with jump-ahead (modular exponentiation loop), producing doubles
__device__ inline unsigned long long lcg_skip(unsigned long long seed, unsigned long long n)
{
    unsigned long long a = 6364136223846793005ULL, c = 1442695040888963407ULL;
    unsigned long long accA = 1, accC = 0;
    while (n) {
        if (n & 1) { accA *= a; accC = accC * a + c; }
        c = (a + 1) * c;
        a *= a;
        n >>= 1;
    }
    return accA * seed + accC;
}

extern "C" __global__ void lcg64_uniform_double(double* out, unsigned long long seed, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int nthreads = gridDim.x * blockDim.x;
    int per = (n + nthreads - 1) / nthreads;
    unsigned long long s = lcg_skip(seed, (unsigned long long)tid * per);
    for (int k = 0; k < per; ++k) {
        int i = tid * per + k;
        if (i >= n) break;
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        out[i] = (s >> 11) * (1.0 / 9007199254740992.0);
    }
}

// Philox-like counter-based RNG (4x32, 7 rounds) into uniform floats
extern "C" __global__ void philox4x32_uniform(float4* __restrict__ out, unsigned int key0, unsigned int key1, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n4) return;
    unsigned int c0 = i, c1 = 0, c2 = 0xdeadbeef, c3 = 0;
    unsigned int k0 = key0, k1 = key1;
#pragma unroll
    for (int r = 0; r < 7; ++r) {
        unsigned int hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
        unsigned int hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
        c0 = hi1 ^ c1 ^ k0; c1 = lo1; c2 = hi0 ^ c3 ^ k1; c3 = lo0;
        k0 += 0x9E3779B9u; k1 += 0xBB67AE85u;
    }
    out[i] = make_float4(c0 * k_2powneg32, c1 * k_2powneg32, c2 * k_2powneg32, c3 * k_2powneg32);
}
