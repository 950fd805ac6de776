// Sum reductions of floats. Each first-pass kernel leaves one partial sum per block in
// partial[blockIdx.x]; reduce_final folds those partials (launch it with one block).
// The first-pass kernels need blockDim.x to be a power of two, at most 1024.

// Classic shared-memory tree. Dynamic shared memory: launch with blockDim.x * sizeof(float) bytes.
extern "C" __global__ void reduce_shared(const float* in, float* partial, int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  float sum = 0.0f;
  // Grid-stride accumulation first, so any grid size covers any n.
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x) sum += in[i];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Warp shuffles: each warp folds its 32 values with shfl.down, warp 0 folds the warp sums.
// Needs blockDim.x to be a multiple of 32 (so every warp is full for the full-mask shuffles).
extern "C" __global__ void reduce_shuffle(const float* in, float* partial, int n) {
  __shared__ float warp_sums[32];
  unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    sum += in[i];
  sum = warp_sum(sum);
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    unsigned nwarps = blockDim.x >> 5;
    sum = lane < nwarps ? warp_sums[lane] : 0.0f;
    sum = warp_sum(sum);
    if (lane == 0) partial[blockIdx.x] = sum;
  }
}

// The shape of M. Harris's fastest reduction ("Optimizing Parallel Reduction in CUDA", NVIDIA
// 2007, kernel 7), for the validation suite: each step of a thread's grid-stride loop adds two
// elements a block apart (two loads in flight), the tree is unrolled, and its last warp folds
// without block barriers (warp barriers instead of Harris's lockstep assumption). Launch with REDUCE_UNROLLED_THREADS threads a block.
#define REDUCE_UNROLLED_THREADS 128
extern "C" __global__ void reduce_unrolled(const float* in, float* partial, int n) {
  __shared__ float s[REDUCE_UNROLLED_THREADS];
  const unsigned tid = threadIdx.x, size = REDUCE_UNROLLED_THREADS;
  const unsigned step = 2 * size * gridDim.x;
  float sum = 0.0f;
  for (unsigned i = blockIdx.x * 2 * size + tid; i < (unsigned)n; i += step) {
    sum += in[i];
    if (i + size < (unsigned)n) sum += in[i + size];
  }
  s[tid] = sum;
  __syncthreads();
#pragma unroll
  for (unsigned stride = size / 2; stride > 32; stride >>= 1) {
    if (tid < stride) s[tid] = sum = sum + s[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    volatile float* v = s;
#pragma unroll
    for (unsigned stride = 32; stride > 0; stride >>= 1) {
      const float other = v[tid + stride];  // read by every lane before any lane writes
      __syncwarp();
      v[tid] = sum = sum + other;
      __syncwarp();
    }
    if (tid == 0) partial[blockIdx.x] = sum;
  }
}

// Final pass: one block of 256 threads folds n partial sums into out[0].
extern "C" __global__ void reduce_final(const float* partial, float* out, int n) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  float sum = 0.0f;
  for (int i = tid; i < n; i += blockDim.x) sum += partial[i];
  s[tid] = sum;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride >= 32; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < 32) {
    sum = warp_sum(s[tid]);
    if (tid == 0) out[0] = sum;
  }
}
