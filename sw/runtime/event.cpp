#include "sw/runtime/event.h"

#include <cstring>

#include <fmt/format.h>

#include "sw/runtime/context.h"

namespace gpusoc::rt {

Event::Event(std::shared_ptr<Context> ctx) : ctx_(std::move(ctx)) {
  const PinnedMemory::Block b = ctx_->pinned().allocate(sizeof(cmd::SemaphoreRecord));
  address_ = b.address;
  record_ = b.pointer;
}

Event::Event(Event&& other) noexcept {
  *this = std::move(other);
}

Event& Event::operator=(Event&& other) noexcept {
  if (this != &other) {
    release();
    ctx_ = std::move(other.ctx_);
    address_ = other.address_;
    record_ = other.record_;
    target_ = other.target_;
    sequence_ = other.sequence_;
    channel_ = other.channel_;
    stream_ = other.stream_;
    uses_ = std::move(other.uses_);
  }
  return *this;
}

Event::~Event() {
  release();
}

void Event::release() noexcept {
  if (!ctx_) return;
  ctx_->release_pinned_after(address_, std::move(uses_));  // the GPU may still use the record
  uses_.clear();
  ctx_.reset();
}

void Event::note_use(uint32_t channel, uint64_t sequence) const {
  for (auto& use : uses_) {
    if (use.first == channel) {
      use.second = sequence;
      return;
    }
  }
  uses_.emplace_back(channel, sequence);
}

void Event::check() const {
  if (!ctx_) {
    throw Error(Status::InvalidHandle, "event: empty handle (moved-from or default-constructed)");
  }
}

uint64_t Event::value() const {
  cmd::SemaphoreRecord r;
  std::memcpy(&r, record_, sizeof r);
  return r.value;
}

bool Event::query() const {
  check();
  return value() >= target_;
}

void Event::synchronize() {
  check();
  if (target_ == 0) return;
  Channel& ch = ctx_->channel(channel_);
  ch.wait(sequence_, fmt::format("event recorded on stream {}", stream_));
  ctx_->report(ch);
}

uint64_t Event::timestamp_ps() const {
  check();
  if (target_ == 0) throw Error(Status::InvalidHandle, "event: never recorded");
  if (value() < target_) {
    throw Error(Status::NotReady,
                fmt::format("event recorded on stream {} has not completed", stream_));
  }
  cmd::SemaphoreRecord r;
  std::memcpy(&r, record_, sizeof r);
  return r.timestamp_ps;
}

double Event::elapsed_ms(const Event& start, const Event& end) {
  const uint64_t t0 = start.timestamp_ps(), t1 = end.timestamp_ps();
  return (double(t1) - double(t0)) / 1e9;
}

}  // namespace gpusoc::rt
