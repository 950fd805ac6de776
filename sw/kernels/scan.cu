// Prefix sums of 32-bit integers, block by block; a multi-block scan is three launches:
//   scan_*_block(data) -> per-block results and block_sums; scan of block_sums (one block);
//   scan_add_offsets(data, scanned block_sums).

#define SCAN_THREADS 256
#define SCAN_ELEMS (2 * SCAN_THREADS)

// Work-efficient (Blelloch) exclusive scan of SCAN_ELEMS elements per block: an up-sweep builds
// partial sums in place, the root is cleared, a down-sweep distributes them. Needs
// blockDim.x == 256. block_sums may be null (single-block scans); otherwise it receives each
// block's total.
extern "C" __global__ void scan_exclusive_block(const int* in, int* out, int* block_sums, int n) {
  __shared__ int s[SCAN_ELEMS];
  int t = threadIdx.x;
  int base = blockIdx.x * SCAN_ELEMS;
  int i0 = base + t, i1 = base + t + SCAN_THREADS;
  s[t] = i0 < n ? in[i0] : 0;
  s[t + SCAN_THREADS] = i1 < n ? in[i1] : 0;
  int offset = 1;
  for (int d = SCAN_ELEMS >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1;
      int bi = offset * (2 * t + 2) - 1;
      s[bi] += s[ai];
    }
    offset <<= 1;
  }
  if (t == 0) {
    if (block_sums) block_sums[blockIdx.x] = s[SCAN_ELEMS - 1];
    s[SCAN_ELEMS - 1] = 0;
  }
  for (int d = 1; d < SCAN_ELEMS; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1;
      int bi = offset * (2 * t + 2) - 1;
      int left = s[ai];
      s[ai] = s[bi];
      s[bi] += left;
    }
  }
  __syncthreads();
  if (i0 < n) out[i0] = s[t];
  if (i1 < n) out[i1] = s[t + SCAN_THREADS];
}

// Inclusive scan of blockDim.x elements per block with warp shuffles (Hillis-Steele inside each
// warp via shfl.up, then the warp totals are scanned by warp 0). blockDim.x: a multiple of 32.
// block_sums may be null.
extern "C" __global__ void scan_inclusive_shfl(const int* in, int* out, int* block_sums, int n) {
  __shared__ int warp_totals[32];
  unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int d = 1; d < 32; d <<= 1) {
    int up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;
  }
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    unsigned nwarps = blockDim.x >> 5;
    int w = lane < nwarps ? warp_totals[lane] : 0;
    for (int d = 1; d < 32; d <<= 1) {
      int up = __shfl_up_sync(0xffffffffu, w, d);
      if (lane >= d) w += up;
    }
    warp_totals[lane] = w;  // inclusive scan of the warp totals
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  if (i < n) out[i] = v;
  if (block_sums && threadIdx.x == blockDim.x - 1) block_sums[blockIdx.x] = v;
}

// Adds offsets[b] to every element of block b's segment of `per_block` elements.
extern "C" __global__ void scan_add_offsets(int* data, const int* offsets, int n, int per_block) {
  int off = offsets[blockIdx.x];
  int base = blockIdx.x * per_block;
  for (int t = threadIdx.x; t < per_block; t += blockDim.x) {
    int i = base + t;
    if (i < n) data[i] += off;
  }
}
