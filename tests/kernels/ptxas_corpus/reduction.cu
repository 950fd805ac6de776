// Parallel reductions: templated block-size tree reduction (completely unrolled), shuffle, double dot product
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <class T> struct SharedMemory {
    __device__ inline operator T*() { extern __shared__ int __smem[]; return (T*)__smem; }
};
template <> struct SharedMemory<double> {
    __device__ inline operator double*() { extern __shared__ double __smem_d[]; return (double*)__smem_d; }
};

template <class T, unsigned int blockSize, bool nIsPow2>
__global__ void reduce6(const T* __restrict__ g_idata, T* __restrict__ g_odata, unsigned int n)
{
    T* sdata = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int gridSize = blockSize * gridDim.x;
    T mySum = 0;
    if (nIsPow2) {
        unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x;
        gridSize = gridSize << 1;
        while (i < n) {
            mySum += g_idata[i];
            if ((i + blockSize) < n) mySum += g_idata[i + blockSize];
            i += gridSize;
        }
    } else {
        unsigned int i = blockIdx.x * blockSize + threadIdx.x;
        while (i < n) { mySum += g_idata[i]; i += gridSize; }
    }
    sdata[tid] = mySum;
    __syncthreads();
    if ((blockSize >= 512) && (tid < 256)) sdata[tid] = mySum = mySum + sdata[tid + 256];
    __syncthreads();
    if ((blockSize >= 256) && (tid < 128)) sdata[tid] = mySum = mySum + sdata[tid + 128];
    __syncthreads();
    if ((blockSize >= 128) && (tid < 64)) sdata[tid] = mySum = mySum + sdata[tid + 64];
    __syncthreads();
    if (tid < 32) {
        if (blockSize >= 64) mySum += sdata[tid + 32];
        for (int offset = warpSize / 2; offset > 0; offset /= 2) mySum += __shfl_down_sync(0xffffffff, mySum, offset);
    }
    if (tid == 0) g_odata[blockIdx.x] = mySum;
}
template __global__ void reduce6<int, 256, true>(const int*, int*, unsigned int);
template __global__ void reduce6<float, 512, false>(const float*, float*, unsigned int);
template __global__ void reduce6<double, 128, true>(const double*, double*, unsigned int);

// Cooperative-groups tile reduction with max + argmax
extern "C" __global__ void reduce_argmax_cg(const float* __restrict__ in, int n, float* outVal, int* outIdx)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    __shared__ float sv[32];
    __shared__ int si[32];
    float best = -INFINITY;
    int bi = -1;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = in[i];
        if (v > best) { best = v; bi = i; }
    }
    for (int o = tile.size() / 2; o > 0; o >>= 1) {
        float ov = tile.shfl_down(best, o);
        int oi = tile.shfl_down(bi, o);
        if (ov > best || (ov == best && oi < bi && oi >= 0)) { best = ov; bi = oi; }
    }
    if (tile.thread_rank() == 0) { sv[tile.meta_group_rank()] = best; si[tile.meta_group_rank()] = bi; }
    block.sync();
    if (tile.meta_group_rank() == 0) {
        best = tile.thread_rank() < tile.meta_group_size() ? sv[tile.thread_rank()] : -INFINITY;
        bi = tile.thread_rank() < tile.meta_group_size() ? si[tile.thread_rank()] : -1;
        for (int o = 16; o > 0; o >>= 1) {
            float ov = tile.shfl_down(best, o);
            int oi = tile.shfl_down(bi, o);
            if (ov > best) { best = ov; bi = oi; }
        }
        if (tile.thread_rank() == 0) { outVal[blockIdx.x] = best; outIdx[blockIdx.x] = bi; }
    }
}

// Double-precision dot product with atomicAdd(double)
extern "C" __global__ void ddot_atomic(const double* __restrict__ x, const double* __restrict__ y, int n, double* result)
{
    __shared__ double warpSums[32];
    double s = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) s = fma(x[i], y[i], s);
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0) warpSums[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
        s = (threadIdx.x < (blockDim.x + 31) / 32) ? warpSums[threadIdx.x] : 0.0;
        for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
        if (threadIdx.x == 0) atomicAdd(result, s);
    }
}
