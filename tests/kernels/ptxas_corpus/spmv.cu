// Sparse matrix-vector multiply: ELL (Parboil-style JDS/ELL), CSR scalar, CSR vector (templated)
#include <cuda_runtime.h>

extern "C" __global__ void spmv_ell(int num_rows, int max_nnz, const int* __restrict__ cols,
                                    const float* __restrict__ vals, const float* __restrict__ x, float* __restrict__ y)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < num_rows) {
        float dot = 0.0f;
        for (int n = 0; n < max_nnz; n++) {
            int col = cols[n * num_rows + row];
            float v = vals[n * num_rows + row];
            if (v != 0.0f) dot += v * __ldg(&x[col]);
        }
        y[row] += dot;
    }
}

extern "C" __global__ void spmv_csr_scalar(int num_rows, const int* __restrict__ ptr, const int* __restrict__ idx,
                                           const float* __restrict__ val, const float* __restrict__ x, float* __restrict__ y)
{
    for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < num_rows; row += gridDim.x * blockDim.x) {
        float dot = 0.0f;
        int beg = ptr[row], end = ptr[row + 1];
        for (int j = beg; j < end; j++) dot += val[j] * x[idx[j]];
        y[row] = dot;
    }
}

template <typename T, int THREADS_PER_ROW>
__global__ void spmv_csr_vector(int num_rows, const int* __restrict__ ptr, const int* __restrict__ idx,
                                const T* __restrict__ val, const T* __restrict__ x, T* __restrict__ y, T alpha, T beta)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & (THREADS_PER_ROW - 1);
    const int vec = tid / THREADS_PER_ROW;
    const int nvec = gridDim.x * blockDim.x / THREADS_PER_ROW;
    for (int row = vec; row < num_rows; row += nvec) {
        int beg = ptr[row], end = ptr[row + 1];
        T sum = 0;
        if (THREADS_PER_ROW == 32 && end - beg > 32) {
            int j = beg - (beg & (THREADS_PER_ROW - 1)) + lane;
            if (j >= beg && j < end) sum += val[j] * x[idx[j]];
            for (j += THREADS_PER_ROW; j < end; j += THREADS_PER_ROW) sum += val[j] * x[idx[j]];
        } else {
            for (int j = beg + lane; j < end; j += THREADS_PER_ROW) sum += val[j] * x[idx[j]];
        }
#pragma unroll
        for (int off = THREADS_PER_ROW / 2; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off, THREADS_PER_ROW);
        if (lane == 0) y[row] = alpha * sum + beta * y[row];
    }
}
template __global__ void spmv_csr_vector<float, 32>(int, const int*, const int*, const float*, const float*, float*, float, float);
template __global__ void spmv_csr_vector<float, 4>(int, const int*, const int*, const float*, const float*, float*, float, float);
template __global__ void spmv_csr_vector<double, 32>(int, const int*, const int*, const double*, const double*, double*, double, double);

// JDS format with permuted rows (Parboil spmv)
extern "C" __global__ void spmv_jds(float* dst_vector, const float* d_data, const int* d_index, const int* d_perm,
                                    const float* x_vec, const int dim, const int* jds_ptr_int, const int* sh_zcnt_int)
{
    int ix = blockIdx.x * blockDim.x + threadIdx.x;
    if (ix < dim) {
        float sum = 0.0f;
        int bound = sh_zcnt_int[ix / 32];
        for (int k = 0; k < bound; k++) {
            int j = jds_ptr_int[k] + ix;
            int in = d_index[j];
            float d = d_data[j];
            float t = x_vec[in];
            sum += d * t;
        }
        dst_vector[d_perm[ix]] = sum;
    }
}
