// 256-bin histograms of bytes.

#define BINS 256

// Per-block histogram in shared memory (atom.shared), merged into global bins at the end.
extern "C" __global__ void histogram_shared(const unsigned char* data, int n, unsigned int* bins) {
  __shared__ unsigned int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
    unsigned int c = local[b];
    if (c) atomicAdd(&bins[b], c);
  }
}

// Every element goes straight to the global bins (red.global.add).
extern "C" __global__ void histogram_global(const unsigned char* data, int n, unsigned int* bins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[data[i]], 1u);
}
