// Events (cuEvent): a point in a stream's work, recorded with Stream::record. The GPU writes the
// event's semaphore record {value, timestamp} in pinned memory when every earlier operation of
// the stream has completed, so two events give the simulated time between them. Move-only.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace gpusoc::rt {

class Context;

class Event {
 public:
  Event() = default;
  explicit Event(std::shared_ptr<Context> ctx);
  Event(Event&& other) noexcept;
  Event& operator=(Event&& other) noexcept;
  ~Event();

  /// True when the last record has completed, or when the event was never recorded (as
  /// cudaEventQuery); false while it is pending.
  bool query() const;
  /// Waits for the last record; then reports an error recorded by its stream's channel.
  void synchronize();
  /// Simulated time at which the last record completed: Error(NotReady) while pending,
  /// Error(InvalidHandle) when never recorded.
  uint64_t timestamp_ps() const;
  /// Simulated milliseconds from `start` to `end` (both recorded and complete).
  static double elapsed_ms(const Event& start, const Event& end);

  bool valid() const { return ctx_ != nullptr; }

 private:
  friend class Stream;
  void check() const;
  uint64_t value() const;  // the semaphore value the GPU last wrote
  void note_use(uint32_t channel, uint64_t sequence) const;
  void release() noexcept;

  std::shared_ptr<Context> ctx_;
  uint64_t address_ = 0;  // pinned cmd::SemaphoreRecord
  uint8_t* record_ = nullptr;
  uint64_t target_ = 0;    // value of the last record (0: never recorded)
  uint64_t sequence_ = 0;  // the record's operation on its channel
  uint32_t channel_ = 0;
  uint32_t stream_ = 0;
  // The last operation on each channel that reads or writes the record: it is freed after them.
  mutable std::vector<std::pair<uint32_t, uint64_t>> uses_;
};

}  // namespace gpusoc::rt
