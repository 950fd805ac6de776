// Dense matrix-vector: row-major (warp per row with shuffle), column-major (thread per row), tiled transpose
#include <cuda_runtime.h>

template <int WARPS>
__global__ void sgemv_warp_row(int M, int N, float alpha, const float* __restrict__ A, const float* __restrict__ x,
                               float beta, float* __restrict__ y)
{
    int warp = blockIdx.x * WARPS + (threadIdx.x >> 5);
    int lane = threadIdx.x & 31;
    if (warp >= M) return;
    const float4* a4 = reinterpret_cast<const float4*>(A + (size_t)warp * N);
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float s = 0.0f;
    for (int j = lane; j < N / 4; j += 32) {
        float4 a = a4[j], b = x4[j];
        s += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    }
    for (int j = (N / 4) * 4 + lane; j < N; j += 32) s += A[(size_t)warp * N + j] * x[j];
#pragma unroll
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) y[warp] = alpha * s + beta * y[warp];
}
template __global__ void sgemv_warp_row<4>(int, int, float, const float*, const float*, float, float*);
template __global__ void sgemv_warp_row<8>(int, int, float, const float*, const float*, float, float*);

extern "C" __global__ void sgemv_colmajor(int M, int N, const float* __restrict__ A, int lda,
                                          const float* __restrict__ x, float* __restrict__ y)
{
    __shared__ float xs[256];
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    float acc0 = 0.f, acc1 = 0.f, acc2 = 0.f, acc3 = 0.f;
    for (int j0 = 0; j0 < N; j0 += 256) {
        __syncthreads();
        if (j0 + threadIdx.x < N) xs[threadIdx.x] = x[j0 + threadIdx.x];
        __syncthreads();
        int lim = min(256, N - j0);
        if (row < M) {
            int j = 0;
            for (; j + 3 < lim; j += 4) {
                acc0 += A[(size_t)(j0 + j) * lda + row] * xs[j];
                acc1 += A[(size_t)(j0 + j + 1) * lda + row] * xs[j + 1];
                acc2 += A[(size_t)(j0 + j + 2) * lda + row] * xs[j + 2];
                acc3 += A[(size_t)(j0 + j + 3) * lda + row] * xs[j + 3];
            }
            for (; j < lim; ++j) acc0 += A[(size_t)(j0 + j) * lda + row] * xs[j];
        }
    }
    if (row < M) y[row] = (acc0 + acc1) + (acc2 + acc3);
}

// Matrix transpose with padded shared tile (coalesced)
#define TDIM 32
#define BROWS 8
extern "C" __global__ void transposeCoalesced(float* __restrict__ odata, const float* __restrict__ idata, int width, int height)
{
    __shared__ float tile[TDIM][TDIM + 1];
    int x = blockIdx.x * TDIM + threadIdx.x;
    int y = blockIdx.y * TDIM + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TDIM; j += BROWS)
        if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TDIM + threadIdx.x;
    y = blockIdx.x * TDIM + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TDIM; j += BROWS)
        if (x < height && y + j < width) odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
