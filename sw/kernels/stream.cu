// The four STREAM kernels (McCalpin): copy, scale, add and triad over float arrays, each a
// grid-stride loop so that any grid covers any n. They measure sustainable memory bandwidth: per
// element copy and scale move 8 bytes, add and triad 12. The PTX beside this file is generated
// by scripts/regen-ptx.

// c[i] = a[i]
extern "C" __global__ void stream_copy(const float* a, float* c, long long n) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    c[i] = a[i];
}

// b[i] = q * c[i]
extern "C" __global__ void stream_scale(float* b, const float* c, float q, long long n) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    b[i] = q * c[i];
}

// c[i] = a[i] + b[i]
extern "C" __global__ void stream_add(const float* a, const float* b, float* c, long long n) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    c[i] = a[i] + b[i];
}

// a[i] = b[i] + q * c[i] (nvcc contracts this to one fma)
extern "C" __global__ void stream_triad(float* a, const float* b, const float* c, float q,
                                        long long n) {
  long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    a[i] = b[i] + q * c[i];
}
