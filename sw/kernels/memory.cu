// Memory access forms: volatile global and shared accesses, and a thread-local array indexed
// with run-time values (nvcc must keep it in local memory: a .local depot and ld/st.local).

// out[i*3 + 0..2]: 2 * in[i] read back twice (two volatile loads), and a neighbour's value
// through volatile shared memory. blockDim.x at most 256.
extern "C" __global__ void volatile_ops(const int* in, volatile int* scratch, int* out, int n) {
  __shared__ volatile int s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  if (i < n) scratch[i] = 2 * v;
  s[threadIdx.x] = v + 1;
  __syncthreads();
  if (i < n) {
    int first = scratch[i];
    int second = scratch[i];  // volatile: loaded again, not reused
    out[i * 3 + 0] = first;
    out[i * 3 + 1] = second;
    out[i * 3 + 2] = s[(threadIdx.x + 1) % blockDim.x];
  }
}

// buf[k] = k*k ^ i for k < 64; buf[idx & 63] += 1000; out[i] = buf[(idx >> 8) & 63] +
// buf[((idx & 63) * 7) & 63] (all indices from data, so the array cannot live in registers).
extern "C" __global__ void local_array(const int* idx, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int buf[64];
  for (int k = 0; k < 64; ++k) buf[k] = (k * k) ^ i;
  int j = idx[i];
  buf[j & 63] += 1000;
  out[i] = buf[(j >> 8) & 63] + buf[((j & 63) * 7) & 63];
}
