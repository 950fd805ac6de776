// Warp-level and block-level collective instructions: vote (ballot/all/any/uni), activemask,
// match, redux, shuffles, and the reducing barriers behind __syncthreads_count/_and/_or.
// All kernels assume blockDim.x is a multiple of 32 (full-mask intrinsics on full warps).

#define FULL 0xffffffffu

// out: 8 words per thread.
extern "C" __global__ void warp_vote(const unsigned* in, unsigned* out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[tid];
  unsigned* o = out + tid * 8;
  o[0] = __ballot_sync(FULL, v & 1);
  o[1] = __all_sync(FULL, v & 1) ? 1u : 0u;
  o[2] = __any_sync(FULL, v & 1) ? 1u : 0u;
  o[3] = __uni_sync(FULL, v & 1) ? 1u : 0u;
  o[4] = __activemask();
  // Inside a divergent branch: activemask and a ballot over just the lanes that are here.
  if (v & 2) {
    unsigned here = __activemask();
    o[5] = here;
    o[6] = __ballot_sync(here, v & 4);
  } else {
    unsigned here = __activemask();
    o[5] = here;
    o[6] = __ballot_sync(here, v & 8) | 0x80000000u;
  }
  __syncwarp();  // bar.warp.sync: the branches above have rejoined
  o[7] = __popc(__ballot_sync(FULL, v & 16));
}

// out: 12 words per thread.
extern "C" __global__ void warp_match_reduce(const unsigned* in, unsigned* out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[tid];
  unsigned* o = out + tid * 12;
  o[0] = __match_any_sync(FULL, v & 7);
  int all_same = 0;
  o[1] = __match_all_sync(FULL, v >> 24, &all_same);
  o[2] = (unsigned)all_same;
  o[3] = __match_any_sync(FULL, (unsigned long long)(v & 3) << 40 | 5ull);
  o[4] = __reduce_add_sync(FULL, v);
  o[5] = __reduce_min_sync(FULL, v);
  o[6] = __reduce_max_sync(FULL, v);
  o[7] = (unsigned)__reduce_min_sync(FULL, (int)v);
  o[8] = (unsigned)__reduce_max_sync(FULL, (int)v);
  o[9] = __reduce_and_sync(FULL, v);
  o[10] = __reduce_or_sync(FULL, v);
  o[11] = __reduce_xor_sync(FULL, v);
}

// out: 10 words per thread.
extern "C" __global__ void warp_shuffle(const unsigned* in, unsigned* out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  unsigned v = in[tid];
  unsigned* o = out + tid * 10;
  o[0] = __shfl_sync(FULL, v, (lane * 7 + 3) & 31);
  o[1] = __shfl_up_sync(FULL, v, 3);
  o[2] = __shfl_down_sync(FULL, v, 5);
  o[3] = __shfl_xor_sync(FULL, v, 9);
  o[4] = __shfl_sync(FULL, v, lane + 2, 8);  // width 8: index wraps inside each group of 8
  o[5] = __shfl_up_sync(FULL, v, 1, 16);     // width 16
  o[6] = __shfl_down_sync(FULL, v, 2, 4);    // width 4
  float f = __shfl_xor_sync(FULL, (float)(v & 0xffff) * 0.5f, 1);
  o[7] = __float_as_uint(f);
  unsigned long long w = ((unsigned long long)v << 32) | (v ^ 0xA5A5A5A5u);
  w = __shfl_sync(FULL, w, 31 - lane);  // 64-bit: two 32-bit shuffles
  o[8] = (unsigned)(w >> 32);
  o[9] = (unsigned)w;
}

// Reducing barriers. out: 3 words per thread (every thread gets the block-wide answer).
extern "C" __global__ void block_vote(const unsigned* in, int* out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[tid];
  int count = __syncthreads_count(v & 1);
  int all = __syncthreads_and(v & 2);
  int any = __syncthreads_or(v & 4);
  out[tid * 3 + 0] = count;
  out[tid * 3 + 1] = all != 0;
  out[tid * 3 + 2] = any != 0;
}
