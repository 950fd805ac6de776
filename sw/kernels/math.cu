// Single-precision math: the full-precision library functions (polynomials, range reduction,
// a slow path with a local array for huge sine arguments), the fast intrinsics (.approx
// instructions), and classification.

// 8 results per element.
extern "C" __global__ void math_precise(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  float* o = out + i * 8;
  o[0] = sinf(x);
  o[1] = cosf(x);
  o[2] = expf(x);
  o[3] = logf(x);
  o[4] = sqrtf(x);
  o[5] = tanhf(x);
  o[6] = x / (x * x + 1.0f);  // IEEE division (div.rn.f32)
  o[7] = copysignf(2.5f, x);
}

// 7 results per element; a[] and b[] are chosen by the test within each intrinsic's documented
// accuracy range.
extern "C" __global__ void math_fast(const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i];
  float* o = out + i * 7;
  o[0] = __sinf(x);
  o[1] = __cosf(x);
  o[2] = __expf(x);
  o[3] = __logf(y);
  o[4] = __fdividef(x, y);
  o[5] = rsqrtf(y);
  o[6] = exp2f(x);
}

// Classification and NaN-aware min/max. 8 results per element.
extern "C" __global__ void math_classify(const float* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  int* o = out + i * 8;
  o[0] = isnan(x) ? 1 : 0;
  o[1] = isinf(x) ? 1 : 0;
  o[2] = isfinite(x) ? 1 : 0;
  o[3] = signbit(x) ? 1 : 0;
  o[4] = __float_as_int(fmaxf(x, __int_as_float(0x7fc00000)));  // max(x, NaN) = x
  o[5] = __float_as_int(fminf(x, -1.0f));
  o[6] = __float_as_int(fabsf(x));
  o[7] = __float_as_int(-x);
}
