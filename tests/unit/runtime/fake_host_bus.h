// A HostBus without SystemC for the runtime's unit tests: host DRAM is a std::vector, BAR0 is a
// map of 32-bit registers with optional read hooks, every register write is logged, and
// wait_for_interrupt() calls a hook in which the test plays the GPU (consumes packets, writes
// fence words, raises errors). Time is a plain counter advanced by compute() and waits.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "models/host/host_bus.h"

namespace gpusoc::rt::testing {

class FakeHostBus : public host::HostBus {
 public:
  static constexpr uint64_t kBar0 = 0x40'0000'0000;

  explicit FakeHostBus(uint64_t memory_bytes = 1 << 20) : dram_(memory_bytes, 0) {
    map_.memory_base = 0x1'0000'0000;
    map_.memory_bytes = memory_bytes;
  }

  // ---- HostBus ----
  void read(uint64_t address, void* data, size_t bytes) override {
    if (bytes != 4 || address < kBar0) throw host::HostBusError("fake bus: unexpected read");
    const uint32_t offset = uint32_t(address - kBar0);
    ++reads[offset];
    const auto hook = read_hooks.find(offset);
    const uint32_t v = hook != read_hooks.end() ? hook->second() : regs[offset];
    std::memcpy(data, &v, 4);
  }
  void write(uint64_t address, const void* data, size_t bytes) override {
    if (bytes != 4 || address < kBar0) throw host::HostBusError("fake bus: unexpected write");
    uint32_t v = 0;
    std::memcpy(&v, data, 4);
    const uint32_t offset = uint32_t(address - kBar0);
    writes.emplace_back(offset, v);
    regs[offset] = v;
  }
  uint8_t* memory(uint64_t address, size_t bytes) override {
    if (address < map_.memory_base || address - map_.memory_base + bytes > dram_.size()) {
      throw host::HostBusError("fake bus: outside host memory");
    }
    return dram_.data() + (address - map_.memory_base);
  }
  void compute(const sc_core::sc_time& duration) override {
    now_ += duration;
    computed += duration;
  }
  sc_core::sc_time now() const override { return now_; }
  void sync() override {}
  bool wait_for_interrupt(const sc_core::sc_time& timeout) override {
    ++waits;
    const bool interrupted = on_wait ? on_wait() : false;
    if (!interrupted) now_ += timeout;
    return interrupted;
  }
  const host::HostAddressMap& address_map() const override { return map_; }

  // ---- for tests ----
  uint64_t dram_base() const { return map_.memory_base; }
  uint8_t* dram() { return dram_.data(); }
  template <typename T>
  T load(uint64_t address) {
    T v;
    std::memcpy(&v, memory(address, sizeof v), sizeof v);
    return v;
  }
  template <typename T>
  void store(uint64_t address, const T& v) {
    std::memcpy(memory(address, sizeof v), &v, sizeof v);
  }
  /// The values written to one register, in order.
  std::vector<uint32_t> writes_to(uint32_t offset) const {
    std::vector<uint32_t> out;
    for (const auto& [o, v] : writes) {
      if (o == offset) out.push_back(v);
    }
    return out;
  }

  std::map<uint32_t, uint32_t> regs;
  std::map<uint32_t, std::function<uint32_t()>> read_hooks;
  std::map<uint32_t, int> reads;
  std::vector<std::pair<uint32_t, uint32_t>> writes;  // (BAR0 offset, value)
  std::function<bool()> on_wait;  // the GPU's turn; returns whether an interrupt arrived
  int waits = 0;
  sc_core::sc_time computed;

 private:
  host::HostAddressMap map_;
  std::vector<uint8_t> dram_;
  sc_core::sc_time now_;
};

}  // namespace gpusoc::rt::testing
