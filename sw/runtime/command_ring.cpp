#include "sw/runtime/command_ring.h"

#include <fmt/format.h>

#include "models/pcie/bar0_map.h"
#include "sw/runtime/commands.h"
#include "sw/runtime/status.h"

namespace gpusoc::rt {

CommandRing::CommandRing(Bar0& bar0, InterruptWaiter& waiter, uint32_t channel,
                         PinnedMemory::Block ring, sc_core::sc_time packet_write_time)
    : bar0_(bar0),
      waiter_(waiter),
      channel_(channel),
      ring_(ring),
      packet_write_time_(packet_write_time) {
  const uint64_t bytes = ring.bytes;
  if (bytes < 2 * kPacketBytes || (bytes & (bytes - 1)) != 0 || bytes > (1u << 24) ||
      ring.address % kPacketBytes != 0) {
    throw Error(Status::InvalidValue,
                fmt::format("channel {}: ring of {} bytes at {:#x}: the size must be a power of "
                            "two from 128 B to 16 MiB and the base 64-byte aligned",
                            channel, bytes, ring.address));
  }
  what_.resize(bytes / kPacketBytes);
}

void CommandRing::program() {
  bar0_.write64(bar0::channel_offset(channel_, bar0::CH_RING_BASE_LO), ring_.address);
  bar0_.write(bar0::channel_offset(channel_, bar0::CH_RING_SIZE), uint32_t(ring_.bytes));
  bar0_.write(bar0::channel_offset(channel_, bar0::CH_PUT), 0);
  put_ = published_ = get_ = 0;
}

uint32_t CommandRing::free_slots() const {
  const uint32_t size = uint32_t(ring_.bytes);
  const uint32_t used = (put_ - get_ + size) & (size - 1);
  return (size - used) / kPacketBytes - 1;
}

void CommandRing::push(const cmd::Packet& packet, const std::string& what) {
  if (free_slots() == 0) {
    get_ = bar0_.read(bar0::channel_offset(channel_, bar0::CH_GET));
    if (free_slots() == 0) {
      // The GPU fetches only what it was told about; then wait for it to make room.
      if (published_ != put_) ring_doorbell();
      const auto outcome = waiter_.wait(
          [&] {
            get_ = bar0_.read(bar0::channel_offset(channel_, bar0::CH_GET));
            return free_slots() > 0;
          },
          {}, /*poll=*/true);
      if (outcome == InterruptWaiter::Outcome::TimedOut) {
        throw Error(Status::Timeout,
                    fmt::format("channel {}: the ring stayed full for {} (GET {:#x}, PUT {:#x})",
                                channel_, waiter_.timeout().to_string(), get_, put_));
      }
    }
  }
  commands::encode(packet, ring_.pointer + put_);
  what_[put_ / kPacketBytes] = what;
  put_ = (put_ + kPacketBytes) & uint32_t(ring_.bytes - 1);
  bar0_.bus().compute(packet_write_time_);
}

void CommandRing::ring_doorbell() {
  bar0_.write(bar0::channel_offset(channel_, bar0::CH_PUT), put_);
  bar0_.write(bar0::channel_offset(channel_, bar0::CH_DOORBELL), 1);
  published_ = put_;
}

const std::string& CommandRing::what_at(uint32_t offset) const {
  static const std::string unknown;
  if (offset >= ring_.bytes || offset % kPacketBytes != 0) return unknown;
  return what_[offset / kPacketBytes];
}

}  // namespace gpusoc::rt
