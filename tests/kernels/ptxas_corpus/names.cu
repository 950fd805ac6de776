// Kernel names as libraries produce them: namespaces, templates with several instantiations,
// overloads of one name, a struct-templated kernel, and an extern "C" kernel.
#include <cuda_runtime.h>

namespace lib {
namespace detail {
template <int BLOCK, typename T>
__global__ void fill(T* out, T value, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] = value;
}
template __global__ void fill<128, float>(float*, float, int);
template __global__ void fill<256, float>(float*, float, int);
template __global__ void fill<128, int>(int*, int, int);
}  // namespace detail

struct Plus {
  __device__ float operator()(float a, float b) const { return a + b; }
};
template <typename Op>
__global__ void combine(const float* a, const float* b, float* out, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(a[i], b[i]);
}
template __global__ void combine<Plus>(const float*, const float*, float*, int, Plus);
}  // namespace lib

__global__ void scale(float* data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}
__global__ void scale(double* data, double factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

extern "C" __global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
