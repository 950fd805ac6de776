// Kernels that must fail: the device reports each as an ExecutionError naming the kernel.

// Thread 0 stores far outside any allocation (p + offset elements).
extern "C" __global__ void fault_oob_store(int* p, long long offset) {
  if (blockIdx.x == 0 && threadIdx.x == 0) p[offset] = 42;
  else p[threadIdx.x] = 1;
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
extern "C" __global__ void fault_misaligned(char* p) { *(volatile int*)(p + 1) = 7; }
