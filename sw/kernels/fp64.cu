// Double precision: DAXPY, a dot product with fma and a two-pass reduction, and the correctly
// rounded operations (add, mul, div, sqrt, fma, conversions) that a host can reproduce exactly.

extern "C" __global__ void daxpy(int n, double a, const double* x, double* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fma(a, x[i], y[i]);
}

// Per-block partial dot products: partial[b] = sum of x[i]*y[i] over block b's grid-stride share.
// Needs blockDim.x == 256.
extern "C" __global__ void ddot_partial(int n, const double* x, const double* y, double* partial) {
  __shared__ double s[256];
  unsigned t = threadIdx.x;
  double acc = 0.0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
    acc = fma(x[i], y[i], acc);
  s[t] = acc;
  __syncthreads();
  for (unsigned stride = 128; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}

// Sum of n doubles in one block of 256 threads, with 64-bit shuffles for the last warp.
extern "C" __global__ void dsum_final(const double* partial, int n, double* out) {
  __shared__ double s[256];
  unsigned t = threadIdx.x;
  double acc = 0.0;
  for (int i = t; i < n; i += blockDim.x) acc += partial[i];
  s[t] = acc;
  __syncthreads();
  for (unsigned stride = 128; stride >= 32; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t < 32) {
    acc = s[t];
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
    if (t == 0) out[0] = acc;
  }
}

// Correctly rounded operations, 10 results per element (see the test for the host side):
//   a+b, a*b, a/b, sqrt(|a|), fma(a,b,c), (double)(float)a, rn/rz/rd/ru of a as long long
// plus float results of the f64->f32 conversion in out_f.
extern "C" __global__ void dops(int n, const double* a, const double* b, const double* c,
                                double* out, float* out_f, long long* out_ll) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = a[i], y = b[i], z = c[i];
  out[i * 6 + 0] = __dadd_rn(x, y);
  out[i * 6 + 1] = __dmul_rn(x, y);
  out[i * 6 + 2] = x / y;
  out[i * 6 + 3] = sqrt(fabs(x));
  out[i * 6 + 4] = fma(x, y, z);
  out[i * 6 + 5] = (double)(float)x;
  out_f[i] = (float)x;
  out_ll[i * 4 + 0] = __double2ll_rn(x);
  out_ll[i * 4 + 1] = __double2ll_rz(x);
  out_ll[i * 4 + 2] = __double2ll_rd(x);
  out_ll[i * 4 + 3] = __double2ll_ru(x);
}
