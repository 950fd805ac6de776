// Calls to non-inlined device functions: several arguments and a return value, structs passed
// and returned by value, a pointer into the caller's local array, doubles, and recursion (which
// needs a real call stack: nvcc keeps these as .func with call/ret in the PTX).

struct Pair {
  int lo;
  int hi;
};

// Several arguments of different types, one return value.
__device__ __noinline__ int mix(int a, unsigned b, float c, long long d, int e) {
  return a * 3 + (int)(b >> 1) + (int)(c * 4.0f) + (int)(d % 1000) - e;
}

// Struct returned by value.
__device__ __noinline__ Pair min_max(const int* p, int n) {
  Pair r{p[0], p[0]};
  for (int i = 1; i < n; ++i) {
    r.lo = min(r.lo, p[i]);
    r.hi = max(r.hi, p[i]);
  }
  return r;
}

// Struct taken by value.
__device__ __noinline__ int span(Pair p, int scale) {
  return (p.hi - p.lo) * scale;
}

__device__ __noinline__ double dmix(double x, double y, float z) {
  return x * y + (double)z;
}

// Writes through a pointer into the caller's local (stack) array.
__device__ __noinline__ void fill_squares(int* buf, int n, int seed) {
  for (int i = 0; i < n; ++i) buf[i] = (seed + i) * (seed + i);
}

// Recursive: out[k] = k! for k = 1..n. The store after the call keeps it from becoming a loop.
__device__ __noinline__ unsigned long long factorial(unsigned n, unsigned long long* out) {
  if (n <= 1) {
    out[n] = 1;
    return 1;
  }
  unsigned long long f = n * factorial(n - 1, out);
  out[n] = f;
  return f;
}

// Doubly recursive Fibonacci: fib(0) = 0, fib(1) = 1.
__device__ __noinline__ int fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

// Per thread t (v = in[t]):
//   out_i[t*8 + 0] = mix(v, t, v * 0.5f, v * 1000003LL, t)
//   out_i[t*8 + 1] = span(min_max(in + t, min(4, n - t)), 3)
//   out_i[t*8 + 2] = fib(t % 16)
//   out_i[t*8 + 3] = sum over i < 8 of (v + i)^2, computed via fill_squares on a local array
//   out_i[t*8 + 4] = the local array's entry selected by v & 7
//   out_d[t]        = dmix(v, 0.25, t)
//   facts[t*21 + k] = k! for k = 1..(t % 21), by recursion; facts[t*21] = 1 only when
//   t % 21 == 0 (factorial(0) stores 0! there); the other slots are left as they were
extern "C" __global__ void device_calls(const int* in, int n, int* out_i, double* out_d,
                                        unsigned long long* facts) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int v = in[t];
  out_i[t * 8 + 0] = mix(v, (unsigned)t, v * 0.5f, v * 1000003LL, t);
  Pair p = min_max(in + t, min(4, n - t));
  out_i[t * 8 + 1] = span(p, 3);
  out_i[t * 8 + 2] = fib(t % 16);
  int squares[8];
  fill_squares(squares, 8, v);
  int sum = 0;
  for (int i = 0; i < 8; ++i) sum += squares[i];
  out_i[t * 8 + 3] = sum;
  out_i[t * 8 + 4] = squares[v & 7];
  out_d[t] = dmix((double)v, 0.25, (float)t);
  factorial((unsigned)(t % 21), facts + t * 21);
}
