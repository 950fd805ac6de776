// The SIMT deadlock example: threads 0 and 1 of a warp spin on a flag that threads 2 and 3 of
// the same warp set. Under independent thread scheduling (Volta and later) the warp switches
// between its two paths and the kernel completes; under a reconvergence stack (pre-Volta) the
// spinning path runs alone forever.
//
// The setters are written in the `if` and the spinners in the `else` on purpose: nvcc (13.0,
// -O3, sm_80) then makes the setters the TAKEN side of the divergent branch and the spin loop
// the FALL-THROUGH side, which a reconvergence stack runs first, so that it really deadlocks.
// (Written the other way round, nvcc lays the spin loop out as the taken side, the setters run
// first, and even a stack completes.)

// flag: one int, 0 before the launch. out[tid]: 100 + tid for spinners, 200 + tid for setters.
extern "C" __global__ void spin_wait(volatile int* flag, int* out) {
  int tid = threadIdx.x;
  if (tid >= 2) {
    *flag = 1;
    out[tid] = 200 + tid;
  } else {
    while (*flag == 0) {
    }
    out[tid] = 100 + tid;
  }
}
