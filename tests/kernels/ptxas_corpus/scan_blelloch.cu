// Prefix sums: Blelloch work-efficient scan with bank-conflict padding, uniform add, warp-shuffle scan
#include <cuda_runtime.h>
#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

extern "C" __global__ void prescan_blelloch(float* g_odata, const float* g_idata, float* g_sums, int n)
{
    extern __shared__ float temp[];
    int thid = threadIdx.x;
    int blockOff = blockIdx.x * n;
    int ai = thid, bi = thid + (n / 2);
    int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
    int bankOffsetB = CONFLICT_FREE_OFFSET(bi);
    temp[ai + bankOffsetA] = g_idata[blockOff + ai];
    temp[bi + bankOffsetB] = g_idata[blockOff + bi];
    int offset = 1;
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (thid == 0) {
        int last = n - 1 + CONFLICT_FREE_OFFSET(n - 1);
        if (g_sums) g_sums[blockIdx.x] = temp[last];
        temp[last] = 0;
    }
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            float t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    g_odata[blockOff + ai] = temp[ai + bankOffsetA];
    g_odata[blockOff + bi] = temp[bi + bankOffsetB];
}

extern "C" __global__ void uniformAdd(float* g_data, const float* uniforms, int n, int blockOffset, int baseIndex)
{
    __shared__ float uni;
    if (threadIdx.x == 0) uni = uniforms[blockIdx.x + blockOffset];
    unsigned int address = __mul24(blockIdx.x, (blockDim.x << 1)) + baseIndex + threadIdx.x;
    __syncthreads();
    g_data[address] += uni;
    g_data[address + blockDim.x] += (threadIdx.x + blockDim.x < n) * uni;
}

// Inclusive block scan with warp shuffles, templated block size, 4 elements per thread
template <int BLOCK, typename T>
__global__ void scan_warp_shfl(const T* __restrict__ in, T* __restrict__ out, T* __restrict__ blockSums, int n)
{
    __shared__ T warpSums[BLOCK / 32];
    int base = (blockIdx.x * BLOCK + threadIdx.x) * 4;
    T v[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) v[i] = (base + i < n) ? in[base + i] : T(0);
#pragma unroll
    for (int i = 1; i < 4; ++i) v[i] += v[i - 1];
    T x = v[3];
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        T y = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o) x += y;
    }
    if (lane == 31) warpSums[wid] = x;
    __syncthreads();
    if (wid == 0) {
        T w = lane < BLOCK / 32 ? warpSums[lane] : T(0);
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            T y = __shfl_up_sync(0xffffffffu, w, o);
            if (lane >= o) w += y;
        }
        if (lane < BLOCK / 32) warpSums[lane] = w;
    }
    __syncthreads();
    T prefix = x - v[3] + (wid > 0 ? warpSums[wid - 1] : T(0));
#pragma unroll
    for (int i = 0; i < 4; ++i)
        if (base + i < n) out[base + i] = prefix + v[i];
    if (threadIdx.x == BLOCK - 1 && blockSums) blockSums[blockIdx.x] = prefix + v[3];
}
template __global__ void scan_warp_shfl<256, int>(const int*, int*, int*, int);
template __global__ void scan_warp_shfl<512, float>(const float*, float*, float*, int);

// Stream compaction using a precomputed exclusive scan of predicate flags
extern "C" __global__ void compact_scatter(const int* __restrict__ in, const int* __restrict__ flags,
                                           const int* __restrict__ scanned, int* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && flags[i]) out[scanned[i]] = in[i];
}
