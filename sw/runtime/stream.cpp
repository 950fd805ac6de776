#include "sw/runtime/stream.h"

#include <fmt/format.h>

#include "sw/runtime/api_span.h"
#include "sw/runtime/commands.h"
#include "sw/runtime/context.h"

namespace gpusoc::rt {

Stream::Stream(std::shared_ptr<Context> ctx, uint32_t id, uint32_t channel)
    : ctx_(std::move(ctx)),
      id_(id),
      channel_(channel),
      who_(id == 0 ? "stream 0 (default)" : fmt::format("stream {}", id)) {}

Context& Stream::ctx() const {
  if (!ctx_) {
    throw Error(Status::InvalidHandle, "stream: empty handle (moved-from or default-constructed)");
  }
  return *ctx_;
}

void Stream::memcpy_htod(DevicePtr dst, const void* src, uint64_t bytes) {
  Context& c = ctx();
  const ApiSpan span(c.bus(), "memcpy_htod_async", std::to_string(bytes) + " bytes, " + who_);
  c.memcpy_htod(c.channel(channel_), who_, dst, src, bytes, /*wait=*/false);
}

void Stream::memcpy_dtoh(void* dst, DevicePtr src, uint64_t bytes) {
  Context& c = ctx();
  const ApiSpan span(c.bus(), "memcpy_dtoh_async", std::to_string(bytes) + " bytes, " + who_);
  c.memcpy_dtoh(c.channel(channel_), who_, dst, src, bytes, /*wait=*/false);
}

void Stream::memcpy_dtod(DevicePtr dst, DevicePtr src, uint64_t bytes) {
  Context& c = ctx();
  const ApiSpan span(c.bus(), "memcpy_dtod_async", std::to_string(bytes) + " bytes, " + who_);
  c.memcpy_dtod(c.channel(channel_), who_, dst, src, bytes, /*wait=*/false);
}

void Stream::memset_d8(DevicePtr dst, uint8_t value, uint64_t count) {
  Context& c = ctx();
  c.memset(c.channel(channel_), who_, dst, value, 1, count, /*wait=*/false);
}

void Stream::memset_d16(DevicePtr dst, uint16_t value, uint64_t count) {
  Context& c = ctx();
  c.memset(c.channel(channel_), who_, dst, value, 2, count, /*wait=*/false);
}

void Stream::memset_d32(DevicePtr dst, uint32_t value, uint64_t count) {
  Context& c = ctx();
  c.memset(c.channel(channel_), who_, dst, value, 4, count, /*wait=*/false);
}

void Stream::launch(const Kernel& kernel, const LaunchConfig& config, const KernelArgs& args) {
  Context& c = ctx();
  const ApiSpan span(c.bus(), "launch", kernel.info().name + ", " + who_);
  c.launch(c.channel(channel_), who_, kernel.info(), config, args);
}

void Stream::record(Event& event) {
  Context& c = ctx();
  const ApiSpan span(c.bus(), "event_record", who_);
  event.check();
  if (event.ctx_ != ctx_)
    throw Error(Status::InvalidHandle, "record: the event is of another device");
  if (event.target_ != 0 && !event.query()) {
    // Still pending: a record elsewhere could land after this one; start a fresh semaphore.
    c.release_pinned_after(event.address_, std::move(event.uses_));
    event.uses_.clear();
    const PinnedMemory::Block b = c.pinned_temporary(sizeof(cmd::SemaphoreRecord));
    event.address_ = b.address;
    event.record_ = b.pointer;
  }
  Channel& ch = c.channel(channel_);
  const uint64_t value = event.target_ + 1;
  event.sequence_ = ch.submit({commands::sem_release(event.address_, value)},
                              who_ + ": event record", {}, /*interrupt=*/true);
  event.target_ = value;
  event.channel_ = channel_;
  event.stream_ = id_;
  event.note_use(channel_, event.sequence_);
}

void Stream::wait(const Event& event) {
  Context& c = ctx();
  const ApiSpan span(c.bus(), "stream_wait_event", who_);
  event.check();
  if (event.ctx_ != ctx_)
    throw Error(Status::InvalidHandle, "wait: the event is of another device");
  if (event.target_ == 0) return;  // never recorded: nothing to wait for (as CUDA)
  Channel& ch = c.channel(channel_);
  const uint64_t sequence = ch.submit(
      {commands::sem_acquire(event.address_, event.target_, c.options().semaphore_poll_ns)},
      fmt::format("{}: wait for an event recorded on stream {}", who_, event.stream_));
  event.note_use(channel_, sequence);
}

void Stream::synchronize() {
  Context& c = ctx();
  const ApiSpan span(c.bus(), "stream_synchronize", who_);
  c.finish(c.channel(channel_), who_);
}

bool Stream::query() const {
  return ctx().channel(channel_).idle();
}

}  // namespace gpusoc::rt
