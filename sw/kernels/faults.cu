// Kernels that must fail: the device reports each as an ExecutionError naming the kernel.

// Thread 0 stores far outside any allocation (p + offset elements).
extern "C" __global__ void fault_oob_store(int* p, long long offset) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    p[offset] = 42;
  else
    p[threadIdx.x] = 1;
}

// Thread 0 loads from far outside any allocation.
extern "C" __global__ void fault_oob_load(const int* p, long long offset, int* out) {
  out[threadIdx.x] = p[threadIdx.x == 0 ? offset : threadIdx.x];
}

// Thread 5 executes trap.
extern "C" __global__ void fault_trap(int* p) {
  if (threadIdx.x == 5) asm volatile("trap;");
  p[threadIdx.x] = 1;
}

// A 4-byte store to an address that is not 4-byte aligned.
extern "C" __global__ void fault_misaligned(char* p) {
  *(volatile int*)(p + 1) = 7;
}

// Recursion far deeper than any per-thread stack: depth_sum(n) = n + depth_sum(n - 1). The store
// after the call keeps nvcc from turning the recursion into a loop.
__device__ __noinline__ int depth_sum(int n, int* out) {
  if (n == 0) return 0;
  int r = depth_sum(n - 1, out) + n;
  out[0] = r;
  return r;
}

extern "C" __global__ void fault_stack_overflow(int depth, int* out) {
  depth_sum(depth, out);
}
