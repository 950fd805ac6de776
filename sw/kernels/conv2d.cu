// 2D convolution (correlation) with a 5x5 filter; pixels past the image edges are clamped to the
// nearest edge pixel. Row-major images, one thread per output pixel, 2D grid.

#define R 2
#define FW (2 * R + 1)

// The constant-memory filter is fixed at compile time (there is no host API to write module
// constants): w[k] = ((7k mod 11) - 5) / 16, asymmetric so a transposed or flipped filter fails.
#define W(k) ((float)((((k)*7) % 11) - 5) / 16.0f)
__constant__ float c_filter[FW * FW] = {
    W(0),  W(1),  W(2),  W(3),  W(4),  W(5),  W(6),  W(7),  W(8),  W(9),  W(10), W(11), W(12),
    W(13), W(14), W(15), W(16), W(17), W(18), W(19), W(20), W(21), W(22), W(23), W(24)};

__device__ __forceinline__ int clampi(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

extern "C" __global__ void conv2d_5x5_const(const float* in, float* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float acc = 0.0f;
  for (int fy = -R; fy <= R; ++fy) {
    int sy = clampi(y + fy, 0, height - 1);
    for (int fx = -R; fx <= R; ++fx) {
      int sx = clampi(x + fx, 0, width - 1);
      acc += c_filter[(fy + R) * FW + (fx + R)] * in[sy * width + sx];
    }
  }
  out[y * width + x] = acc;
}

// The same with the filter passed by value as a kernel parameter (a 100-byte struct: the PTX
// reads it with ld.param at offsets into a .b8 array parameter).
struct Filter5x5 {
  float w[FW * FW];
};

extern "C" __global__ void conv2d_5x5_param(const float* in, float* out, int width, int height,
                                            Filter5x5 filter) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float acc = 0.0f;
#pragma unroll
  for (int fy = -R; fy <= R; ++fy) {
    int sy = clampi(y + fy, 0, height - 1);
#pragma unroll
    for (int fx = -R; fx <= R; ++fx) {
      int sx = clampi(x + fx, 0, width - 1);
      acc += filter.w[(fy + R) * FW + (fx + R)] * in[sy * width + sx];
    }
  }
  out[y * width + x] = acc;
}
