// Divergence and reconvergence, made observable.
//
// divergence_trace: every thread appends tags to its own slots as it runs through nested
// if/else, a divergent loop and their joins, and beside each tag the __activemask() at that point
// (which lanes of the warp were executing it together).
//
// divergence_order: every event takes a ticket from one global counter with atomicAdd, so the
// order in which the divergent paths of a warp ran is visible in the tickets.
//
// Branch decisions come from the input word v of each thread:
//   bit 0: outer if/else, bit 1: inner if/else on the then side, bit 2: inner on the else side,
//   bits 3-4: trip count of the loop (0..3).

#define TRACE_SLOTS 16

struct Trace {
  unsigned* tags;
  unsigned* masks;
  int n;
};

__device__ __forceinline__ void record(Trace& t, unsigned tag) {
  t.tags[t.n] = tag;
  t.masks[t.n] = __activemask();
  ++t.n;
}

// tags/masks: TRACE_SLOTS per thread; counts[tid]: how many were written.
extern "C" __global__ void divergence_trace(const unsigned* input, unsigned* tags, unsigned* masks,
                                            int* counts) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = input[tid];
  Trace t{tags + tid * TRACE_SLOTS, masks + tid * TRACE_SLOTS, 0};
  record(t, 1);  // entry
  if (v & 1) {
    record(t, 10);
    if (v & 2) {
      record(t, 11);
    } else {
      record(t, 12);
    }
    record(t, 13);  // inner join (then side)
  } else {
    record(t, 20);
    if (v & 4) {
      record(t, 21);
    } else {
      record(t, 22);
    }
    record(t, 23);  // inner join (else side)
  }
  record(t, 2);  // outer join
  unsigned trips = (v >> 3) & 3;
  for (unsigned i = 0; i < trips; ++i) record(t, 30 + i);
  record(t, 3);  // after the loop
  counts[tid] = t.n;
}

// Event slots in seq (ORDER_SLOTS per thread; the host fills them with 0xFFFFFFFF first):
//   0 entry, 1 outer then, 2 then/then, 3 then/else, 4 then join,
//   5 outer else, 6 else/then, 7 else/else, 8 else join, 9 outer join.
#define ORDER_SLOTS 10

// The empty volatile asm statements are fences for the optimizer: without them nvcc hoists the
// identical atomics out of both sides of each if/else (or sinks them into the join), and the
// branches would no longer be divergent paths that take tickets.
__device__ __forceinline__ void ticket(unsigned* counter, unsigned* seq, int slot) {
  asm volatile("" ::: "memory");
  seq[slot] = atomicAdd(counter, 1u);
  asm volatile("" ::: "memory");
}

extern "C" __global__ void divergence_order(const unsigned* input, unsigned* counter,
                                            unsigned* seq_all) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = input[tid];
  unsigned* seq = seq_all + tid * ORDER_SLOTS;
  ticket(counter, seq, 0);
  if (v & 1) {
    ticket(counter, seq, 1);
    if (v & 2) {
      ticket(counter, seq, 2);
    } else {
      ticket(counter, seq, 3);
    }
    ticket(counter, seq, 4);
  } else {
    ticket(counter, seq, 5);
    if (v & 4) {
      ticket(counter, seq, 6);
    } else {
      ticket(counter, seq, 7);
    }
    ticket(counter, seq, 8);
  }
  ticket(counter, seq, 9);
}
