#include "models/common/memory_target.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/gpu_request.h"

namespace gpusoc {

// One initiator's request channel for nb_transport.
struct MemoryTarget::Channel {
  // The queue_depth latest completion times (sc_time values) of accepted requests, as a
  // min-heap: queue_depth of them are incomplete at t exactly when the smallest is later than t.
  std::vector<uint64_t> completions;
  const tlm::tlm_generic_payload* awaiting_end_req = nullptr;
  tlm::tlm_generic_payload* responding = nullptr;  // BEGIN_RESP sent, END_RESP not yet seen
  std::deque<tlm::tlm_generic_payload*> held;      // responses due while one was open, in order
};

MemoryTarget::MemoryTarget(sc_core::sc_module_name name, const MemoryTargetConfig& config,
                           StatGroup& stats_parent)
    : sc_module(name),
      target("target"),
      config_(config),
      port_(100'000),  // ps
      stats_(stats_parent, basename()) {
  if (config_.size == 0) throw ModelError(this->name(), "memory size is zero");
  if (config_.size - 1 > std::numeric_limits<uint64_t>::max() - config_.base) {
    throw ModelError(this->name(), fmt::format("{:#x} bytes at {:#x} wrap around the address "
                                               "space",
                                               config_.size, config_.base));
  }
  if (!(config_.bytes_per_ns >= 0)) {
    throw ModelError(this->name(),
                     fmt::format("bandwidth {} bytes/ns is negative", config_.bytes_per_ns));
  }
  // MAP_NORESERVE: untouched pages cost neither RAM nor swap, so a 16 GiB memory is free
  // until a program writes to it.
  void* p = mmap(nullptr, config_.size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    throw ModelError(this->name(), fmt::format("cannot map {:#x} bytes of backing memory: {}",
                                               config_.size, std::strerror(errno)));
  }
  data_ = static_cast<uint8_t*>(p);
  target.register_b_transport(this, &MemoryTarget::b_transport);
  target.register_nb_transport_fw(this, &MemoryTarget::nb_transport_fw);
  target.register_transport_dbg(this, &MemoryTarget::transport_dbg);
  target.register_get_direct_mem_ptr(this, &MemoryTarget::get_direct_mem_ptr);
  SC_HAS_PROCESS(MemoryTarget);
  SC_METHOD(dispatch);
  sensitive << wake_;
  dont_initialize();
}

void MemoryTarget::end_of_elaboration() {
  channels_.resize(target.size());
  for (Channel& c : channels_) c.completions.reserve(config_.queue_depth);
  pending_.reserve(channels_.size() * (2 * size_t{config_.queue_depth} + 2));
}

void MemoryTarget::erase() {
  // A private anonymous mapping reads as zeros again once its pages are dropped.
  if (madvise(data_, config_.size, MADV_DONTNEED) != 0) {
    throw ModelError(name(), fmt::format("cannot clear the backing memory: {}",
                                         std::strerror(errno)));
  }
}

MemoryTarget::~MemoryTarget() {
  munmap(data_, config_.size);
}

bool MemoryTarget::contains(uint64_t address, uint64_t bytes) const {
  if (address < config_.base) return false;
  const uint64_t offset = address - config_.base;
  return offset < config_.size && bytes <= config_.size - offset;
}

uint8_t* MemoryTarget::backdoor(uint64_t address, uint64_t bytes) {
  if (!contains(address, bytes)) {
    throw ModelError(name(),
                     fmt::format("backdoor access of {:#x} bytes at {:#x} lies outside "
                                 "[{:#x}, {:#x})",
                                 bytes, address, config_.base, config_.base + config_.size));
  }
  return data_ + (address - config_.base);
}

void MemoryTarget::transfer(tlm::tlm_generic_payload& tx, uint64_t offset) const {
  uint8_t* data = tx.get_data_ptr();
  uint8_t* memory = data_ + offset;
  const unsigned length = tx.get_data_length();
  const unsigned width = tx.get_streaming_width();
  const uint8_t* enables = tx.get_byte_enable_ptr();
  const bool read = tx.is_read();
  if (enables == nullptr && (width == 0 || width >= length)) {
    if (read) {
      std::memcpy(data, memory, length);
    } else {
      std::memcpy(memory, data, length);
    }
    return;
  }
  const unsigned wrap = width == 0 ? length : width;
  const unsigned enable_length = tx.get_byte_enable_length();
  for (unsigned i = 0; i < length; ++i) {
    if (enables != nullptr && enables[i % enable_length] == TLM_BYTE_DISABLED) continue;
    if (read) {
      data[i] = memory[i % wrap];
    } else {
      memory[i % wrap] = data[i];
    }
  }
}

void MemoryTarget::b_transport(int, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  const sc_core::sc_time local = sc_core::sc_time_stamp() + delay;
  delay += serve(tx, local) - local;
}

sc_core::sc_time MemoryTarget::serve(tlm::tlm_generic_payload& tx,
                                     const sc_core::sc_time& arrival) {
  tx.set_dmi_allowed(config_.allow_dmi);
  const unsigned length = tx.get_data_length();
  const unsigned width = tx.get_streaming_width();
  const uint64_t span = width != 0 && width < length ? width : length;
  const bool timing = timing_request(tx) != nullptr;
  if (!contains(tx.get_address(), std::max<uint64_t>(span, 1))) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    ++stats_.errors;
    return arrival;
  }
  if (tx.get_command() == tlm::TLM_IGNORE_COMMAND && !timing) {  // an address check only
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    return arrival;
  }
  const bool bad_enables = tx.get_byte_enable_ptr() != nullptr && tx.get_byte_enable_length() == 0;
  const bool no_data = tx.get_data_ptr() == nullptr && !timing;
  if (length == 0 || bad_enables || no_data) {
    tx.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    ++stats_.errors;
    return arrival;
  }
  if (!timing) transfer(tx, tx.get_address() - config_.base);
  if (!writes(tx)) {
    ++stats_.reads;
    stats_.bytes_read += length;
  } else {
    ++stats_.writes;
    stats_.bytes_written += length;
  }

  // The port serves each access from its arrival (see BandwidthBooking).
  sc_core::sc_time finish = arrival;
  if (config_.bytes_per_ns > 0) {
    const uint64_t occupancy_ps = uint64_t(length / config_.bytes_per_ns * 1000 + 0.5);
    finish = ps_.time(port_.book(ps_.of(arrival), occupancy_ps, ps_.now()));
    busy_ps_ += occupancy_ps;
    stats_.busy_ns.set(double(busy_ps_) / 1000);
  }
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return finish + config_.latency;
}

tlm::tlm_sync_enum MemoryTarget::nb_transport_fw(int id, tlm::tlm_generic_payload& tx,
                                                 tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  Channel& channel = channels_[id];
  if (phase == tlm::END_RESP) {
    if (channel.responding != &tx) {
      throw ModelError(name(),
                       fmt::format("END_RESP from initiator {} without an open response", id));
    }
    end_response(id);
    return tlm::TLM_COMPLETED;
  }
  if (phase != tlm::BEGIN_REQ) {
    throw ModelError(name(),
                     fmt::format("{} from initiator {} on the forward path", phase.get_name(), id));
  }
  if (channel.awaiting_end_req != nullptr) {
    throw ModelError(name(), fmt::format("BEGIN_REQ from initiator {} before the END_REQ of its "
                                         "previous request",
                                         id));
  }
  const uint64_t now = ps_.now();
  const uint64_t arrival = now + ps_.of(delay);
  std::vector<uint64_t>& completions = channel.completions;
  const bool full = config_.queue_depth > 0 && completions.size() == config_.queue_depth;
  const uint64_t accepted = full ? std::max(arrival, completions.front()) : arrival;
  const uint64_t done = ps_.of(serve(tx, ps_.time(accepted)));
  if (config_.queue_depth > 0) {
    if (full) {
      std::pop_heap(completions.begin(), completions.end(), std::greater<>());
      completions.pop_back();
    }
    completions.push_back(done);
    std::push_heap(completions.begin(), completions.end(), std::greater<>());
  }
  if (accepted == arrival) {  // room at once: the answer is known now
    delay = ps_.until(done);
    return tlm::TLM_COMPLETED;
  }
  if (tx.has_mm()) tx.acquire();
  channel.awaiting_end_req = &tx;
  schedule(accepted, id, &tx, false);
  schedule(done, id, &tx, true);
  return tlm::TLM_ACCEPTED;
}

void MemoryTarget::schedule(uint64_t time_ps, int id, tlm::tlm_generic_payload* tx, bool response) {
  pending_.push_back(Pending{time_ps, next_seq_++, tx, id, response});
  std::push_heap(pending_.begin(), pending_.end(), std::greater<>());
  wake_.notify(ps_.until(time_ps));
}

void MemoryTarget::dispatch() {
  const uint64_t now = ps_.now();
  while (!pending_.empty() && pending_.front().time_ps <= now) {
    std::pop_heap(pending_.begin(), pending_.end(), std::greater<>());
    const Pending due = pending_.back();
    pending_.pop_back();
    Channel& channel = channels_[due.id];
    if (!due.response) {
      channel.awaiting_end_req = nullptr;  // before the call: the initiator may send at once
      tlm::tlm_phase phase = tlm::END_REQ;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      target[due.id]->nb_transport_bw(*due.tx, phase, delay);
      continue;
    }
    // Responses leave one at a time, in the order they became due.
    tlm::tlm_generic_payload* tx = due.tx;
    if (channel.responding != nullptr || (tx != nullptr && !channel.held.empty())) {
      if (tx != nullptr) channel.held.push_back(tx);
      continue;
    }
    if (tx == nullptr) {
      if (channel.held.empty()) continue;
      tx = channel.held.front();
      channel.held.pop_front();
    }
    begin_response(due.id, *tx);
  }
  if (!pending_.empty())
    wake_.notify(ps_.until(pending_.front().time_ps));
}

void MemoryTarget::begin_response(int id, tlm::tlm_generic_payload& tx) {
  channels_[id].responding = &tx;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum status = target[id]->nb_transport_bw(tx, phase, delay);
  if (status == tlm::TLM_COMPLETED || (status == tlm::TLM_UPDATED && phase == tlm::END_RESP)) {
    end_response(id);
  }
}

void MemoryTarget::end_response(int id) {
  Channel& channel = channels_[id];
  tlm::tlm_generic_payload* tx = channel.responding;
  channel.responding = nullptr;
  if (tx->has_mm()) tx->release();
  // The next held response goes out from the kernel, not from inside the initiator's call.
  if (!channel.held.empty()) schedule(ps_.now(), id, nullptr, true);
}

unsigned MemoryTarget::transport_dbg(int, tlm::tlm_generic_payload& tx) {
  const uint64_t address = tx.get_address();
  if ((tx.get_command() == tlm::TLM_IGNORE_COMMAND) || !contains(address, 1) ||
      tx.get_data_ptr() == nullptr)
    return 0;
  const uint64_t offset = address - config_.base;
  const unsigned bytes =
      static_cast<unsigned>(std::min<uint64_t>(tx.get_data_length(), config_.size - offset));
  if (tx.is_read()) {
    std::memcpy(tx.get_data_ptr(), data_ + offset, bytes);
  } else {
    std::memcpy(data_ + offset, tx.get_data_ptr(), bytes);
  }
  return bytes;
}

bool MemoryTarget::get_direct_mem_ptr(int, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
  const uint64_t address = tx.get_address();
  if (!config_.allow_dmi || !contains(address, 1)) {
    dmi.allow_none();
    dmi.set_start_address(contains(address, 1) ? config_.base : address);
    dmi.set_end_address(contains(address, 1) ? config_.base + (config_.size - 1) : address);
    return false;
  }
  dmi.set_dmi_ptr(data_);
  dmi.set_start_address(config_.base);
  dmi.set_end_address(config_.base + (config_.size - 1));
  dmi.allow_read_write();
  dmi.set_read_latency(config_.latency);
  dmi.set_write_latency(config_.latency);
  return true;
}

}  // namespace gpusoc
