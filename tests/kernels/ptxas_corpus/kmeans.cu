// K-means clustering: nearest-centroid assignment and centroid accumulation
#include <cuda_runtime.h>
#include <cfloat>

extern "C" __global__ void invert_mapping(float* input, float* output, int npoints, int nfeatures)
{
    int point_id = threadIdx.x + blockDim.x * blockIdx.x;
    if (point_id < npoints)
        for (int i = 0; i < nfeatures; i++) output[point_id + npoints * i] = input[point_id * nfeatures + i];
}

extern "C" __global__ void kmeansPoint(const float* __restrict__ features, const float* __restrict__ clusters,
                                       int nfeatures, int npoints, int nclusters, int* membership,
                                       int* __restrict__ delta)
{
    unsigned int point_id = blockIdx.x * blockDim.x + threadIdx.x;
    int index = -1;
    if (point_id < npoints) {
        float min_dist = FLT_MAX;
        for (int i = 0; i < nclusters; i++) {
            float dist = 0;
            for (int l = 0; l < nfeatures; l++) {
                float d = features[l * npoints + point_id] - clusters[i * nfeatures + l];
                dist += d * d;
            }
            if (dist < min_dist) { min_dist = dist; index = i; }
        }
        if (membership[point_id] != index) atomicAdd(delta, 1);
        membership[point_id] = index;
    }
}

template <int NF, int NC>
__global__ void kmeansPointFixed(const float* __restrict__ features, const float* __restrict__ clusters,
                                 int npoints, int* __restrict__ membership, float* __restrict__ newCenters,
                                 int* __restrict__ counts)
{
    __shared__ float sc[NC * NF];
    for (int i = threadIdx.x; i < NC * NF; i += blockDim.x) sc[i] = clusters[i];
    __syncthreads();
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints) return;
    float f[NF];
#pragma unroll
    for (int l = 0; l < NF; ++l) f[l] = features[l * npoints + p];
    float best = FLT_MAX;
    int bi = 0;
#pragma unroll 4
    for (int c = 0; c < NC; ++c) {
        float d = 0.0f;
#pragma unroll
        for (int l = 0; l < NF; ++l) { float t = f[l] - sc[c * NF + l]; d = fmaf(t, t, d); }
        if (d < best) { best = d; bi = c; }
    }
    membership[p] = bi;
    atomicAdd(&counts[bi], 1);
#pragma unroll
    for (int l = 0; l < NF; ++l) atomicAdd(&newCenters[bi * NF + l], f[l]);
}
template __global__ void kmeansPointFixed<34, 5>(const float*, const float*, int, int*, float*, int*);
template __global__ void kmeansPointFixed<8, 16>(const float*, const float*, int, int*, float*, int*);
