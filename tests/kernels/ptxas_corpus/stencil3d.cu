// 3D 7-point stencils: naive, register-streaming along z with 2D shared tile, and 25-point (order 8)
#include <cuda_runtime.h>
#define Index3D(nx, ny, i, j, k) ((i) + (nx) * ((j) + (ny) * (k)))

extern "C" __global__ void block2D_hybrid_coarsen_x(float c0, float c1, float* A0, float* Anext, int nx, int ny, int nz)
{
    int i = blockIdx.x * blockDim.x * 2 + threadIdx.x;
    int i2 = i + blockDim.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    extern __shared__ float sh[];
    float* sh_A0 = sh;
    int tx = threadIdx.x + 1, ty = threadIdx.y + 1, tx2 = tx + blockDim.x;
    int bw = blockDim.x * 2 + 2;
    if (i <= 0 || i2 >= nx - 1 || j <= 0 || j >= ny - 1) return;
    float bottom = A0[Index3D(nx, ny, i, j, 0)], bottom2 = A0[Index3D(nx, ny, i2, j, 0)];
    float current = A0[Index3D(nx, ny, i, j, 1)], current2 = A0[Index3D(nx, ny, i2, j, 1)];
    float top, top2;
    for (int k = 1; k < nz - 1; k++) {
        top = A0[Index3D(nx, ny, i, j, k + 1)];
        top2 = A0[Index3D(nx, ny, i2, j, k + 1)];
        __syncthreads();
        sh_A0[tx + ty * bw] = current;
        sh_A0[tx2 + ty * bw] = current2;
        if (threadIdx.x == 0) sh_A0[ty * bw] = A0[Index3D(nx, ny, i - 1, j, k)];
        if (threadIdx.x == blockDim.x - 1) sh_A0[tx2 + 1 + ty * bw] = A0[Index3D(nx, ny, i2 + 1, j, k)];
        if (threadIdx.y == 0) {
            sh_A0[tx] = A0[Index3D(nx, ny, i, j - 1, k)];
            sh_A0[tx2] = A0[Index3D(nx, ny, i2, j - 1, k)];
        }
        if (threadIdx.y == blockDim.y - 1) {
            sh_A0[tx + (ty + 1) * bw] = A0[Index3D(nx, ny, i, j + 1, k)];
            sh_A0[tx2 + (ty + 1) * bw] = A0[Index3D(nx, ny, i2, j + 1, k)];
        }
        __syncthreads();
        Anext[Index3D(nx, ny, i, j, k)] = (top + bottom + sh_A0[tx - 1 + ty * bw] + sh_A0[tx + 1 + ty * bw] +
                                           sh_A0[tx + (ty - 1) * bw] + sh_A0[tx + (ty + 1) * bw]) * c1 - current * c0;
        Anext[Index3D(nx, ny, i2, j, k)] = (top2 + bottom2 + sh_A0[tx2 - 1 + ty * bw] + sh_A0[tx2 + 1 + ty * bw] +
                                            sh_A0[tx2 + (ty - 1) * bw] + sh_A0[tx2 + (ty + 1) * bw]) * c1 - current2 * c0;
        bottom = current; current = top;
        bottom2 = current2; current2 = top2;
    }
}

extern "C" __global__ void stencil7_naive(const float* __restrict__ in, float* __restrict__ out, int nx, int ny, int nz,
                                          float c0, float c1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int k = blockIdx.z * blockDim.z + threadIdx.z;
    if (i < 1 || j < 1 || k < 1 || i >= nx - 1 || j >= ny - 1 || k >= nz - 1) return;
    size_t c = Index3D((size_t)nx, (size_t)ny, i, j, k);
    size_t sxy = (size_t)nx * ny;
    out[c] = c0 * in[c] + c1 * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] + in[c - sxy] + in[c + sxy]);
}

// High-order (radius 4) stencil with register queue along z, templated tile dims
#define RADIUS 4
template <int BX, int BY>
__global__ void __launch_bounds__(BX * BY)
fdtd3d_order8(float* __restrict__ out, const float* __restrict__ in, int dimx, int dimy, int dimz)
{
    __shared__ float tile[BY + 2 * RADIUS][BX + 2 * RADIUS];
    const float coef[RADIUS + 1] = {-2.847222f, 1.6f, -0.2f, 0.0253968f, -0.0017857f};
    int gx = blockIdx.x * BX + threadIdx.x;
    int gy = blockIdx.y * BY + threadIdx.y;
    int stride_y = dimx + 2 * RADIUS;
    int stride_z = stride_y * (dimy + 2 * RADIUS);
    int inIdx = (gy + RADIUS) * stride_y + gx + RADIUS;
    int outIdx = inIdx;
    float infront[RADIUS], behind[RADIUS], current;
    int tx = threadIdx.x + RADIUS, ty = threadIdx.y + RADIUS;
#pragma unroll
    for (int i = RADIUS - 2; i >= 0; i--) { behind[i] = in[inIdx]; inIdx += stride_z; }
    current = in[inIdx];
    outIdx = inIdx;
    inIdx += stride_z;
#pragma unroll
    for (int i = 0; i < RADIUS; i++) { infront[i] = in[inIdx]; inIdx += stride_z; }
    for (int iz = 0; iz < dimz; iz++) {
#pragma unroll
        for (int i = RADIUS - 1; i > 0; i--) behind[i] = behind[i - 1];
        behind[0] = current;
        current = infront[0];
#pragma unroll
        for (int i = 0; i < RADIUS - 1; i++) infront[i] = infront[i + 1];
        infront[RADIUS - 1] = in[inIdx];
        inIdx += stride_z;
        outIdx += stride_z;
        __syncthreads();
        if (threadIdx.y < RADIUS) {
            tile[threadIdx.y][tx] = in[outIdx - RADIUS * stride_y];
            tile[threadIdx.y + BY + RADIUS][tx] = in[outIdx + BY * stride_y];
        }
        if (threadIdx.x < RADIUS) {
            tile[ty][threadIdx.x] = in[outIdx - RADIUS];
            tile[ty][threadIdx.x + BX + RADIUS] = in[outIdx + BX];
        }
        tile[ty][tx] = current;
        __syncthreads();
        float value = coef[0] * current;
#pragma unroll
        for (int i = 1; i <= RADIUS; i++)
            value += coef[i] * (infront[i - 1] + behind[i - 1] + tile[ty - i][tx] + tile[ty + i][tx] + tile[ty][tx - i] + tile[ty][tx + i]);
        if (gx < dimx && gy < dimy) out[outIdx] = value;
    }
}
template __global__ void fdtd3d_order8<32, 16>(float*, const float*, int, int, int);
template __global__ void fdtd3d_order8<32, 8>(float*, const float*, int, int, int);
