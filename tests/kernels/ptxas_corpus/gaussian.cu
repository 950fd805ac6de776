// Gaussian elimination (Fan1: multipliers, Fan2: row updates)
#include <cuda_runtime.h>

extern "C" __global__ void Fan1(float* m_cuda, float* a_cuda, int Size, int t)
{
    if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t) return;
    *(m_cuda + Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) =
        *(a_cuda + Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) / *(a_cuda + Size * t + t);
}

extern "C" __global__ void Fan2(float* m_cuda, float* a_cuda, float* b_cuda, int Size, int j1, int t)
{
    if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t) return;
    if (threadIdx.y + blockIdx.y * blockDim.y >= Size - t) return;
    int xidx = blockIdx.x * blockDim.x + threadIdx.x;
    int yidx = blockIdx.y * blockDim.y + threadIdx.y;
    a_cuda[Size * (xidx + 1 + t) + (yidx + t)] -= m_cuda[Size * (xidx + 1 + t) + t] * a_cuda[Size * t + (yidx + t)];
    if (yidx == 0) b_cuda[xidx + 1 + t] -= m_cuda[Size * (xidx + 1 + t) + (yidx + t)] * b_cuda[t];
}

// Partial pivoting: find argmax |a[i][t]| for i >= t via block reduction (double)
extern "C" __global__ void pivotSearch(const double* __restrict__ a, int n, int t, int* __restrict__ pivRow)
{
    __shared__ double sv[256];
    __shared__ int si[256];
    int tid = threadIdx.x;
    double best = -1.0;
    int bi = t;
    for (int i = t + tid; i < n; i += blockDim.x) {
        double v = fabs(a[(size_t)i * n + t]);
        if (v > best) { best = v; bi = i; }
    }
    sv[tid] = best; si[tid] = bi;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s && sv[tid + s] > sv[tid]) { sv[tid] = sv[tid + s]; si[tid] = si[tid + s]; }
        __syncthreads();
    }
    if (tid == 0) *pivRow = si[0];
}
