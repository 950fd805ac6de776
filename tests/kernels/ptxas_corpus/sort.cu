// Sorting: bitonic sort in shared memory, radix-sort 4-bit digit block pass, merge-path merge
#include <cuda_runtime.h>

__device__ inline void Comparator(unsigned int& keyA, unsigned int& valA, unsigned int& keyB, unsigned int& valB, unsigned int dir)
{
    unsigned int t;
    if ((keyA > keyB) == dir) {
        t = keyA; keyA = keyB; keyB = t;
        t = valA; valA = valB; valB = t;
    }
}

#define SHARED_SIZE_LIMIT 1024U
extern "C" __global__ void bitonicSortShared(unsigned int* d_DstKey, unsigned int* d_DstVal, unsigned int* d_SrcKey,
                                             unsigned int* d_SrcVal, unsigned int arrayLength, unsigned int dir)
{
    __shared__ unsigned int s_key[SHARED_SIZE_LIMIT];
    __shared__ unsigned int s_val[SHARED_SIZE_LIMIT];
    d_SrcKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_SrcVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_DstKey += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    d_DstVal += blockIdx.x * SHARED_SIZE_LIMIT + threadIdx.x;
    s_key[threadIdx.x + 0] = d_SrcKey[0];
    s_val[threadIdx.x + 0] = d_SrcVal[0];
    s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcKey[(SHARED_SIZE_LIMIT / 2)];
    s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)] = d_SrcVal[(SHARED_SIZE_LIMIT / 2)];
    for (unsigned int size = 2; size < arrayLength; size <<= 1) {
        unsigned int ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);
        for (unsigned int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned int pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], ddd);
        }
    }
    for (unsigned int stride = arrayLength / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        unsigned int pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
        Comparator(s_key[pos + 0], s_val[pos + 0], s_key[pos + stride], s_val[pos + stride], dir);
    }
    __syncthreads();
    d_DstKey[0] = s_key[threadIdx.x + 0];
    d_DstVal[0] = s_val[threadIdx.x + 0];
    d_DstKey[(SHARED_SIZE_LIMIT / 2)] = s_key[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
    d_DstVal[(SHARED_SIZE_LIMIT / 2)] = s_val[threadIdx.x + (SHARED_SIZE_LIMIT / 2)];
}

extern "C" __global__ void bitonicMergeGlobal(unsigned int* d_DstKey, unsigned int* d_DstVal, unsigned int* d_SrcKey,
                                              unsigned int* d_SrcVal, unsigned int arrayLength, unsigned int size,
                                              unsigned int stride, unsigned int dir)
{
    unsigned int global_comparatorI = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int comparatorI = global_comparatorI & (arrayLength / 2 - 1);
    unsigned int ddd = dir ^ ((comparatorI & (size / 2)) != 0);
    unsigned int pos = 2 * global_comparatorI - (global_comparatorI & (stride - 1));
    unsigned int keyA = d_SrcKey[pos + 0], valA = d_SrcVal[pos + 0];
    unsigned int keyB = d_SrcKey[pos + stride], valB = d_SrcVal[pos + stride];
    Comparator(keyA, valA, keyB, valB, ddd);
    d_DstKey[pos + 0] = keyA; d_DstVal[pos + 0] = valA;
    d_DstKey[pos + stride] = keyB; d_DstVal[pos + stride] = valB;
}

// One radix pass over a 4-bit digit: per-block digit histogram + local rank via warp ballots
template <int BLOCK>
__global__ void radixBlockHistogram(const unsigned int* __restrict__ keys, int n, int shift,
                                    unsigned int* __restrict__ blockHist, unsigned short* __restrict__ localRank)
{
    __shared__ unsigned int warpCounts[BLOCK / 32][16];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    if (lane < 16) warpCounts[wid][lane] = 0;
    __syncthreads();
    bool valid = i < n;
    unsigned int digit = valid ? (keys[i] >> shift) & 0xF : 16;
    unsigned int peers = __ballot_sync(0xffffffffu, valid);
#pragma unroll
    for (int b = 0; b < 4; ++b) {
        unsigned int bit = __ballot_sync(0xffffffffu, (digit >> b) & 1);
        peers &= ((digit >> b) & 1) ? bit : ~bit;
    }
    int rankInWarp = __popc(peers & ((1u << lane) - 1));
    if (valid && rankInWarp == 0) warpCounts[wid][digit] = __popc(peers);
    __syncthreads();
    if (threadIdx.x < 16) {
        unsigned int run = 0;
        for (int w = 0; w < BLOCK / 32; ++w) { unsigned int c = warpCounts[w][threadIdx.x]; warpCounts[w][threadIdx.x] = run; run += c; }
        blockHist[threadIdx.x * gridDim.x + blockIdx.x] = run;
    }
    __syncthreads();
    if (valid) localRank[i] = (unsigned short)(warpCounts[wid][digit] + rankInWarp);
}
template __global__ void radixBlockHistogram<256>(const unsigned int*, int, int, unsigned int*, unsigned short*);

// Merge path: each thread merges a fixed-size slice of two sorted arrays
__device__ int mergePathSearch(const int* a, int na, const int* b, int nb, int diag)
{
    int lo = max(0, diag - nb), hi = min(diag, na);
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        if (a[mid] <= b[diag - 1 - mid]) lo = mid + 1; else hi = mid;
    }
    return lo;
}

extern "C" __global__ void mergePathKernel(const int* __restrict__ a, int na, const int* __restrict__ b, int nb,
                                           int* __restrict__ out, int itemsPerThread)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int diag = min(t * itemsPerThread, na + nb);
    int diagEnd = min(diag + itemsPerThread, na + nb);
    int ai = mergePathSearch(a, na, b, nb, diag);
    int bi = diag - ai;
    for (int k = diag; k < diagEnd; ++k) {
        bool takeA = (bi >= nb) || (ai < na && a[ai] <= b[bi]);
        out[k] = takeA ? a[ai++] : b[bi++];
    }
}
