// PolyBench-GPU style linear algebra kernels (ATAX, BICG, GESUMMV, MVT, 2MM, JACOBI2D, COVAR)
#include <cuda_runtime.h>
typedef float DATA_TYPE;

extern "C" __global__ void atax_kernel1(DATA_TYPE* A, DATA_TYPE* x, DATA_TYPE* tmp, int NX, int NY)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < NX) {
        tmp[i] = 0;
        for (int j = 0; j < NY; j++) tmp[i] += A[i * NY + j] * x[j];
    }
}

extern "C" __global__ void atax_kernel2(DATA_TYPE* A, DATA_TYPE* y, DATA_TYPE* tmp, int NX, int NY)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < NY) {
        y[j] = 0;
        for (int i = 0; i < NX; i++) y[j] += A[i * NY + j] * tmp[i];
    }
}

extern "C" __global__ void bicg_kernel1(DATA_TYPE* A, DATA_TYPE* r, DATA_TYPE* s, int NX, int NY)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < NY) {
        s[j] = 0.0f;
        for (int i = 0; i < NX; i++) s[j] += A[i * NY + j] * r[i];
    }
}

extern "C" __global__ void bicg_kernel2(DATA_TYPE* A, DATA_TYPE* p, DATA_TYPE* q, int NX, int NY)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < NX) {
        q[i] = 0.0f;
        for (int j = 0; j < NY; j++) q[i] += A[i * NY + j] * p[j];
    }
}

extern "C" __global__ void gesummv_kernel(DATA_TYPE* a, DATA_TYPE* b, DATA_TYPE* x, DATA_TYPE* y, DATA_TYPE* tmp,
                                          int N, DATA_TYPE alpha, DATA_TYPE beta)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        for (int j = 0; j < N; j++) {
            tmp[i] += a[i * N + j] * x[j];
            y[i] += b[i * N + j] * x[j];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
}

extern "C" __global__ void mm2_kernel1(DATA_TYPE* tmp, DATA_TYPE* A, DATA_TYPE* B, int NI, int NJ, int NK, DATA_TYPE alpha)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < NI && j < NJ) {
        tmp[i * NJ + j] = 0;
        for (int k = 0; k < NK; k++) tmp[i * NJ + j] += alpha * A[i * NK + k] * B[k * NJ + j];
    }
}

extern "C" __global__ void jacobi2d_kernel1(int n, DATA_TYPE* A, DATA_TYPE* B)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1)))
        B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + (j - 1)] + A[i * n + (1 + j)] + A[(1 + i) * n + j] + A[(i - 1) * n + j]);
}

extern "C" __global__ void jacobi2d_kernel2(int n, DATA_TYPE* A, DATA_TYPE* B)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) A[i * n + j] = B[i * n + j];
}

extern "C" __global__ void covar_mean_kernel(double* mean, const double* data, int M, int N, double float_n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if ((j >= 1) && (j < (M + 1))) {
        mean[j] = 0.0;
        for (int i = 1; i < (N + 1); i++) mean[j] += data[i * (M + 1) + j];
        mean[j] /= float_n;
    }
}

extern "C" __global__ void corr_std_kernel(double* mean, double* std, const double* data, double float_n, double eps, int M, int N)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if ((j >= 1) && (j < (M + 1))) {
        std[j] = 0.0;
        for (int i = 1; i < (N + 1); i++) std[j] += (data[i * (M + 1) + j] - mean[j]) * (data[i * (M + 1) + j] - mean[j]);
        std[j] /= float_n;
        std[j] = sqrt(std[j]);
        if (std[j] <= eps) std[j] = 1.0;
    }
}
