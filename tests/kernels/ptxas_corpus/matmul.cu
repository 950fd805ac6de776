// Matrix multiplication variants (naive, shared tiled, templated tile, register-tiled SGEMM)
#include <cuda_runtime.h>

extern "C" __global__ void matmul_naive(const float* __restrict__ A, const float* __restrict__ B,
                                        float* __restrict__ C, int M, int N, int K)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}

#define TILE 16
extern "C" __global__ void matmul_tiled16(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ac = t * TILE + tx;
        int br = t * TILE + ty;
        As[ty][tx] = (row < M && ac < K) ? A[row * K + ac] : 0.0f;
        Bs[ty][tx] = (br < K && col < N) ? B[br * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
}

template <int BS, typename T>
__global__ void matmul_tile_t(const T* __restrict__ A, const T* __restrict__ B, T* __restrict__ C,
                              int wA, int wB, T alpha, T beta)
{
    __shared__ T As[BS][BS];
    __shared__ T Bs[BS][BS];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int aBegin = wA * BS * by;
    int aEnd = aBegin + wA - 1;
    int bBegin = BS * bx;
    T csub = 0;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += BS, b += BS * wB) {
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BS; ++k) csub += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    int c = wB * BS * by + BS * bx;
    C[c + wB * ty + tx] = alpha * csub + beta * C[c + wB * ty + tx];
}
template __global__ void matmul_tile_t<16, float>(const float*, const float*, float*, int, int, float, float);
template __global__ void matmul_tile_t<32, float>(const float*, const float*, float*, int, int, float, float);
template __global__ void matmul_tile_t<16, double>(const double*, const double*, double*, int, int, double, double);

// Register-tiled SGEMM: each thread computes TM x TN outputs. BM=BN=128, BK=8, 256 threads.
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_regtile(int M, int N, int K, float alpha, const float* __restrict__ A,
              const float* __restrict__ B, float beta, float* __restrict__ C)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int nthreads = (BM / TM) * (BN / TN);
    int tid = threadIdx.x;
    int tcol = tid % (BN / TN);
    int trow = tid / (BN / TN);
    const float* Ab = A + blockIdx.y * BM * K;
    const float* Bb = B + blockIdx.x * BN;
    float* Cb = C + blockIdx.y * BM * N + blockIdx.x * BN;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;
    float ra[TM], rb[TN];

    for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
        for (int l = tid; l < BM * BK; l += nthreads) {
            int r = l / BK, c = l % BK;
            As[c][r] = Ab[r * K + k0 + c];
        }
#pragma unroll
        for (int l = tid; l < BK * BN; l += nthreads) {
            int r = l / BN, c = l % BN;
            Bs[r][c] = Bb[(k0 + r) * N + c];
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
            for (int i = 0; i < TM; ++i) ra[i] = As[kk][trow * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j) rb[j] = Bs[kk][tcol * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            float* p = &Cb[(trow * TM + i) * N + tcol * TN + j];
            *p = alpha * acc[i][j] + beta * *p;
        }
}
template __global__ void sgemm_regtile<128, 128, 8, 8, 8>(int, int, int, float, const float*, const float*, float, float*);
template __global__ void sgemm_regtile<64, 64, 8, 4, 4>(int, int, int, float, const float*, const float*, float, float*);

// Occupancy-constrained variant: 8x8 micro-tile forced under 64 registers (256 threads, 4 blocks/SM) -> spills
extern "C" __global__ void __launch_bounds__(256, 4)
sgemm_8x8_occ4(int M, int N, int K, const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C)
{
    __shared__ float As[8][128];
    __shared__ float Bs[8][128];
    int tid = threadIdx.x, tr = tid / 16, tc = tid % 16;
    const float* Ab = A + blockIdx.y * 128 * K;
    const float* Bb = B + blockIdx.x * 128;
    float acc[8][8] = {};
    for (int k0 = 0; k0 < K; k0 += 8) {
        for (int l = tid; l < 1024; l += 256) {
            As[l % 8][l / 8] = Ab[(l / 8) * K + k0 + l % 8];
            Bs[l / 128][l % 128] = Bb[(k0 + l / 128) * N + l % 128];
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < 8; ++kk) {
            float a[8], b[8];
#pragma unroll
            for (int i = 0; i < 8; ++i) { a[i] = As[kk][tr * 8 + i]; b[i] = Bs[kk][tc * 8 + i]; }
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }
    float* Cb = C + (blockIdx.y * 128 + tr * 8) * N + blockIdx.x * 128 + tc * 8;
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) Cb[i * N + j] = acc[i][j];
}

// Double-precision register-tiled GEMM, 4x4 micro-tile per thread (16x16 threads, 64x64 block tile)
template <int TM, int TN>
__global__ void dgemm_regtile(int M, int N, int K, double alpha, const double* __restrict__ A,
                              const double* __restrict__ B, double beta, double* __restrict__ C)
{
    const int BK = 8;
    __shared__ double As[BK][16 * TM];
    __shared__ double Bs[BK][16 * TN];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
    int rowBase = blockIdx.y * 16 * TM, colBase = blockIdx.x * 16 * TN;
    double acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0;
    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int l = tid; l < BK * 16 * TM; l += 256) {
            int r = l / BK, c = l % BK;
            As[c][r] = (rowBase + r < M && k0 + c < K) ? A[(size_t)(rowBase + r) * K + k0 + c] : 0.0;
        }
        for (int l = tid; l < BK * 16 * TN; l += 256) {
            int r = l / (16 * TN), c = l % (16 * TN);
            Bs[r][c] = (k0 + r < K && colBase + c < N) ? B[(size_t)(k0 + r) * N + colBase + c] : 0.0;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            double a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = As[kk][ty * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j) b[j] = Bs[kk][tx * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            int r = rowBase + ty * TM + i, c = colBase + tx * TN + j;
            if (r < M && c < N) C[(size_t)r * N + c] = alpha * acc[i][j] + beta * C[(size_t)r * N + c];
        }
}
template __global__ void dgemm_regtile<4, 4>(int, int, int, double, const double*, const double*, double, double*);
