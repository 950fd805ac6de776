// Monte Carlo option pricing with in-kernel RNG, Box-Muller, and warp-shuffle reduction
#include <cuda_runtime.h>

struct __align__(8) OptionValue { float Expected; float Confidence; };

__device__ inline unsigned int xorshift32(unsigned int& s)
{
    s ^= s << 13; s ^= s >> 17; s ^= s << 5; return s;
}
__device__ inline float u01(unsigned int& s) { return (xorshift32(s) >> 8) * (1.0f / 16777216.0f) + 1e-7f; }

__device__ inline float warpReduceSum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

template <int BLOCK>
__global__ void MonteCarloOneBlockPerOption(OptionValue* __restrict__ out, const float* __restrict__ S,
                                            const float* __restrict__ X, const float* __restrict__ T,
                                            float R, float V, int pathN, unsigned int seed)
{
    __shared__ float s_sum[BLOCK / 32];
    __shared__ float s_sum2[BLOCK / 32];
    const int opt = blockIdx.x;
    const float s0 = S[opt], x = X[opt], t = T[opt];
    const float MuByT = (R - 0.5f * V * V) * t;
    const float VBySqrtT = V * sqrtf(t);
    unsigned int st = seed ^ (opt * 9781u + threadIdx.x * 6271u + 1u);
    float sum = 0.0f, sum2 = 0.0f;
    for (int p = threadIdx.x; p < pathN; p += 2 * BLOCK) {
        float u1 = u01(st), u2 = u01(st);
        float r = sqrtf(-2.0f * logf(u1));
        float sn, cs;
        sincosf(6.28318530718f * u2, &sn, &cs);
        float z0 = r * cs, z1 = r * sn;
        float v0 = fmaxf(s0 * __expf(MuByT + VBySqrtT * z0) - x, 0.0f);
        float v1 = (p + BLOCK < pathN) ? fmaxf(s0 * __expf(MuByT + VBySqrtT * z1) - x, 0.0f) : 0.0f;
        sum += v0 + v1;
        sum2 += v0 * v0 + v1 * v1;
    }
    sum = warpReduceSum(sum);
    sum2 = warpReduceSum(sum2);
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    if (lane == 0) { s_sum[wid] = sum; s_sum2[wid] = sum2; }
    __syncthreads();
    if (wid == 0) {
        sum = lane < BLOCK / 32 ? s_sum[lane] : 0.0f;
        sum2 = lane < BLOCK / 32 ? s_sum2[lane] : 0.0f;
        sum = warpReduceSum(sum);
        sum2 = warpReduceSum(sum2);
        if (lane == 0) {
            float disc = expf(-R * t);
            float mean = sum / pathN;
            float stdDev = sqrtf(((float)pathN * sum2 - sum * sum) / ((float)pathN * (float)(pathN - 1)));
            out[opt].Expected = disc * mean;
            out[opt].Confidence = disc * 1.96f * stdDev / sqrtf((float)pathN);
        }
    }
}
template __global__ void MonteCarloOneBlockPerOption<256>(OptionValue*, const float*, const float*, const float*, float, float, int, unsigned int);
template __global__ void MonteCarloOneBlockPerOption<128>(OptionValue*, const float*, const float*, const float*, float, float, int, unsigned int);

// Monte Carlo estimation of pi with atomics
extern "C" __global__ void monteCarloPi(unsigned long long* hits, int samplesPerThread, unsigned int seed)
{
    unsigned int st = seed + 747796405u * (blockIdx.x * blockDim.x + threadIdx.x);
    unsigned int local = 0;
    for (int i = 0; i < samplesPerThread; ++i) {
        float x = u01(st), y = u01(st);
        local += (x * x + y * y <= 1.0f);
    }
    local = __reduce_add_sync(0xffffffffu, local);
    if ((threadIdx.x & 31) == 0) atomicAdd(hits, (unsigned long long)local);
}
