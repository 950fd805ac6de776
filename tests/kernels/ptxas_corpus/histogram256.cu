// 256-bin histogram with per-warp shared sub-histograms and merge; also 64-bin packed-byte variant
#include <cuda_runtime.h>
#define HISTOGRAM256_BIN_COUNT 256
#define LOG2_WARP_SIZE 5
#define WARP_COUNT 6
#define HISTOGRAM256_THREADBLOCK_SIZE (WARP_COUNT << LOG2_WARP_SIZE)
#define HISTOGRAM256_THREADBLOCK_MEMORY (WARP_COUNT * HISTOGRAM256_BIN_COUNT)
#define MERGE_THREADBLOCK_SIZE 256

__device__ inline void addByte(unsigned int* s_WarpHist, unsigned int data) { atomicAdd(s_WarpHist + data, 1); }
__device__ inline void addWord(unsigned int* s_WarpHist, unsigned int data)
{
    addByte(s_WarpHist, (data >> 0) & 0xFFU);
    addByte(s_WarpHist, (data >> 8) & 0xFFU);
    addByte(s_WarpHist, (data >> 16) & 0xFFU);
    addByte(s_WarpHist, (data >> 24) & 0xFFU);
}

extern "C" __global__ void histogram256Kernel(unsigned int* d_PartialHistograms, const unsigned int* d_Data, unsigned int dataCount)
{
    __shared__ unsigned int s_Hist[HISTOGRAM256_THREADBLOCK_MEMORY];
    unsigned int* s_WarpHist = s_Hist + (threadIdx.x >> LOG2_WARP_SIZE) * HISTOGRAM256_BIN_COUNT;
#pragma unroll
    for (unsigned int i = 0; i < (HISTOGRAM256_THREADBLOCK_MEMORY / HISTOGRAM256_THREADBLOCK_SIZE); i++)
        s_Hist[threadIdx.x + i * HISTOGRAM256_THREADBLOCK_SIZE] = 0;
    __syncthreads();
    for (unsigned int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < dataCount; pos += blockDim.x * gridDim.x)
        addWord(s_WarpHist, d_Data[pos]);
    __syncthreads();
    for (unsigned int bin = threadIdx.x; bin < HISTOGRAM256_BIN_COUNT; bin += HISTOGRAM256_THREADBLOCK_SIZE) {
        unsigned int sum = 0;
        for (unsigned int i = 0; i < WARP_COUNT; i++) sum += s_Hist[bin + i * HISTOGRAM256_BIN_COUNT];
        d_PartialHistograms[blockIdx.x * HISTOGRAM256_BIN_COUNT + bin] = sum;
    }
}

extern "C" __global__ void mergeHistogram256Kernel(unsigned int* d_Histogram, unsigned int* d_PartialHistograms, unsigned int histogramCount)
{
    unsigned int sum = 0;
    for (unsigned int i = threadIdx.x; i < histogramCount; i += MERGE_THREADBLOCK_SIZE)
        sum += d_PartialHistograms[blockIdx.x + i * HISTOGRAM256_BIN_COUNT];
    __shared__ unsigned int data[MERGE_THREADBLOCK_SIZE];
    data[threadIdx.x] = sum;
    for (unsigned int stride = MERGE_THREADBLOCK_SIZE / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (threadIdx.x < stride) data[threadIdx.x] += data[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) d_Histogram[blockIdx.x] = data[0];
}

// Float histogram with arbitrary range and bin computation (division), global atomics
extern "C" __global__ void histogramRange(const float* __restrict__ in, int n, float lo, float hi, int nbins,
                                          unsigned int* __restrict__ bins)
{
    extern __shared__ unsigned int sb[];
    for (int i = threadIdx.x; i < nbins; i += blockDim.x) sb[i] = 0;
    __syncthreads();
    float scale = nbins / (hi - lo);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = in[i];
        if (v < lo || v >= hi) continue;
        int b = (int)((v - lo) * scale);
        b = min(b, nbins - 1);
        atomicAdd(&sb[b], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < nbins; i += blockDim.x)
        if (sb[i]) atomicAdd(&bins[i], sb[i]);
}
