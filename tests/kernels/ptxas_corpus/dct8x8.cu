// 8x8 DCT / IDCT on image blocks, shared memory, butterfly implementation
#include <cuda_runtime.h>

#define BLOCK_SIZE 8
#define C_a 1.387039845322148f
#define C_b 1.306562964876377f
#define C_c 1.175875602419359f
#define C_d 0.785694958387102f
#define C_e 0.541196100146197f
#define C_f 0.275899379282943f
#define C_norm 0.3535533905932737f

__device__ void dct_vector(float* v, int stride)
{
    float X07P = v[0 * stride] + v[7 * stride];
    float X16P = v[1 * stride] + v[6 * stride];
    float X25P = v[2 * stride] + v[5 * stride];
    float X34P = v[3 * stride] + v[4 * stride];
    float X07M = v[0 * stride] - v[7 * stride];
    float X61M = v[6 * stride] - v[1 * stride];
    float X25M = v[2 * stride] - v[5 * stride];
    float X43M = v[4 * stride] - v[3 * stride];
    float X07P34PP = X07P + X34P;
    float X07P34PM = X07P - X34P;
    float X16P25PP = X16P + X25P;
    float X16P25PM = X16P - X25P;
    v[0 * stride] = C_norm * (X07P34PP + X16P25PP);
    v[2 * stride] = C_norm * (C_b * X07P34PM + C_e * X16P25PM);
    v[4 * stride] = C_norm * (X07P34PP - X16P25PP);
    v[6 * stride] = C_norm * (C_e * X07P34PM - C_b * X16P25PM);
    v[1 * stride] = C_norm * (C_a * X07M - C_c * X61M + C_d * X25M - C_f * X43M);
    v[3 * stride] = C_norm * (C_c * X07M + C_f * X61M - C_a * X25M + C_d * X43M);
    v[5 * stride] = C_norm * (C_d * X07M + C_a * X61M + C_f * X25M - C_c * X43M);
    v[7 * stride] = C_norm * (C_f * X07M + C_d * X61M + C_c * X25M + C_a * X43M);
}

__device__ void idct_vector(float* v, int stride)
{
    float Y04P = v[0 * stride] + v[4 * stride];
    float Y2b6eP = C_b * v[2 * stride] + C_e * v[6 * stride];
    float Y04P2b6ePP = Y04P + Y2b6eP;
    float Y04P2b6ePM = Y04P - Y2b6eP;
    float Y7f1aP3c5dPP = C_f * v[7 * stride] + C_a * v[1 * stride] + C_c * v[3 * stride] + C_d * v[5 * stride];
    float Y7a1fM3d5cMP = C_a * v[7 * stride] - C_f * v[1 * stride] + C_d * v[3 * stride] - C_c * v[5 * stride];
    float Y04M = v[0 * stride] - v[4 * stride];
    float Y2e6bM = C_e * v[2 * stride] - C_b * v[6 * stride];
    float Y04M2e6bMP = Y04M + Y2e6bM;
    float Y04M2e6bMM = Y04M - Y2e6bM;
    float Y1c7dM3f5aPM = C_c * v[1 * stride] - C_d * v[7 * stride] - C_f * v[3 * stride] - C_a * v[5 * stride];
    float Y1d7cP3a5fMM = C_d * v[1 * stride] + C_c * v[7 * stride] - C_a * v[3 * stride] + C_f * v[5 * stride];
    v[0 * stride] = C_norm * (Y04P2b6ePP + Y7f1aP3c5dPP);
    v[7 * stride] = C_norm * (Y04P2b6ePP - Y7f1aP3c5dPP);
    v[4 * stride] = C_norm * (Y04P2b6ePM + Y7a1fM3d5cMP);
    v[3 * stride] = C_norm * (Y04P2b6ePM - Y7a1fM3d5cMP);
    v[1 * stride] = C_norm * (Y04M2e6bMP + Y1c7dM3f5aPM);
    v[5 * stride] = C_norm * (Y04M2e6bMM - Y1d7cP3a5fMM);
    v[2 * stride] = C_norm * (Y04M2e6bMM + Y1d7cP3a5fMM);
    v[6 * stride] = C_norm * (Y04M2e6bMP - Y1c7dM3f5aPM);
}

