// Speckle-reducing anisotropic diffusion (two-phase)
#include <cuda_runtime.h>
#define BLOCK_SIZE 16

extern "C" __global__ void srad_cuda_1(float* E_C, float* W_C, float* N_C, float* S_C, float* J_cuda, float* C_cuda,
                                       int cols, int rows, float q0sqr)
{
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int index = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + tx;
    int index_n = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + tx - cols;
    int index_s = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * BLOCK_SIZE + tx;
    int index_w = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty - 1;
    int index_e = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + BLOCK_SIZE;
    float n, w, e, s, jc, g2, l, num, den, qsqr, c;
    __shared__ float temp[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float temp_result[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float north[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float south[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float east[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float west[BLOCK_SIZE][BLOCK_SIZE];
    north[ty][tx] = J_cuda[index_n];
    south[ty][tx] = J_cuda[index_s];
    if (by == 0) north[ty][tx] = J_cuda[BLOCK_SIZE * bx + tx];
    else if (by == gridDim.y - 1) south[ty][tx] = J_cuda[cols * BLOCK_SIZE * (gridDim.y - 1) + BLOCK_SIZE * bx + cols * (BLOCK_SIZE - 1) + tx];
    __syncthreads();
    west[ty][tx] = J_cuda[index_w];
    east[ty][tx] = J_cuda[index_e];
    if (bx == 0) west[ty][tx] = J_cuda[cols * BLOCK_SIZE * by + cols * ty];
    else if (bx == gridDim.x - 1) east[ty][tx] = J_cuda[cols * BLOCK_SIZE * by + BLOCK_SIZE * (gridDim.x - 1) + cols * ty + BLOCK_SIZE - 1];
    __syncthreads();
    temp[ty][tx] = J_cuda[index];
    __syncthreads();
    jc = temp[ty][tx];
    if (ty == 0 && tx == 0) { n = north[ty][tx] - jc; s = temp[ty + 1][tx] - jc; w = west[ty][tx] - jc; e = temp[ty][tx + 1] - jc; }
    else if (ty == 0 && tx == BLOCK_SIZE - 1) { n = north[ty][tx] - jc; s = temp[ty + 1][tx] - jc; w = temp[ty][tx - 1] - jc; e = east[ty][tx] - jc; }
    else if (ty == BLOCK_SIZE - 1 && tx == BLOCK_SIZE - 1) { n = temp[ty - 1][tx] - jc; s = south[ty][tx] - jc; w = temp[ty][tx - 1] - jc; e = east[ty][tx] - jc; }
    else if (ty == BLOCK_SIZE - 1 && tx == 0) { n = temp[ty - 1][tx] - jc; s = south[ty][tx] - jc; w = west[ty][tx] - jc; e = temp[ty][tx + 1] - jc; }
    else if (ty == 0) { n = north[ty][tx] - jc; s = temp[ty + 1][tx] - jc; w = temp[ty][tx - 1] - jc; e = temp[ty][tx + 1] - jc; }
    else if (tx == BLOCK_SIZE - 1) { n = temp[ty - 1][tx] - jc; s = temp[ty + 1][tx] - jc; w = temp[ty][tx - 1] - jc; e = east[ty][tx] - jc; }
    else if (ty == BLOCK_SIZE - 1) { n = temp[ty - 1][tx] - jc; s = south[ty][tx] - jc; w = temp[ty][tx - 1] - jc; e = temp[ty][tx + 1] - jc; }
    else if (tx == 0) { n = temp[ty - 1][tx] - jc; s = temp[ty + 1][tx] - jc; w = west[ty][tx] - jc; e = temp[ty][tx + 1] - jc; }
    else { n = temp[ty - 1][tx] - jc; s = temp[ty + 1][tx] - jc; w = temp[ty][tx - 1] - jc; e = temp[ty][tx + 1] - jc; }
    g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    l = (n + s + w + e) / jc;
    num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
    den = 1 + (.25f * l);
    qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
    c = 1.0f / (1.0f + den);
    if (c < 0) temp_result[ty][tx] = 0;
    else if (c > 1) temp_result[ty][tx] = 1;
    else temp_result[ty][tx] = c;
    __syncthreads();
    C_cuda[index] = temp_result[ty][tx];
    E_C[index] = e; W_C[index] = w; S_C[index] = s; N_C[index] = n;
}

extern "C" __global__ void srad_cuda_2(float* E_C, float* W_C, float* N_C, float* S_C, float* J_cuda, float* C_cuda,
                                       int cols, int rows, float lambda, float q0sqr)
{
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int index = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + tx;
    int index_s = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * BLOCK_SIZE + tx;
    int index_e = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx + cols * ty + BLOCK_SIZE;
    float cc, cn, cs, ce, cw, d_sum;
    __shared__ float south_c[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float east_c[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float c_cuda_temp[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float c_cuda_result[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float temp[BLOCK_SIZE][BLOCK_SIZE];
    temp[ty][tx] = J_cuda[index];
    __syncthreads();
    south_c[ty][tx] = C_cuda[index_s];
    if (by == gridDim.y - 1) south_c[ty][tx] = C_cuda[cols * BLOCK_SIZE * (gridDim.y - 1) + BLOCK_SIZE * bx + cols * (BLOCK_SIZE - 1) + tx];
    __syncthreads();
    east_c[ty][tx] = C_cuda[index_e];
    if (bx == gridDim.x - 1) east_c[ty][tx] = C_cuda[cols * BLOCK_SIZE * by + BLOCK_SIZE * (gridDim.x - 1) + cols * ty + BLOCK_SIZE - 1];
    __syncthreads();
    c_cuda_temp[ty][tx] = C_cuda[index];
    __syncthreads();
    cc = c_cuda_temp[ty][tx];
    if (ty == BLOCK_SIZE - 1 && tx == BLOCK_SIZE - 1) { cn = cc; cs = south_c[ty][tx]; cw = cc; ce = east_c[ty][tx]; }
    else if (tx == BLOCK_SIZE - 1) { cn = cc; cs = c_cuda_temp[ty + 1][tx]; cw = cc; ce = east_c[ty][tx]; }
    else if (ty == BLOCK_SIZE - 1) { cn = cc; cs = south_c[ty][tx]; cw = cc; ce = c_cuda_temp[ty][tx + 1]; }
    else { cn = cc; cs = c_cuda_temp[ty + 1][tx]; cw = cc; ce = c_cuda_temp[ty][tx + 1]; }
    d_sum = cn * N_C[index] + cs * S_C[index] + cw * W_C[index] + ce * E_C[index];
    c_cuda_result[ty][tx] = temp[ty][tx] + 0.25f * lambda * d_sum;
    __syncthreads();
    J_cuda[index] = c_cuda_result[ty][tx];
}

// Statistics reduction (sum and sum of squares) used to compute q0sqr
extern "C" __global__ void srad_reduce(const float* __restrict__ img, int n, float* sums)
{
    float s = 0.0f, s2 = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = expf(img[i] / 255.0f);
        s += v;
        s2 += v * v;
    }
    for (int o = 16; o; o >>= 1) {
        s += __shfl_xor_sync(0xffffffff, s, o);
        s2 += __shfl_xor_sync(0xffffffff, s2, o);
    }
    if ((threadIdx.x & 31) == 0) { atomicAdd(&sums[0], s); atomicAdd(&sums[1], s2); }
}
