// Binomial option pricing: one block per option, shared-memory backward induction
#include <cuda_runtime.h>

#define NUM_STEPS 2048
#define CACHE_SIZE 256
#define CACHE_DELTA 32
#define CACHE_STEP (CACHE_SIZE - CACHE_DELTA)

struct OptionData {
    float S, X, vDt, puByDf, pdByDf;
};

__device__ inline float expiryCallValue(float S, float X, float vDt, int i)
{
    float d = S * expf(vDt * (2.0f * i - NUM_STEPS)) - X;
    return (d > 0.0f) ? d : 0.0f;
}

extern "C" __global__ void binomialOptionsKernel(const OptionData* __restrict__ opts, float* __restrict__ callValue)
{
    __shared__ float callA[CACHE_SIZE + 1];
    __shared__ float callB[CACHE_SIZE + 1];
    __shared__ float callBuf[NUM_STEPS + 16];

    const int tid = threadIdx.x;
    const float S = opts[blockIdx.x].S;
    const float X = opts[blockIdx.x].X;
    const float vDt = opts[blockIdx.x].vDt;
    const float puByDf = opts[blockIdx.x].puByDf;
    const float pdByDf = opts[blockIdx.x].pdByDf;

    for (int i = tid; i <= NUM_STEPS; i += CACHE_SIZE)
        callBuf[i] = expiryCallValue(S, X, vDt, i);

    for (int i = NUM_STEPS; i > 0; i -= CACHE_DELTA) {
        for (int c_base = 0; c_base < i; c_base += CACHE_STEP) {
            int c_start = min(CACHE_SIZE - 1, i - c_base);
            int c_end = c_start - CACHE_DELTA;
            __syncthreads();
            if (tid <= c_start) callA[tid] = callBuf[c_base + tid];
            for (int k = c_start - 1; k >= c_end;) {
                __syncthreads();
                callB[tid] = puByDf * callA[tid + 1] + pdByDf * callA[tid];
                k--;
                __syncthreads();
                callA[tid] = puByDf * callB[tid + 1] + pdByDf * callB[tid];
                k--;
            }
            __syncthreads();
            if (tid <= c_end) callBuf[c_base + tid] = callA[tid];
        }
    }
    if (tid == 0) callValue[blockIdx.x] = callA[0];
}

// Simple per-thread binomial tree in registers/local memory (small step count)
template <int STEPS>
__global__ void binomialPerThread(const float* S, const float* X, const float* T, float R, float V,
                                  float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float dt = T[i] / STEPS;
    float vdt = V * sqrtf(dt);
    float u = expf(vdt), d = 1.0f / u;
    float disc = expf(-R * dt);
    float pu = (expf(R * dt) - d) / (u - d);
    float pd = 1.0f - pu;
    float v[STEPS + 1];
#pragma unroll
    for (int j = 0; j <= STEPS; ++j) {
        float st = S[i] * powf(u, (float)(2 * j - STEPS));
        v[j] = fmaxf(st - X[i], 0.0f);
    }
#pragma unroll
    for (int s = STEPS; s > 0; --s)
#pragma unroll
        for (int j = 0; j < s; ++j) v[j] = disc * (pu * v[j + 1] + pd * v[j]);
    out[i] = v[0];
}
template __global__ void binomialPerThread<16>(const float*, const float*, const float*, float, float, float*, int);
