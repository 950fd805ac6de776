#include "models/pcie/copy_engine.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "models/common/gpu_request.h"
#include "models/common/picoseconds.h"
#include "models/common/timeline.h"
#include "models/pcie/bar0_map.h"

namespace gpusoc::pcie {
namespace {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

constexpr uint32_t kDeviceChunk = 64 * 1024;  // what VRAM-only transfers and fills move at once
constexpr uint32_t kQueuedWrites = 2;         // writes in flight onto the link, and in VRAM streams
constexpr uint32_t kBusy = 1u << 0;

uint32_t low(uint64_t v) {
  return static_cast<uint32_t>(v);
}
uint32_t high(uint64_t v) {
  return static_cast<uint32_t>(v >> 32);
}
uint64_t busy_nanoseconds(const sc_time& t) {
  return static_cast<uint64_t>(std::llround(t.to_seconds() * 1e9));
}

}  // namespace

CopyEngine::Stats::Stats(StatGroup& parent, const std::string& name, const CopyEngine& engine)
    : StatGroup(parent, name),
      busy_ns(*this, "busy_ns", "ns", "time spent serving requests",
              [&engine] { return engine.busy_time_.to_seconds() * 1e9; }),
      bandwidth(*this, "bandwidth", "GB/s", "bytes moved per busy nanosecond", [&engine] {
        return double(engine.completed_bytes_) / (engine.busy_time_.to_seconds() * 1e9);
      }) {}

CopyEngine::CopyEngine(sc_core::sc_module_name name, uint32_t index, const PcieConfig& config,
                       const DeviceInfo& device, StatGroup& stats_parent)
    : sc_module(name),
      mmio_target("mmio_target"),
      dma_initiator("dma_initiator"),
      vram_initiator("vram_initiator"),
      interrupt_out("interrupt_out"),
      index_(index),
      params_(config),
      device_(device),
      registers_("Copy engine " + std::to_string(index), register_specs()),
      engine_(sc_core::sc_gen_unique_name("engine")),
      stats_(stats_parent, basename(), *this) {
  params_.validate();
  const uint32_t window = std::max(params_.max_outstanding_reads, kQueuedWrites);
  buffer_.resize(std::max<size_t>(size_t{window} * params_.link.max_read_request_bytes,
                                  size_t{kQueuedWrites} * kDeviceChunk));
  slots_.resize(window);
  written_.resize(window);
  auto* request = new GpuRequest;  // the payload owns it
  request->sm = ~0u;
  request->kind = AccessKind::Dma;
  tx_.set_extension(request);

  mmio_target.register_b_transport(this, &CopyEngine::mmio_b_transport);
  mmio_target.register_transport_dbg(this, &CopyEngine::mmio_transport_dbg);
  registers_.on_read(bar0::CE_STATUS, [this] { return busy_ ? kBusy : 0u; });
  registers_.on_read(bar0::CE_COPIES, [this] { return low(completed_ - at_reset_.copies); });
  registers_.on_read(bar0::CE_BYTES_LO, [this] { return low(completed_bytes_ - at_reset_.bytes); });
  registers_.on_read(bar0::CE_BYTES_HI,
                     [this] { return high(completed_bytes_ - at_reset_.bytes); });
  registers_.on_read(bar0::CE_BUSY_NS_LO,
                     [this] { return low(busy_nanoseconds(busy_time_ - at_reset_.busy)); });
  registers_.on_read(bar0::CE_BUSY_NS_HI,
                     [this] { return high(busy_nanoseconds(busy_time_ - at_reset_.busy)); });
  registers_.on_fault([this](RegisterFault fault, uint32_t offset) {
    // Refused accesses come back to the endpoint as error responses; it flags those itself.
    if (fault == RegisterFault::ReadOnlyWrite) {
      interrupt_out->report_mmio_fault(bar0::kErrorReadOnlyWrite,
                                       bar0::copy_engine_offset(index_, offset));
    }
  });
}

const std::vector<RegisterSpec>& CopyEngine::register_specs() {
  constexpr auto RO = RegisterAccess::ReadOnly;
  static const std::vector<RegisterSpec> specs = {
      {bar0::CE_STATUS, "CE_STATUS", RO, 0, "Bit 0: the engine is serving a copy or fill."},
      {bar0::CE_COPIES, "CE_COPIES", RO, 0, "Copies and fills completed (wraps at 2^32)."},
      {bar0::CE_BYTES_LO, "CE_BYTES_LO", RO, 0, "Bytes the completed requests moved, bits 31:0."},
      {bar0::CE_BYTES_HI, "CE_BYTES_HI", RO, 0, "Bytes the completed requests moved, bits 63:32."},
      {bar0::CE_BUSY_NS_LO, "CE_BUSY_NS_LO", RO, 0,
       "Simulated nanoseconds spent serving requests, bits 31:0."},
      {bar0::CE_BUSY_NS_HI, "CE_BUSY_NS_HI", RO, 0,
       "Simulated nanoseconds spent serving requests, bits 63:32."},
  };
  return specs;
}

bool CopyEngine::in_vram(uint64_t address, uint64_t bytes) const {
  return address >= device_.vram_base && address - device_.vram_base <= device_.vram_bytes &&
         bytes <= device_.vram_bytes - (address - device_.vram_base);
}

cmd::ErrorCode CopyEngine::copy(const CopyRequest& request) {
  const Leg host_source{dma_initiator, request.source, cmd::ErrorCode::HostAccessFault};
  const Leg host_destination{dma_initiator, request.destination, cmd::ErrorCode::HostAccessFault};
  const Leg vram_source{vram_initiator, request.source, cmd::ErrorCode::DeviceAccessFault};
  const Leg vram_destination{vram_initiator, request.destination,
                             cmd::ErrorCode::DeviceAccessFault};
  struct Route {
    const Leg* from;
    const Leg* to;
    Counter* bytes;
    uint64_t host_address;  // chunks are aligned on this side
  } route{};
  switch (request.direction) {
    case cmd::CopyDirection::HostToDevice:
      route = {&host_source, &vram_destination, &stats_.host_to_device_bytes, request.source};
      break;
    case cmd::CopyDirection::DeviceToHost:
      route = {&vram_source, &host_destination, &stats_.device_to_host_bytes, request.destination};
      break;
    case cmd::CopyDirection::DeviceToDevice:
      route = {&vram_source, &vram_destination, &stats_.device_to_device_bytes, request.source};
      break;
  }
  if (route.from == nullptr) {
    ++stats_.faults;
    return cmd::ErrorCode::InvalidPacket;
  }
  if ((route.from == &vram_source && !in_vram(request.source, request.bytes)) ||
      (route.to == &vram_destination && !in_vram(request.destination, request.bytes))) {
    ++stats_.faults;
    return cmd::ErrorCode::DeviceAccessFault;
  }
  begin();
  // Link transfers go in read-request-sized chunks aligned on the host side, so no request
  // crosses a 4 KiB boundary; VRAM-only copies use large chunks. Writes into VRAM may all be in
  // flight (their time is mostly memory latency); writes onto the link queue kQueuedWrites deep.
  const bool over_link = request.direction != cmd::CopyDirection::DeviceToDevice;
  const uint32_t chunk = over_link ? params_.link.max_read_request_bytes : kDeviceChunk;
  const uint32_t reads = over_link ? params_.max_outstanding_reads : kQueuedWrites;
  const uint32_t writes = route.to == &vram_destination && over_link ? reads : kQueuedWrites;
  const cmd::ErrorCode result =
      pump(*route.from, *route.to, request.bytes, route.host_address, chunk, reads, writes);
  const bool ok = result == cmd::ErrorCode::None;
  if (ok) {
    ++stats_.copies;
    *route.bytes += request.bytes;
  }
  finish(ok, request.bytes, request.raise_interrupt,
         request.direction == cmd::CopyDirection::HostToDevice   ? "host to device"
         : request.direction == cmd::CopyDirection::DeviceToHost ? "device to host"
                                                                 : "device to device");
  return result;
}

cmd::ErrorCode CopyEngine::fill(const FillRequest& request) {
  const uint32_t element = request.element_bytes;
  if ((element != 1 && element != 2 && element != 4) || request.bytes % element != 0) {
    ++stats_.faults;
    return cmd::ErrorCode::InvalidPacket;
  }
  if (!in_vram(request.destination, request.bytes)) {
    ++stats_.faults;
    return cmd::ErrorCode::DeviceAccessFault;
  }
  begin();
  for (uint32_t i = 0; i < kDeviceChunk; ++i) {
    buffer_[i] = static_cast<uint8_t>(request.value >> (8 * (i % element)));
  }
  const Leg to{vram_initiator, request.destination, cmd::ErrorCode::DeviceAccessFault};
  cmd::ErrorCode result = cmd::ErrorCode::None;
  uint64_t writes = 0;
  for (uint64_t offset = 0; offset < request.bytes; ++writes) {
    const auto bytes =
        static_cast<uint32_t>(std::min<uint64_t>(kDeviceChunk, request.bytes - offset));
    if (writes >= kQueuedWrites) wait_until(written_[writes % kQueuedWrites]);
    sc_time delay = SC_ZERO_TIME;
    if (aborted_ || !transfer(to, tlm::TLM_WRITE_COMMAND, offset, buffer_.data(), bytes, delay)) {
      result = to.fault;
      break;
    }
    written_[writes % kQueuedWrites] = sc_core::sc_time_stamp() + delay;
    offset += bytes;
  }
  wait_until(*std::max_element(written_.begin(), written_.end()));
  const bool ok = result == cmd::ErrorCode::None;
  if (ok) {
    ++stats_.fills;
    stats_.filled_bytes += request.bytes;
  }
  finish(ok, request.bytes, request.raise_interrupt, "fill");
  return result;
}

// Reads run up to `window` chunks ahead of the writes, a new one issued when the data of the
// read `window` before it has arrived; each write starts when its chunk's data has arrived and
// once the write `write_window` before it is done.
cmd::ErrorCode CopyEngine::pump(const Leg& from, const Leg& to, uint64_t bytes,
                                uint64_t align_address, uint32_t chunk, uint32_t window,
                                uint32_t write_window) {
  const auto chunk_at = [&](uint64_t offset) {
    return static_cast<uint32_t>(
        std::min<uint64_t>(chunk - (align_address + offset) % chunk, bytes - offset));
  };
  uint64_t read_offset = 0;
  uint64_t reads = 0;
  uint64_t writes = 0;
  cmd::ErrorCode result = cmd::ErrorCode::None;
  while (writes < reads || read_offset < bytes) {
    for (; read_offset < bytes && reads < writes + window; ++reads) {
      Slot& slot = slots_[reads % window];
      if (reads >= window) wait_until(slot.ready);  // at most `window` reads in flight
      slot.offset = read_offset;
      slot.bytes = chunk_at(read_offset);
      sc_time delay = SC_ZERO_TIME;
      uint8_t* data = &buffer_[size_t{reads % window} * chunk];
      if (aborted_ ||
          !transfer(from, tlm::TLM_READ_COMMAND, read_offset, data, slot.bytes, delay)) {
        result = from.fault;
        break;
      }
      slot.ready = sc_core::sc_time_stamp() + delay;
      read_offset += slot.bytes;
    }
    if (result != cmd::ErrorCode::None) break;
    if (writes >= write_window) wait_until(written_[writes % write_window]);
    const Slot& slot = slots_[writes % window];
    const sc_time now = sc_core::sc_time_stamp();
    sc_time delay = slot.ready > now ? slot.ready - now : SC_ZERO_TIME;
    uint8_t* data = &buffer_[size_t{writes % window} * chunk];
    if (aborted_ || !transfer(to, tlm::TLM_WRITE_COMMAND, slot.offset, data, slot.bytes, delay)) {
      result = to.fault;
      break;
    }
    written_[writes % write_window] = now + delay;
    ++writes;
  }
  wait_until(*std::max_element(written_.begin(), written_.end()));
  return result;
}

bool CopyEngine::transfer(const Leg& leg, tlm::tlm_command command, uint64_t offset, uint8_t* data,
                          uint32_t bytes, sc_time& delay) {
  tx_.set_command(command);
  tx_.set_address(leg.address + offset);
  tx_.set_data_ptr(data);
  tx_.set_data_length(bytes);
  tx_.set_streaming_width(bytes);
  tx_.set_byte_enable_ptr(nullptr);
  tx_.set_dmi_allowed(false);
  tx_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  leg.port->b_transport(tx_, delay);
  return tx_.is_response_ok();
}

void CopyEngine::reset_registers() {
  aborted_ = false;
  at_reset_.copies = completed_;
  at_reset_.bytes = completed_bytes_;
  at_reset_.busy = busy_time_;
}

void CopyEngine::begin() {
  engine_.lock();
  busy_ = true;
  busy_since_ = sc_core::sc_time_stamp();
  std::fill(written_.begin(), written_.end(), busy_since_);
}

void CopyEngine::finish(bool ok, uint64_t bytes, bool raise_interrupt, const char* what) {
  busy_time_ += sc_core::sc_time_stamp() - busy_since_;
  if (Timeline* t = Timeline::active()) {
    const Picoseconds ps;
    t->span(t->track("copy engines", basename()), what, ps.of(busy_since_), ps.now(),
            fmt::format("{} bytes{}", bytes, ok ? "" : ", failed"));
  }
  busy_ = false;
  if (ok) {
    ++completed_;
    completed_bytes_ += bytes;
  } else {
    ++stats_.faults;
  }
  engine_.unlock();
  if (raise_interrupt) interrupt_out->raise(bar0::kIntrCopy);
}

void CopyEngine::wait_until(const sc_time& time) {
  const sc_time now = sc_core::sc_time_stamp();
  if (time > now) wait(time - now);
}

void CopyEngine::mmio_b_transport(tlm::tlm_generic_payload& tx, sc_time&) {
  registers_.access(tx);
}

unsigned CopyEngine::mmio_transport_dbg(tlm::tlm_generic_payload& tx) {
  return registers_.debug_access(tx);
}

}  // namespace gpusoc::pcie
