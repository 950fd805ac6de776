// Special registers in a 3D launch: %tid, %ntid, %ctaid, %nctaid in x/y/z, %laneid, %smid and
// %nsmid (read with inline asm; CUDA exposes no intrinsic for the last three).

__device__ __forceinline__ unsigned lane_id() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned sm_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned sm_count() {
  unsigned r;
  asm("mov.u32 %0, %%nsmid;" : "=r"(r));
  return r;
}

// One record of 16 words per thread, at the thread's linear index in the grid.
extern "C" __global__ void thread_ids(unsigned* out) {
  unsigned block_linear = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned threads_per_block = blockDim.x * blockDim.y * blockDim.z;
  unsigned thread_linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned* o = out + (block_linear * threads_per_block + thread_linear) * 16;
  o[0] = threadIdx.x;
  o[1] = threadIdx.y;
  o[2] = threadIdx.z;
  o[3] = blockDim.x;
  o[4] = blockDim.y;
  o[5] = blockDim.z;
  o[6] = blockIdx.x;
  o[7] = blockIdx.y;
  o[8] = blockIdx.z;
  o[9] = gridDim.x;
  o[10] = gridDim.y;
  o[11] = gridDim.z;
  o[12] = lane_id();
  o[13] = sm_id();
  o[14] = sm_count();
  o[15] = __popc(__activemask());  // lanes in this thread's warp
}