#define KER2_BLOCK_WIDTH 32
#define KER2_BLOCK_HEIGHT 16
#define KER2_SMEMBLOCK_STRIDE (KER2_BLOCK_WIDTH + 1)

extern "C" __global__ void CUDAkernel2DCT(float* dst, const float* src, int stride)
{
    __shared__ float block[KER2_BLOCK_HEIGHT * KER2_SMEMBLOCK_STRIDE];
    int OffsThreadInRow = threadIdx.y * BLOCK_SIZE + threadIdx.x;
    int OffsThreadInCol = threadIdx.z * BLOCK_SIZE;
    src += (blockIdx.y * KER2_BLOCK_HEIGHT + OffsThreadInCol) * stride + blockIdx.x * KER2_BLOCK_WIDTH + OffsThreadInRow;
    dst += (blockIdx.y * KER2_BLOCK_HEIGHT + OffsThreadInCol) * stride + blockIdx.x * KER2_BLOCK_WIDTH + OffsThreadInRow;
    float* bl_ptr = block + OffsThreadInCol * KER2_SMEMBLOCK_STRIDE + OffsThreadInRow;
#pragma unroll
    for (unsigned int i = 0; i < BLOCK_SIZE; i++) bl_ptr[i * KER2_SMEMBLOCK_STRIDE] = src[i * stride];
    __syncthreads();
    dct_vector(block + (OffsThreadInCol + threadIdx.x) * KER2_SMEMBLOCK_STRIDE + OffsThreadInRow - threadIdx.x, 1);
    __syncthreads();
    dct_vector(bl_ptr, KER2_SMEMBLOCK_STRIDE);
    __syncthreads();
#pragma unroll
    for (unsigned int i = 0; i < BLOCK_SIZE; i++) dst[i * stride] = bl_ptr[i * KER2_SMEMBLOCK_STRIDE];
}

extern "C" __global__ void CUDAkernel2IDCT(float* dst, const float* src, int stride)
{
    __shared__ float block[KER2_BLOCK_HEIGHT * KER2_SMEMBLOCK_STRIDE];
    int OffsThreadInRow = threadIdx.y * BLOCK_SIZE + threadIdx.x;
    int OffsThreadInCol = threadIdx.z * BLOCK_SIZE;
    src += (blockIdx.y * KER2_BLOCK_HEIGHT + OffsThreadInCol) * stride + blockIdx.x * KER2_BLOCK_WIDTH + OffsThreadInRow;
    dst += (blockIdx.y * KER2_BLOCK_HEIGHT + OffsThreadInCol) * stride + blockIdx.x * KER2_BLOCK_WIDTH + OffsThreadInRow;
    float* bl_ptr = block + OffsThreadInCol * KER2_SMEMBLOCK_STRIDE + OffsThreadInRow;
#pragma unroll
    for (unsigned int i = 0; i < BLOCK_SIZE; i++) bl_ptr[i * KER2_SMEMBLOCK_STRIDE] = src[i * stride];
    __syncthreads();
    idct_vector(block + (OffsThreadInCol + threadIdx.x) * KER2_SMEMBLOCK_STRIDE + OffsThreadInRow - threadIdx.x, 1);
    __syncthreads();
    idct_vector(bl_ptr, KER2_SMEMBLOCK_STRIDE);
    __syncthreads();
#pragma unroll
    for (unsigned int i = 0; i < BLOCK_SIZE; i++) dst[i * stride] = bl_ptr[i * KER2_SMEMBLOCK_STRIDE];
}

// Quantization with integer rounding
__constant__ short Q[64];
extern "C" __global__ void CUDAkernelQuantization(short* SrcDst, int Stride)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    int index = (blockIdx.y * BLOCK_SIZE + ty) * Stride + blockIdx.x * BLOCK_SIZE + tx;
    short curCoef = SrcDst[index];
    short curQuant = Q[ty * BLOCK_SIZE + tx];
    int sign = curCoef < 0 ? -1 : 1;
    int q = (sign * curCoef + (curQuant >> 1)) / curQuant;
    SrcDst[index] = (short)(sign * q * curQuant);
}
