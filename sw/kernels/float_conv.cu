// Conversions: float <-> integer in every rounding mode, floating rounding functions and
// explicitly rounded arithmetic, and the 16-bit formats (__half, __nv_bfloat16).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// 12 results per element: out_i[4], out_u[4], out_ll[4].
extern "C" __global__ void float_to_int(const float* in, int* out_i, unsigned* out_u,
                                        long long* out_ll, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  out_i[i * 4 + 0] = __float2int_rn(x);
  out_i[i * 4 + 1] = __float2int_rz(x);
  out_i[i * 4 + 2] = __float2int_rd(x);
  out_i[i * 4 + 3] = __float2int_ru(x);
  out_u[i * 4 + 0] = __float2uint_rn(x);
  out_u[i * 4 + 1] = __float2uint_rz(x);
  out_u[i * 4 + 2] = __float2uint_rd(x);
  out_u[i * 4 + 3] = __float2uint_ru(x);
  out_ll[i * 4 + 0] = __float2ll_rn(x);
  out_ll[i * 4 + 1] = __float2ll_rz(x);
  out_ll[i * 4 + 2] = (long long)__float2ull_rd(x);
  out_ll[i * 4 + 3] = (long long)__float2ull_ru(x);
}

// 10 results per element.
extern "C" __global__ void int_to_float(const int* in, const long long* in_ll, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = in[i];
  long long y = in_ll[i];
  float* o = out + i * 10;
  o[0] = __int2float_rn(x);
  o[1] = __int2float_rz(x);
  o[2] = __int2float_rd(x);
  o[3] = __int2float_ru(x);
  o[4] = __uint2float_rn((unsigned)x);
  o[5] = __uint2float_rz((unsigned)x);
  o[6] = __ll2float_rn(y);
  o[7] = __ll2float_ru(y);
  o[8] = __ull2float_rd((unsigned long long)y);
  o[9] = (float)__int2double_rn(x);
}

// 16 results per element: rounding to integral values and arithmetic in explicit rounding modes.
extern "C" __global__ void float_round(const float* a, const float* b, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i];
  float* o = out + i * 16;
  o[0] = rintf(x);
  o[1] = truncf(x);
  o[2] = floorf(x);
  o[3] = ceilf(x);
  o[4] = roundf(x);  // half away from zero: a short sequence, not one instruction
  o[5] = __fadd_rz(x, y);
  o[6] = __fadd_ru(x, y);
  o[7] = __fmul_rd(x, y);
  o[8] = __fmul_ru(x, y);
  o[9] = __fdiv_rz(x, y);
  o[10] = __fdiv_rn(x, y);
  o[11] = __fsqrt_rd(fabsf(x));
  o[12] = __frcp_rn(y);
  o[13] = __fmaf_rz(x, y, 1.0f);
  o[14] = __saturatef(x);
  o[15] = fminf(x, y) - fmaxf(x, y);
}

// f32 -> f16/bf16 in four rounding modes and back. Per element: 8 ushort bit patterns
// (f16 rn, rz, rd, ru, bf16 rn, rz, rd, ru) and 2 floats (f16 rn and bf16 rn converted back).
extern "C" __global__ void half_convert(const float* in, unsigned short* bits, float* back, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  __half h = __float2half_rn(x);
  __nv_bfloat16 bf = __float2bfloat16_rn(x);
  unsigned short* o = bits + i * 8;
  o[0] = __half_as_ushort(h);
  o[1] = __half_as_ushort(__float2half_rz(x));
  o[2] = __half_as_ushort(__float2half_rd(x));
  o[3] = __half_as_ushort(__float2half_ru(x));
  o[4] = __bfloat16_as_ushort(bf);
  o[5] = __bfloat16_as_ushort(__float2bfloat16_rz(x));
  o[6] = __bfloat16_as_ushort(__float2bfloat16_rd(x));
  o[7] = __bfloat16_as_ushort(__float2bfloat16_ru(x));
  back[i * 2 + 0] = __half2float(h);
  back[i * 2 + 1] = __bfloat162float(bf);
}

// 16-bit arithmetic: scalar and packed (half2 / bfloat162). Per element: 10 ushort results.
extern "C" __global__ void half_arith(const __half* a, const __half* b, const __half* c,
                                      const __nv_bfloat16* p, const __nv_bfloat16* q,
                                      unsigned short* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = a[i], y = b[i], z = c[i];
  unsigned short* o = out + i * 10;
  o[0] = __half_as_ushort(__hadd(x, y));
  o[1] = __half_as_ushort(__hmul(x, y));
  o[2] = __half_as_ushort(__hfma(x, y, z));
  o[3] = __half_as_ushort(__hsub(x, __hneg(y)));
  o[4] = __half_as_ushort(__hmax(x, y));
  o[5] = __hlt(x, y) ? 1 : 0;
  // Packed: (x, y) * (y, z) + (z, x) in one half2 fma, lanes back out separately.
  __half2 u = __halves2half2(x, y), v = __halves2half2(y, z), w = __halves2half2(z, x);
  __half2 r = __hfma2(u, v, w);
  o[6] = __half_as_ushort(__low2half(r));
  o[7] = __half_as_ushort(__high2half(r));
  __nv_bfloat16 s = p[i], t = q[i];
  o[8] = __bfloat16_as_ushort(__hfma(s, t, s));
  o[9] = __bfloat16_as_ushort(__hmul(s, t));
}
