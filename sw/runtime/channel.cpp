#include "sw/runtime/channel.h"

#include <cstring>

#include <fmt/format.h>

#include "models/pcie/bar0_map.h"
#include "sw/runtime/commands.h"

namespace gpusoc::rt {

Error ChannelFault::to_error(uint32_t channel) const {
  std::string message = what.empty() ? fmt::format("channel {}", channel) : what;
  message += fmt::format(": the GPU reported {}", channel_error_name(code));
  // The GPU's text begins with what this message says already: the error's name, then the
  // channel and the packet ("LaunchFailed: channel 0, packet at ring offset 0x480 (Launch): ").
  std::string text = log;
  const std::string name = std::string(channel_error_name(code)) + ": ";
  if (text.rfind(name, 0) == 0) text.erase(0, name.size());
  const std::string packet = fmt::format("channel {}, packet at ring offset {:#x} (", channel,
                                         ring_offset);
  if (const size_t end = text.find("): "); text.rfind(packet, 0) == 0 && end != std::string::npos)
    text.erase(0, end + 3);
  if (!text.empty()) message += ": " + text;
  message += fmt::format(" (channel {}, ring offset {:#x})", channel, ring_offset);
  return Error(status_from_channel_error(code), message);
}

Channel::Channel(Bar0& bar0, InterruptWaiter& waiter, PinnedMemory& pinned, uint32_t index,
                 const ChannelSizes& sizes)
    : bar0_(bar0),
      waiter_(waiter),
      pinned_(pinned),
      index_(index),
      fence_(pinned.allocate(sizeof(uint64_t))),
      log_(pinned.allocate(sizes.error_log_bytes)),
      ring_block_(pinned.allocate(sizes.ring_bytes)),
      ring_(bar0, waiter, index, ring_block_, sizes.packet_write_time) {}

Channel::~Channel() {
  try {
    for (const Retained& r : retained_) pinned_.free(r.address);
    pinned_.free(ring_block_.address);
    pinned_.free(log_.address);
    pinned_.free(fence_.address);
  } catch (const Error&) {
    // Only reachable through a bookkeeping bug; a destructor must not throw.
  }
}

uint32_t Channel::reg(uint32_t offset) const {
  return bar0::channel_offset(index_, offset);
}

void Channel::enable() {
  bar0_.write(reg(bar0::CH_CONTROL), 0);
  ring_.program();
  bar0_.write64(reg(bar0::CH_ERROR_LOG_LO), log_.address);
  bar0_.write(reg(bar0::CH_ERROR_LOG_SIZE), uint32_t(log_.bytes));
  bar0_.write(reg(bar0::CH_ERROR_CLEAR), 1);
  std::memcpy(fence_.pointer, &issued_, sizeof issued_);  // everything before counts as done
  interrupting_ = issued_;
  bar0_.write(reg(bar0::CH_CONTROL), 1);
  const uint32_t status = bar0_.read(reg(bar0::CH_STATUS));
  if (!(status & bar0::kChannelEnabled)) {
    throw Error(
        Status::InvalidDevice,
        fmt::format("channel {} does not report itself enabled (CH_STATUS {:#x})", index_, status));
  }
}

void Channel::disable() {
  bar0_.write(reg(bar0::CH_CONTROL), 0);
}

uint64_t Channel::submit(std::initializer_list<cmd::Packet> packets, const std::string& what,
                         std::vector<uint64_t> retained, bool interrupt,
                         std::function<void()> on_complete) {
  reclaim();
  for (const cmd::Packet& p : packets) ring_.push(p, what);
  const uint64_t sequence = issued_ + 1;
  ring_.push(commands::fence(fence_.address, sequence, interrupt ? cmd::kFlagInterrupt : 0), what);
  issued_ = sequence;
  if (interrupt) interrupting_ = sequence;
  ring_.ring_doorbell();
  for (const uint64_t address : retained) retained_.push_back({sequence, address, on_complete});
  return sequence;
}

uint64_t Channel::completed() const {
  uint64_t value = 0;
  std::memcpy(&value, fence_.pointer, sizeof value);  // written by the GPU's DMA
  return value;
}

void Channel::reclaim() {
  const uint64_t done = completed();
  while (!retained_.empty() && retained_.front().sequence <= done) {
    const Retained r = std::move(retained_.front());
    retained_.pop_front();
    if (r.on_complete) r.on_complete();  // reads the block: before it is freed
    pinned_.free(r.address);
  }
}

void Channel::push_interrupting_fence(const std::string& why) {
  ring_.push(commands::fence(fence_.address, issued_ + 1, cmd::kFlagInterrupt), why);
  interrupting_ = ++issued_;
  ring_.ring_doorbell();
}

bool Channel::stopped_by_error() {
  // A channel that recorded an error and went idle without reaching our fence will not reach it.
  const uint32_t status = bar0_.read(reg(bar0::CH_STATUS));
  return (status & bar0::kChannelError) && !(status & bar0::kChannelBusy);
}

void Channel::wait(uint64_t sequence, const std::string& who) {
  for (;;) {
    if (completed() >= sequence) return;
    if (interrupting_ < sequence) push_interrupting_fence(who + ": synchronize");
    const auto outcome =
        waiter_.wait([&] { return completed() >= sequence; }, [&] { return stopped_by_error(); });
    if (outcome == InterruptWaiter::Outcome::Done) return;
    check_errors();
    if (outcome == InterruptWaiter::Outcome::TimedOut) {
      const uint32_t get = bar0_.read(reg(bar0::CH_GET));
      const std::string& stuck = ring_.what_at(get);
      throw Error(Status::Timeout,
                  fmt::format("{}: channel {} did not complete operation {} within {} of "
                              "simulated time (it completed {}; GET {:#x}{}, PUT {:#x}, CH_STATUS "
                              "{:#x})",
                              who, index_, sequence, waiter_.timeout().to_string(), completed(),
                              get, stuck.empty() ? "" : " at '" + stuck + "'", ring_.put(),
                              bar0_.read(reg(bar0::CH_STATUS))));
    }
  }
}

std::optional<ChannelFault> Channel::take_error() {
  // An operation's error is recorded before its fence is written: reading CH_STATUS after the
  // fence word covers every operation up to that value.
  checked_ = completed();
  const uint32_t status = bar0_.read(reg(bar0::CH_STATUS));
  if (!(status & bar0::kChannelError)) return std::nullopt;
  // What had not completed failed or was dropped: its records are not to be read, and whoever
  // waits for it is about to get this error (and may unwind what the records were for).
  reclaim();
  for (Retained& r : retained_) r.on_complete = nullptr;
  ChannelFault fault;
  fault.code = static_cast<cmd::ErrorCode>(bar0_.read(reg(bar0::CH_ERROR)));
  fault.ring_offset = bar0_.read(reg(bar0::CH_ERROR_GET));
  fault.what = ring_.what_at(fault.ring_offset);
  const char* text = reinterpret_cast<const char*>(log_.pointer);
  fault.log.assign(text, strnlen(text, log_.bytes));
  while (!fault.log.empty() && (fault.log.back() == '\n' || fault.log.back() == ' ')) {
    fault.log.pop_back();
  }
  std::memset(log_.pointer, 0, log_.bytes);  // the next error's text starts clean
  bar0_.write(reg(bar0::CH_ERROR_CLEAR), 1);
  bar0_.write(bar0::ERROR_CLEAR, bar0::kErrorChannel);
  if (completed() < issued_ && !(bar0_.read(reg(bar0::CH_STATUS)) & bar0::kChannelBusy)) {
    recover_dropped_work();
  }
  return fault;
}

void Channel::recover_dropped_work() {
  // The channel stopped at its error and will not run what follows: restart it on an empty
  // ring and count the dropped operations as done (they failed with the error being reported).
  enable();
  reclaim();
}

void Channel::check_errors() {
  if (auto fault = take_error()) throw fault->to_error(index_);
}

void Channel::check_new_errors() {
  if (completed() != checked_) check_errors();
}

}  // namespace gpusoc::rt
