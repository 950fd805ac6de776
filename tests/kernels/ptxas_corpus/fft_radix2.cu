// FFT: radix-2 Stockham global pass, radix-4 pass, shared-memory 1024-point block FFT with twiddles
#include <cuda_runtime.h>
#define PI_F 3.14159265358979323846f

__device__ inline float2 cmul(float2 a, float2 b) { return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
__device__ inline float2 cadd(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ inline float2 csub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }

extern "C" __global__ void fft_radix2_stockham(const float2* __restrict__ in, float2* __restrict__ out, int N, int Ns, int dir)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= N / 2) return;
    int k = j % Ns;
    float angle = dir * -2.0f * PI_F * k / (2 * Ns);
    float s, c;
    sincosf(angle, &s, &c);
    float2 a = in[j], b = in[j + N / 2];
    b = cmul(b, make_float2(c, s));
    int idxD = (j / Ns) * Ns * 2 + k;
    out[idxD] = cadd(a, b);
    out[idxD + Ns] = csub(a, b);
}

extern "C" __global__ void fft_radix4_pass(const float2* __restrict__ in, float2* __restrict__ out, int N, int Ns)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= N / 4) return;
    int k = j & (Ns - 1);
    float2 v[4];
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        float ang = -2.0f * PI_F * r * k / (4 * Ns);
        float s, c;
        __sincosf(ang, &s, &c);
        v[r] = cmul(in[j + r * N / 4], make_float2(c, s));
    }
    float2 t0 = cadd(v[0], v[2]), t1 = csub(v[0], v[2]);
    float2 t2 = cadd(v[1], v[3]), t3 = csub(v[1], v[3]);
    t3 = make_float2(t3.y, -t3.x);
    int idxD = (j - k) * 4 + k;
    out[idxD] = cadd(t0, t2);
    out[idxD + Ns] = cadd(t1, t3);
    out[idxD + 2 * Ns] = csub(t0, t2);
    out[idxD + 3 * Ns] = csub(t1, t3);
}

// Entire 1024-point FFT per block: each of 128 threads holds 8 points in registers (radix-8 stages)
__device__ inline void fft2(float2& a, float2& b) { float2 t = a; a = cadd(t, b); b = csub(t, b); }
__device__ inline void fft8(float2* a)
{
    const float r2 = 0.70710678118654752f;
    fft2(a[0], a[4]); fft2(a[1], a[5]); fft2(a[2], a[6]); fft2(a[3], a[7]);
    a[5] = make_float2((a[5].x + a[5].y) * r2, (a[5].y - a[5].x) * r2);
    a[6] = make_float2(a[6].y, -a[6].x);
    a[7] = make_float2((a[7].y - a[7].x) * r2, -(a[7].x + a[7].y) * r2);
    fft2(a[0], a[2]); fft2(a[1], a[3]); fft2(a[4], a[6]); fft2(a[5], a[7]);
    a[3] = make_float2(a[3].y, -a[3].x);
    a[7] = make_float2(a[7].y, -a[7].x);
    fft2(a[0], a[1]); fft2(a[2], a[3]); fft2(a[4], a[5]); fft2(a[6], a[7]);
}

extern "C" __global__ void __launch_bounds__(128) fft1024_shared(float2* work)
{
    __shared__ float smem[8 * 8 * 17];
    int tid = threadIdx.x;
    float2* w = work + blockIdx.x * 1024 + tid;
    float2 a[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) a[i] = w[i * 128];
    int Ns = 1;
#pragma unroll 1
    for (int stage = 0; stage < 3; ++stage) {
        int k = tid % Ns;
#pragma unroll
        for (int r = 1; r < 8; ++r) {
            float s, c;
            __sincosf(-2.0f * PI_F * r * k / (8 * Ns), &s, &c);
            a[r] = cmul(a[r], make_float2(c, s));
        }
        fft8(a);
        int idxD = (tid / Ns) * Ns * 8 + k;
        const int rev[8] = {0, 4, 2, 6, 1, 5, 3, 7};
        __syncthreads();
#pragma unroll
        for (int r = 0; r < 8; ++r) smem[(idxD + r * Ns) % (8 * 8 * 17)] = a[rev[r]].x;
        __syncthreads();
#pragma unroll
        for (int r = 0; r < 8; ++r) a[r].x = smem[(tid + r * 128) % (8 * 8 * 17)];
        __syncthreads();
#pragma unroll
        for (int r = 0; r < 8; ++r) smem[(idxD + r * Ns) % (8 * 8 * 17)] = a[rev[r]].y;
        __syncthreads();
#pragma unroll
        for (int r = 0; r < 8; ++r) a[r].y = smem[(tid + r * 128) % (8 * 8 * 17)];
        Ns *= 8;
    }
    // final radix-2 step to reach 1024 = 8*8*8*2
    int k = tid % 512;
#pragma unroll
    for (int r = 0; r < 4; ++r) {
        float s, c;
        __sincosf(-PI_F * (k + r) / 512.0f, &s, &c);
        a[r + 4] = cmul(a[r + 4], make_float2(c, s));
        fft2(a[r], a[r + 4]);
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) w[i * 128] = a[i];
}
