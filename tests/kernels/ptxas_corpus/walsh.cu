// Fast Walsh-Hadamard transform
#include <cuda_runtime.h>

extern "C" __global__ void fwtBatch1Kernel(float* d_Output, const float* d_Input, int log2N)
{
    extern __shared__ float s_data[];
    const int N = 1 << log2N;
    const int base = blockIdx.x << log2N;
    const float* d_Src = d_Input + base;
    float* d_Dst = d_Output + base;
    for (int pos = threadIdx.x; pos < N; pos += blockDim.x) s_data[pos] = d_Src[pos];

    int stride = N;
    for (; stride >= 4; stride >>= 2) {
        int lo = threadIdx.x & (stride / 4 - 1);
        int i0 = ((threadIdx.x - lo) << 2) + lo;
        int i1 = i0 + stride / 4, i2 = i1 + stride / 4, i3 = i2 + stride / 4;
        __syncthreads();
        float D0 = s_data[i0], D1 = s_data[i1], D2 = s_data[i2], D3 = s_data[i3];
        float T;
        T = D0; D0 = D0 + D2; D2 = T - D2;
        T = D1; D1 = D1 + D3; D3 = T - D3;
        T = D0; s_data[i0] = D0 + D1; s_data[i1] = T - D1;
        T = D2; s_data[i2] = D2 + D3; s_data[i3] = T - D3;
    }
    if (stride == 2) {
        int i0 = threadIdx.x << 1, i1 = i0 + 1;
        __syncthreads();
        float D0 = s_data[i0], D1 = s_data[i1];
        s_data[i0] = D0 + D1;
        s_data[i1] = D0 - D1;
    }
    __syncthreads();
    for (int pos = threadIdx.x; pos < N; pos += blockDim.x) d_Dst[pos] = s_data[pos];
}

extern "C" __global__ void fwtBatch2Kernel(float* d_Output, const float* d_Input, int stride)
{
    const int pos = blockIdx.x * blockDim.x + threadIdx.x;
    const int N = blockDim.x * gridDim.x * 4;
    const float* d_Src = d_Input + blockIdx.y * N;
    float* d_Dst = d_Output + blockIdx.y * N;
    int lo = pos & (stride - 1);
    int i0 = ((pos - lo) << 2) + lo;
    int i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
    float D0 = d_Src[i0], D1 = d_Src[i1], D2 = d_Src[i2], D3 = d_Src[i3];
    float T;
    T = D0; D0 = D0 + D2; D2 = T - D2;
    T = D1; D1 = D1 + D3; D3 = T - D3;
    T = D0; d_Dst[i0] = D0 + D1; d_Dst[i1] = T - D1;
    T = D2; d_Dst[i2] = D2 + D3; d_Dst[i3] = T - D3;
}

extern "C" __global__ void modulateKernel(float* d_A, const float* d_B, int N)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int numThreads = blockDim.x * gridDim.x;
    float rcpN = 1.0f / (float)N;
    for (int pos = tid; pos < N; pos += numThreads) d_A[pos] *= d_B[pos] * rcpN;
}
