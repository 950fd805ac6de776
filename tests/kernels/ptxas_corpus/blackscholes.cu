// Black-Scholes option pricing (float and double)
#include <cuda_runtime.h>

__device__ inline float cndf(float d)
{
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f,
                A4 = -1.821255978f, A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267794f;
    float K = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = RSQRT2PI * expf(-0.5f * d * d) *
              (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    if (d > 0) c = 1.0f - c;
    return c;
}

__device__ inline void bs_body(float& call, float& put, float S, float X, float T, float R, float V)
{
    float sqrtT = sqrtf(T);
    float d1 = (logf(S / X) + (R + 0.5f * V * V) * T) / (V * sqrtT);
    float d2 = d1 - V * sqrtT;
    float cnd1 = cndf(d1), cnd2 = cndf(d2);
    float expRT = expf(-R * T);
    call = S * cnd1 - X * expRT * cnd2;
    put = X * expRT * (1.0f - cnd2) - S * (1.0f - cnd1);
}

extern "C" __global__ void __launch_bounds__(128)
BlackScholesGPU(float2* __restrict__ call, float2* __restrict__ put, const float2* __restrict__ S,
                const float2* __restrict__ X, const float2* __restrict__ T, float R, float V, int n)
{
    int opt = blockDim.x * blockIdx.x + threadIdx.x;
    if (opt < n / 2) {
        float c1, p1, c2, p2;
        float2 s = S[opt], x = X[opt], t = T[opt];
        bs_body(c1, p1, s.x, x.x, t.x, R, V);
        bs_body(c2, p2, s.y, x.y, t.y, R, V);
        call[opt] = make_float2(c1, c2);
        put[opt] = make_float2(p1, p2);
    }
}

__device__ double cndd(double d)
{
    return 0.5 * erfc(-d * 0.70710678118654752440);
}

extern "C" __global__ void BlackScholesDouble(double* call, double* put, const double* S, const double* X,
                                              const double* T, double R, double V, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        double sqrtT = sqrt(T[i]);
        double d1 = (log(S[i] / X[i]) + (R + 0.5 * V * V) * T[i]) / (V * sqrtT);
        double d2 = d1 - V * sqrtT;
        double e = exp(-R * T[i]);
        call[i] = S[i] * cndd(d1) - X[i] * e * cndd(d2);
        put[i] = X[i] * e * cndd(-d2) - S[i] * cndd(-d1);
    }
}
