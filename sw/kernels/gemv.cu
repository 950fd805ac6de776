// Dense matrix-vector product with one thread per row: the threads of a warp read addresses a
// whole row apart, so each row's lines must stay in the L1 between iterations (how a cache
// indexes its sets decides whether they do: docs/sm.md).

// y = A * x, row-major N x N.
extern "C" __global__ void gemv_rows(int N, const float* A, const float* x, float* y) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < N; ++k) acc += A[(size_t)row * N + k] * x[k];
  y[row] = acc;
}
