// The counters the atomics kernels update: one layout shared by the kernels (atomics.cu) and
// the host code that checks them (tests/kernels/atomics_test.cpp).
#pragma once

struct AtomicCounters {
  int add_i;
  unsigned add_u;
  unsigned long long add_ull;
  float add_f;
  int sub_i;
  double add_d;
  int min_i;
  int max_i;
  unsigned min_u;
  unsigned max_u;
  long long min_ll;
  long long max_ll;
  unsigned long long max_ull;
  unsigned inc_u;
  unsigned dec_u;
  unsigned and_u;
  unsigned or_u;
  unsigned xor_u;
  unsigned long long and_ull;
  unsigned long long or_ull;
  unsigned long long xor_ull;
  int exch_i;
  float exch_f;
  float cas_max_f;
  unsigned long long cas_mul_ull;
  unsigned ticket;
  int block_scope;
  int system_scope;
};
