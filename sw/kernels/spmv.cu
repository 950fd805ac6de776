// Sparse matrix-vector product y = A x, A in CSR form, one thread per row. Rows have different
// lengths, so the row loop diverges; __restrict__ const inputs let nvcc use ld.global.nc.

extern "C" __global__ void spmv_csr(int rows, const int* __restrict__ row_ptr,
                                    const int* __restrict__ col_idx, const float* __restrict__ vals,
                                    const float* __restrict__ x, float* __restrict__ y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.0f;
  for (int e = row_ptr[r]; e < row_ptr[r + 1]; ++e) acc += vals[e] * x[col_idx[e]];
  y[r] = acc;
}
