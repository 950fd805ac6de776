// Matrix transpose, row-major: out(cols x rows) = in(rows x cols)^T.

#define TDIM 32
#define TROWS 8

// One thread per element; reads coalesced, writes strided. Any 2D block shape.
extern "C" __global__ void transpose_naive(const float* in, float* out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

// Through a 32x33 shared tile (the padding column keeps the column reads off one bank).
// Launch with blockDim = (32, 8) and a grid of ceil(cols/32) x ceil(rows/32) blocks.
extern "C" __global__ void transpose_tiled(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[TDIM][TDIM + 1];
  int c = blockIdx.x * TDIM + threadIdx.x;
  int r0 = blockIdx.y * TDIM + threadIdx.y;
  for (int dy = 0; dy < TDIM; dy += TROWS) {
    int r = r0 + dy;
    if (r < rows && c < cols) tile[threadIdx.y + dy][threadIdx.x] = in[r * cols + c];
  }
  __syncthreads();
  // Swap block coordinates: this block writes the transposed tile.
  int oc = blockIdx.y * TDIM + threadIdx.x;   // column of out = row of in
  int or0 = blockIdx.x * TDIM + threadIdx.y;  // row of out = column of in
  for (int dy = 0; dy < TDIM; dy += TROWS) {
    int orow = or0 + dy;
    if (orow < cols && oc < rows) out[orow * rows + oc] = tile[threadIdx.x][threadIdx.y + dy];
  }
}
