// Bitonic sort of 32-bit unsigned keys, ascending.

// One compare-exchange step of the network over the whole array: the host launches it for
// k = 2, 4, ..., n and, for each k, j = k/2, k/4, ..., 1. n must be a power of two (the host pads
// with 0xFFFFFFFF); one thread per element, the lower index of each pair does the exchange.
extern "C" __global__ void bitonic_step(unsigned* keys, int n, int j, int k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned partner = i ^ (unsigned)j;
  if (i < (unsigned)n && partner > i) {
    bool ascending = (i & (unsigned)k) == 0;
    unsigned a = keys[i], b = keys[partner];
    if ((a > b) == ascending) {
      keys[i] = b;
      keys[partner] = a;
    }
  }
}

// Sorts each block's segment of 2 * blockDim.x keys entirely in shared memory (dynamic:
// 2 * blockDim.x * 4 bytes); blockDim.x a power of two. Keys past n are padded with 0xFFFFFFFF
// in shared memory only, so a partial last segment sorts correctly.
extern "C" __global__ void bitonic_sort_shared(unsigned* keys, int n) {
  extern __shared__ unsigned s[];
  unsigned seg = 2 * blockDim.x;
  unsigned base = blockIdx.x * seg;
  unsigned t = threadIdx.x;
  for (unsigned e = t; e < seg; e += blockDim.x)
    s[e] = base + e < (unsigned)n ? keys[base + e] : 0xFFFFFFFFu;
  __syncthreads();
  for (unsigned k = 2; k <= seg; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned i = ((t & ~(j - 1)) << 1) | (t & (j - 1));  // lower index of this thread's pair
      unsigned p = i + j;
      bool ascending = (i & k) == 0;
      unsigned a = s[i], b = s[p];
      if ((a > b) == ascending) {
        s[i] = b;
        s[p] = a;
      }
      __syncthreads();
    }
  }
  for (unsigned e = t; e < seg; e += blockDim.x)
    if (base + e < (unsigned)n) keys[base + e] = s[e];
}
