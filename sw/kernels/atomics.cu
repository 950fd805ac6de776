// Atomics of every kind, global and shared, with and without use of the returned value
// (nvcc 13 emits atom.* in both cases for sm_80), plus atomicCAS loops.

#include "atomic_counters.h"

// A float max by compare-and-swap on the bit pattern.
__device__ float atomic_max_float(float* addr, float value) {
  int* p = (int*)addr;
  int old = *p, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value) break;
    old = atomicCAS(p, assumed, __float_as_int(value));
  } while (old != assumed);
  return __int_as_float(old);
}

// A 64-bit multiply by compare-and-swap (there is no atomic multiply).
__device__ unsigned long long atomic_mul_u64(unsigned long long* addr, unsigned long long f) {
  unsigned long long old = *addr, assumed;
  do {
    assumed = old;
    old = atomicCAS(addr, assumed, assumed * f);
  } while (old != assumed);
  return old;
}

// One thread per value v = vals[i]; per thread outputs: tickets[i] (atomicAdd +1 old values),
// exch_old[i] (atomicExch old values), inc_old[i] (atomicInc old values).
extern "C" __global__ void atomics_global(const int* vals, int n, AtomicCounters* c,
                                          unsigned* tickets, int* exch_old, unsigned* inc_old) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = vals[i];
  unsigned h = (unsigned)i * 2654435761u;  // a per-thread bit pattern
  atomicAdd(&c->add_i, v);
  atomicAdd(&c->add_u, (unsigned)v * 3u);
  atomicAdd(&c->add_ull, (unsigned long long)(v + 1000) << 24);
  atomicAdd(&c->add_f, (float)v * 0.25f);
  atomicSub(&c->sub_i, v);
  atomicAdd(&c->add_d, (double)v * 0.125);
  atomicMin(&c->min_i, v);
  atomicMax(&c->max_i, v);
  atomicMin(&c->min_u, (unsigned)v);
  atomicMax(&c->max_u, (unsigned)v);
  atomicMin(&c->min_ll, (long long)v * 1000000007LL);
  atomicMax(&c->max_ll, (long long)v * 1000000007LL);
  atomicMax(&c->max_ull, (unsigned long long)h << 20);
  inc_old[i] = atomicInc(&c->inc_u, 16u);
  atomicDec(&c->dec_u, 16u);
  atomicAnd(&c->and_u, ~(1u << (i & 31)) | h);
  atomicOr(&c->or_u, 1u << (h >> 27));
  atomicXor(&c->xor_u, h);
  atomicAnd(&c->and_ull, ~(1ull << (i & 63)));
  atomicOr(&c->or_ull, 1ull << (h >> 26));
  atomicXor(&c->xor_ull, (unsigned long long)h << 16);
  exch_old[i] = atomicExch(&c->exch_i, i + 1);
  atomicExch(&c->exch_f, 1.5f);
  atomic_max_float(&c->cas_max_f, (float)v * 0.5f);
  if ((i & 7) == 0) atomic_mul_u64(&c->cas_mul_ull, 3ull);
  tickets[i] = atomicAdd(&c->ticket, 1u);
  atomicAdd_block(&c->block_scope, 1);
  atomicAdd_system(&c->system_scope, 2);
}

// Shared-memory atomics: each block reduces its values in shared memory, thread 0 writes the
// block's results: out[b*8 + 0..7] = sum, min, max, or of bits, xor, count via CAS, float sum
// (bits), ticket total.
extern "C" __global__ void atomics_shared(const int* vals, int n, int* out) {
  __shared__ int s_sum, s_min, s_max, s_cas_count;
  __shared__ unsigned s_or, s_xor, s_ticket;
  __shared__ float s_fsum;
  if (threadIdx.x == 0) {
    s_sum = 0;
    s_min = 0x7fffffff;
    s_max = (int)0x80000000;
    s_or = 0;
    s_xor = 0;
    s_cas_count = 0;
    s_fsum = 0.0f;
    s_ticket = 0;
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = vals[i];
    atomicAdd(&s_sum, v);
    atomicMin(&s_min, v);
    atomicMax(&s_max, v);
    atomicOr(&s_or, 1u << (v & 31));
    atomicXor(&s_xor, (unsigned)v);
    int old = s_cas_count, assumed;
    do {
      assumed = old;
      old = atomicCAS(&s_cas_count, assumed, assumed + 1);
    } while (old != assumed);
    atomicAdd(&s_fsum, (float)v * 0.5f);
    unsigned t = atomicInc(&s_ticket, 0xffffffffu);
    (void)t;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int* o = out + blockIdx.x * 8;
    o[0] = s_sum;
    o[1] = s_min;
    o[2] = s_max;
    o[3] = (int)s_or;
    o[4] = (int)s_xor;
    o[5] = s_cas_count;
    o[6] = __float_as_int(s_fsum);
    o[7] = (int)s_ticket;
  }
}
