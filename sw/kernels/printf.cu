// Device printf (a call to vprintf with the arguments packed in a local buffer).
#include <cstdio>

// The strings the %s argument picks from: a global array of generic pointers to string
// literals, initialized with their addresses.
__device__ const char* const parity_names[2] = {"even", "odd"};

// Threads with tid < count print one line each with %d, %u, %f, %s, %x and %lld, and thread 0
// prints two more lines (a constant string with no arguments and one with field widths).
extern "C" __global__ void printf_values(int count, float scale, long long big) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= count) return;
  unsigned u = 1000u + (unsigned)tid;
  float f = scale * (float)tid;
  printf("tid=%d u=%u f=%f s=%s x=%x ll=%lld\n", tid, u, f, parity_names[tid & 1],
         0xC0FFEEu + (unsigned)tid, big * tid - 7);
  if (tid == 0) {
    printf("hello from the device\n");
    printf("[%5d|%-4u|%08.3f|%c|%.2e]\n", -42, 7u, 3.14159f, 'Z', 6.02214076e23);
  }
}
