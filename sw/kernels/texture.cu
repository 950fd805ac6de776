// Texture and surface kernels: the fetches image processing, interpolation, volume rendering and
// lookup tables use, through texture and surface objects (the texture app, sw/apps/texture.cpp).
#include <cuda_runtime.h>

// Samples a 2D texture on a w x h grid of coordinates (x0 + x * dx, y0 + y * dy): every sampler
// setting (address, filter and read modes, normalized coordinates) is the texture's.
extern "C" __global__ void tex2d_sample(cudaTextureObject_t t, float4* out, int w, int h, float x0,
                                        float y0, float dx, float dy) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float4>(t, x0 + x * dx, y0 + y * dy);
}

// The same with element-type reads of an integer texture.
extern "C" __global__ void tex2d_sample_int(cudaTextureObject_t t, int4* out, int w, int h,
                                            float x0, float y0, float dx, float dy) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<int4>(t, x0 + x * dx, y0 + y * dy);
}

// Bilinear resize of a single-channel image to w x h: texel centres of the output mapped onto
// the input with normalized coordinates.
extern "C" __global__ void resize_bilinear(cudaTextureObject_t t, float* out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, (x + 0.5f) / w, (y + 0.5f) / h);
}

// One pass of a separable convolution: 2 * radius + 1 taps along x (dir 0) or y (dir 1),
// reading outside the image through the texture's address mode.
extern "C" __global__ void convolve_pass(cudaTextureObject_t t, float* out, int w, int h,
                                         const float* __restrict__ weights, int radius, int dir) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float sum = 0;
  for (int k = -radius; k <= radius; ++k) {
    const float u = x + 0.5f + (dir == 0 ? k : 0), v = y + 0.5f + (dir == 1 ? k : 0);
    sum += weights[k + radius] * tex2D<float>(t, u, v);
  }
  out[y * w + x] = sum;
}

// A ray per pixel through a volume along z: the sum of `steps` trilinear samples
// (normalized coordinates), as a maximum-free emission-only ray march.
extern "C" __global__ void raymarch(cudaTextureObject_t volume, float* out, int w, int h,
                                    int steps) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
  float sum = 0;
  for (int s = 0; s < steps; ++s) sum += tex3D<float>(volume, u * 0.9f + 0.05f * s / steps, v, (s + 0.5f) / steps);
  out[y * w + x] = sum;
}

// A lookup table: out[i] = table(in[i]) with the table's filtering and normalized coordinates.
extern "C" __global__ void lookup(cudaTextureObject_t table, const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(table, in[i]);
}

// Integer-indexed fetches from linear memory (tex1Dfetch), past the end included.
extern "C" __global__ void fetch_linear(cudaTextureObject_t t, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i - 3);
}

// tld4: one channel of the bilinear footprint at each coordinate.
extern "C" __global__ void gather4(cudaTextureObject_t t, float4* out, int w, int h, float x0,
                                   float y0, float dx, float dy, int component) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  const float u = x0 + x * dx, v = y0 + y * dy;
  float4 r;
  switch (component) {
    case 0: r = tex2Dgather<float4>(t, u, v, 0); break;
    case 1: r = tex2Dgather<float4>(t, u, v, 1); break;
    case 2: r = tex2Dgather<float4>(t, u, v, 2); break;
    default: r = tex2Dgather<float4>(t, u, v, 3); break;
  }
  out[y * w + x] = r;
}

// A layered 2D texture sampled in every layer, and a 1D layered one.
extern "C" __global__ void layered2d(cudaTextureObject_t t, float* out, int w, int h, int layers,
                                     float x0, float y0, float dx, float dy) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  for (int l = 0; l < layers; ++l)
    out[(l * h + y) * w + x] = tex2DLayered<float>(t, x0 + x * dx, y0 + y * dy, l);
}

extern "C" __global__ void layered1d(cudaTextureObject_t t, float* out, int w, int layers,
                                     float x0, float dx) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= w) return;
  for (int l = 0; l < layers; ++l) out[l * w + x] = tex1DLayered<float>(t, x0 + x * dx, l);
}

// Cubemap lookups along given directions.
extern "C" __global__ void cubemap(cudaTextureObject_t t, const float4* dirs, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemap<float>(t, dirs[i].x, dirs[i].y, dirs[i].z);
}

// Surfaces: each RGBA8 pixel of row y inverted into row y of a second surface, a float surface
// scaled in place, and writes past the edge that .zero drops.
extern "C" __global__ void surface_invert(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w,
                                          int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  uchar4 p;
  surf2Dread(&p, in, x * 4, y);
  surf2Dwrite(make_uchar4(255 - p.x, 255 - p.y, 255 - p.z, p.w), out, x * 4, y);
}

extern "C" __global__ void surface_scale(cudaSurfaceObject_t s, int w, float factor) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= w + 8) return;  // the last 8 threads read clamped and write nothing
  const float v = surf1Dread<float>(s, x * 4, cudaBoundaryModeClamp);
  surf1Dwrite(v * factor, s, x * 4, cudaBoundaryModeZero);
}

// A 3D surface written by one kernel and read back through a texture by another.
extern "C" __global__ void surface_fill3d(cudaSurfaceObject_t s, int w, int h, int d) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  for (int z = 0; z < d; ++z) surf3Dwrite(float(x + 10 * y + 100 * z), s, x * 4, y, z);
}

// A 3x3 box sum over a float image, through a texture (clamped at the edges) and through global
// loads of the same texels: the 2D-local walk the texture cache is for.
extern "C" __global__ void stencil_tex(cudaTextureObject_t t, float* out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float sum = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) sum += tex2D<float>(t, x + dx + 0.5f, y + dy + 0.5f);
  out[y * w + x] = sum;
}

extern "C" __global__ void stencil_global(const float* __restrict__ in, float* out, int w, int h,
                                          int pitch) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float sum = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int cx = min(max(x + dx, 0), w - 1), cy = min(max(y + dy, 0), h - 1);
      sum += in[cy * pitch + cx];
    }
  out[y * w + x] = sum;
}
