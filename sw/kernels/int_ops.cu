// Integer instruction families: bit manipulation, permutes and funnel shifts, SIMD-in-word,
// high multiplies, 24-bit multiplies, and division/remainder including negative operands.

// 20 results per element.
extern "C" __global__ void int_bits(const unsigned* a, const unsigned* b, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i];
  unsigned* o = out + i * 20;
  unsigned long long xy = ((unsigned long long)x << 32) | y;
  o[0] = __popc(x);
  o[1] = __clz(x);
  o[2] = __brev(x);
  o[3] = __ffs(x);
  o[4] = __popcll(xy);
  o[5] = __clzll(xy);
  o[6] = (unsigned)(__brevll(xy) >> 16);
  o[7] = __byte_perm(x, y, y & 0x7777);  // plain byte selection
  o[8] = __byte_perm(x, y, y >> 16);     // bit 3 of each nibble ignored (nvcc masks with 0x7777)
  o[9] = __funnelshift_l(x, y, y >> 3);  // shift & 31
  o[10] = __funnelshift_r(x, y, y >> 3);
  o[11] = __funnelshift_lc(x, y, (y >> 3) & 63);  // shift clamped to 32
  o[12] = __funnelshift_rc(x, y, (y >> 3) & 63);
  o[13] = (x >> 7) & 0x3ffu;                  // bit-field extract, unsigned
  o[14] = (unsigned)(((int)(x << 9)) >> 20);  // bit-field extract, sign-extended (12 bits at 11)
  unsigned pos = y & 31, len = (y >> 5) & 31;
  o[15] = (x >> pos) & (len ? (0xffffffffu >> (32 - len)) : 0u);  // variable field
  o[16] = __vabsdiffu4(x, y) ^
          (__vabsdiffs2(x, y) << 1);  // per-byte |x-y| (unsigned), per-halfword signed
  o[17] = __umulhi(x, y);
  o[18] = (unsigned)__mulhi((int)x, (int)y);
  o[19] = __sad((int)x, (int)y, 17u) ^ (unsigned)__mul24((int)x, (int)y) ^ __umul24(x, y) << 1;
}

// 6 results per element.
extern "C" __global__ void int_mul64(const unsigned long long* a, const unsigned long long* b,
                                     unsigned long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = a[i], y = b[i];
  unsigned long long* o = out + i * 6;
  o[0] = __umul64hi(x, y);
  o[1] = (unsigned long long)__mul64hi((long long)x, (long long)y);
  o[2] = x * y;
  o[3] = (unsigned long long)((long long)x >> (y & 63));
  o[4] = x >> (y & 63) | x << ((64 - (y & 63)) & 63);  // rotate right
  o[5] = (unsigned long long)max((long long)x, (long long)y) ^ min(x, y);
}

// 14 results per element. Divisors are never 0 and (INT_MIN, -1) never occurs (undefined in C++).
extern "C" __global__ void int_divrem(const int* a, const int* b, const long long* c,
                                      const long long* d, long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];
  long long X = c[i], Y = d[i];
  long long* o = out + i * 14;
  o[0] = x / y;
  o[1] = x % y;
  o[2] = (unsigned)x / (unsigned)y;
  o[3] = (unsigned)x % (unsigned)y;
  o[4] = X / Y;
  o[5] = X % Y;
  o[6] = (long long)((unsigned long long)X / (unsigned long long)Y);
  o[7] = (long long)((unsigned long long)X % (unsigned long long)Y);
  o[8] = x / 7;  // by constants: nvcc turns these into multiply-high sequences
  o[9] = x % 7;
  o[10] = x / -3;
  o[11] = (unsigned)x / 10u;
  o[12] = abs(x) + min(x, y) * 2 - max(x, y);
  o[13] = (long long)llabs(X) / 1000003LL;
}
