#include "models/gigathread/channel.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/common/picoseconds.h"
#include "models/common/timeline.h"
#include "models/gigathread/channel_registers.h"
#include "models/gigathread/memory_port.h"
#include "models/gigathread/packet_names.h"
#include "models/pcie/bar0_map.h"

namespace gpusoc::gigathread {

using cmd::ErrorCode;

Channel::Channel(sc_core::sc_module_name name, uint32_t index, CommandServices& services,
                 StatGroup& stats_parent)
    : sc_module(name),
      index_(index),
      services_(services),
      stats_(stats_parent, basename()),
      log_(logger(this->name())),
      regs_(fmt::format("Channel {}", index), channel_register_specs()),
      executor_(index, services, StatPair(stats_, services.total), epoch_, epoch_changed_) {
  batch_.reserve(services.config.fetch_batch_packets);
  regs_.on_read(bar0::CH_GET, [this] { return get_; });
  regs_.on_read(bar0::CH_STATUS, [this] { return status(); });
  regs_.on_write(bar0::CH_DOORBELL, [this](uint32_t) {
    doorbell_pending_ = true;
    doorbell_while_disabled_ = doorbell_while_disabled_ || !enabled_;
    doorbell_time_ = sc_core::sc_time_stamp() + access_delay_;
    doorbell_.notify(access_delay_);
  });
  regs_.on_write(bar0::CH_ERROR_CLEAR, [this](uint32_t value) {
    if (value & 1) {
      regs_.set(bar0::CH_ERROR, 0);
      regs_.set(bar0::CH_ERROR_GET, 0);
    }
  });
  regs_.on_write(bar0::CH_CONTROL, [this](uint32_t value) { on_control(value); });
  // Error responses (unmapped offsets, bad sizes) are flagged by the host interface that
  // forwarded the access; a write to a read-only register is answered OK, so it is ours.
  regs_.on_fault([this](RegisterFault fault, uint32_t offset) {
    if (fault == RegisterFault::ReadOnlyWrite) {
      services_.interrupts->report_mmio_fault(bar0::kErrorReadOnlyWrite,
                                              bar0::channel_offset(index_, offset));
    }
  });
  SC_HAS_PROCESS(Channel);
  SC_THREAD(run);
}

void Channel::access(tlm::tlm_generic_payload& tx, const sc_core::sc_time& delay) {
  access_delay_ = delay;
  regs_.access(tx);
}

void Channel::on_control(uint32_t value) {
  const bool enable = value & 1;
  regs_.set(bar0::CH_CONTROL, enable ? 1 : 0);
  if (enable == enabled_) return;
  enabled_ = enable;
  ++epoch_;
  epoch_changed_.notify(sc_core::SC_ZERO_TIME);
  if (enable) {
    const uint64_t high = regs_.read(bar0::CH_RING_BASE_HI);
    ring_base_ = high << 32 | regs_.read(bar0::CH_RING_BASE_LO);
    ring_size_ = regs_.read(bar0::CH_RING_SIZE);
    get_ = 0;
    fetch_stopped_ = false;
  }
}

void Channel::stop() {
  on_control(0);
  doorbell_pending_ = doorbell_while_disabled_ = false;
  doorbell_.cancel();
}

void Channel::reset() {
  regs_.reset();
  fetch_stopped_ = false;
  ring_base_ = 0;
  ring_size_ = 0;
  get_ = 0;
}

uint32_t Channel::status() const {
  const bool pending = enabled_ && !fetch_stopped_ && regs_.read(bar0::CH_PUT) != get_;
  return (busy_ || pending ? bar0::kChannelBusy : 0) |
         (regs_.read(bar0::CH_ERROR) != 0 ? bar0::kChannelError : 0) |
         (enabled_ ? bar0::kChannelEnabled : 0);
}

void Channel::run() {
  for (;;) {
    if (!doorbell_pending_) sc_core::wait(doorbell_);
    if (sc_core::sc_time_stamp() < doorbell_time_)
      sc_core::wait(doorbell_time_ - sc_core::sc_time_stamp());
    if (!doorbell_pending_) continue;  // stopped by a reset meanwhile
    doorbell_pending_ = false;
    service();
  }
}

std::string Channel::ring_problem(uint32_t put) const {
  if (ring_size_ < kMinRingBytes || ring_size_ > kMaxRingBytes ||
      (ring_size_ & (ring_size_ - 1)) != 0) {
    return fmt::format(
        "CH_RING_SIZE {} (latched when the channel was enabled) is not a power of "
        "two from {} to {} bytes",
        ring_size_, kMinRingBytes, kMaxRingBytes);
  }
  if (ring_base_ % sizeof(cmd::Packet) != 0) {
    return fmt::format(
        "CH_RING_BASE 0x{:x} (latched when the channel was enabled) is not "
        "64-byte aligned",
        ring_base_);
  }
  if (put % sizeof(cmd::Packet) != 0 || put >= ring_size_) {
    return fmt::format("CH_PUT 0x{:x} is not a multiple of 64 below CH_RING_SIZE ({} bytes)", put,
                       ring_size_);
  }
  return "";
}

void Channel::service() {
  busy_ = true;  // from here: the error below writes its text to host memory, which takes time
  if (doorbell_while_disabled_) {
    doorbell_while_disabled_ = false;
    record_error(ErrorCode::InvalidPacket, get_,
                 fmt::format("channel {}: doorbell rung while the channel is disabled "
                             "(CH_CONTROL bit 0 is 0); nothing was fetched",
                             index_));
  }
  const uint64_t epoch = epoch_;
  while (enabled_ && epoch_ == epoch && !fetch_stopped_) {
    const uint32_t put = regs_.read(bar0::CH_PUT);
    if (const std::string problem = ring_problem(put); !problem.empty()) {
      record_error(ErrorCode::InvalidPacket, get_,
                   fmt::format("channel {}: {}; nothing was fetched", index_, problem));
      break;
    }
    if (put == get_) break;
    // One read up to PUT or the end of the ring, whichever comes first.
    const uint32_t first = get_;
    const uint32_t contiguous = (put > first ? put : ring_size_) - first;
    const uint32_t count =
        std::min<uint32_t>(contiguous / sizeof(cmd::Packet), services_.config.fetch_batch_packets);
    batch_.resize(count);
    const uint64_t address = ring_base_ + first;
    const tlm::tlm_response_status s =
        services_.host.read(address, batch_.data(), uint64_t(count) * sizeof(cmd::Packet));
    // Disabled (and perhaps enabled again, GET back to 0) while the read was under way: the
    // batch belongs to the old ring.
    if (epoch_ != epoch) break;
    if (s != tlm::TLM_OK_RESPONSE) {
      fetch_stopped_ = true;
      record_error(ErrorCode::HostAccessFault, first,
                   fmt::format("channel {}: fetching {} packets at host 0x{:x} (ring offset "
                               "0x{:x}) failed: {}; the channel stops fetching until it is "
                               "enabled again",
                               index_, count, address, first, response_text(s)));
      break;
    }
    get_ = (first + count * uint32_t(sizeof(cmd::Packet))) & (ring_size_ - 1);
    for (uint32_t i = 0; i < count && epoch_ == epoch; ++i) {
      execute(batch_[i], first + i * uint32_t(sizeof(cmd::Packet)));
    }
  }
  busy_ = false;
}

void Channel::execute(const cmd::Packet& packet, uint32_t offset) {
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const uint64_t epoch = epoch_;
  sc_core::wait(services_.config.packet_time);
  if (epoch_ != epoch) return;  // disabled (or stopped by a reset) while decoding
  StatPair(stats_, services_.total).add_packet(packet.opcode);
  const PacketResult r = executor_.execute(packet);
  if (r.error != ErrorCode::None) {
    record_error(r.error, offset,
                 fmt::format("channel {}, packet at ring offset 0x{:x} ({}): {}", index_, offset,
                             opcode_name(packet.opcode), r.message));
  }
  if (packet.flags & cmd::kFlagInterrupt) services_.interrupts->raise(bar0::kIntrFence);
  if (Timeline* t = Timeline::active()) {
    const Picoseconds ps;
    t->span(t->track("command processor", fmt::format("channel {}", index_)),
            opcode_name(packet.opcode), ps.of(start), ps.now(),
            r.error == ErrorCode::None ? std::string_view() : error_name(r.error));
  }
}

void Channel::record_error(ErrorCode code, uint32_t offset, const std::string& message) {
  StatPair(stats_, services_.total).add(&CommandStats::errors);
  log_->warn("{}: {}", error_name(code), message);
  if (regs_.read(bar0::CH_ERROR) == uint32_t(ErrorCode::None)) {
    // The text is in host memory before CH_ERROR says there is an error.
    write_error_log(fmt::format("{}: {}", error_name(code), message));
    regs_.set(bar0::CH_ERROR, uint32_t(code));
    regs_.set(bar0::CH_ERROR_GET, offset);
  }
  services_.interrupts->report_error(bar0::kErrorChannel);
}

void Channel::write_error_log(const std::string& message) {
  const uint64_t address =
      regs_.read(bar0::CH_ERROR_LOG_LO) | uint64_t(regs_.read(bar0::CH_ERROR_LOG_HI)) << 32;
  const uint32_t size = regs_.read(bar0::CH_ERROR_LOG_SIZE);
  if (address == 0 || size == 0) return;
  std::string text = message.substr(0, size - 1);
  text.push_back('\0');
  const tlm::tlm_response_status s = services_.host.write(address, text.data(), text.size());
  if (s != tlm::TLM_OK_RESPONSE) {
    log_->warn("channel {}: writing the error log at host 0x{:x} failed: {}", index_, address,
               response_text(s));
  }
}

}  // namespace gpusoc::gigathread
