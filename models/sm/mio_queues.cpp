#include "models/sm/mio_queues.h"

#include <algorithm>

#include "models/ptx/inst.h"

namespace gpusoc::sm {

MioQueues::MioQueues(uint32_t blocks, uint32_t depth, uint32_t lanes_per_block)
    : depth_(depth),
      pipe_interval_(std::max(1u, (ptx::kWarpSize + lanes_per_block * blocks - 1) /
                                      std::max(1u, lanes_per_block * blocks))),
      queued_(blocks) {}

uint64_t MioQueues::room_at(uint32_t block, uint64_t now) {
  std::deque<uint64_t>& q = queued_[block];
  while (!q.empty() && q.front() <= now) q.pop_front();  // taken by the pipe
  return q.size() < depth_ ? now : q.front();
}

uint64_t MioQueues::enqueue(uint32_t block, uint64_t now, uint64_t not_before) {
  const uint64_t dispatch = std::max({now, not_before, pipe_free_});
  pipe_free_ = dispatch + pipe_interval_;
  if (dispatch > now) queued_[block].push_back(dispatch);
  return dispatch;
}

}  // namespace gpusoc::sm
