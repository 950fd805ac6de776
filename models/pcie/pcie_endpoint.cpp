#include "models/pcie/pcie_endpoint.h"

#include <algorithm>
#include <cstring>

#include "models/common/error.h"
#include "models/pcie/bar0_map.h"

namespace gpusoc::pcie {
namespace {

using sc_core::sc_time;

double ns(const sc_time& t) {
  return t.to_seconds() * 1e9;
}

sc_time after_ns(double duration) {
  return sc_time(std::max(0.0, duration), sc_core::SC_NS);
}

}  // namespace

PcieEndpoint::Stats::Stats(StatGroup& parent, const std::string& name, const PcieEndpoint& endpoint)
    : StatGroup(parent, name),
      downstream_bytes(*this, "downstream_bytes", "bytes", "TLP payload sent root port -> GPU",
                       [&endpoint] { return double(endpoint.downstream_.payload_bytes()); }),
      upstream_bytes(*this, "upstream_bytes", "bytes", "TLP payload sent GPU -> root port",
                     [&endpoint] { return double(endpoint.upstream_.payload_bytes()); }),
      downstream_tlps(*this, "downstream_tlps", "TLPs", "TLPs sent root port -> GPU",
                      [&endpoint] { return double(endpoint.downstream_.tlps()); }),
      upstream_tlps(*this, "upstream_tlps", "TLPs", "TLPs sent GPU -> root port",
                    [&endpoint] { return double(endpoint.upstream_.tlps()); }),
      downstream_busy_ns(*this, "downstream_busy_ns", "ns",
                         "time the downstream direction spent sending",
                         [&endpoint] { return endpoint.downstream_.busy_ns(); }),
      upstream_busy_ns(*this, "upstream_busy_ns", "ns", "time the upstream direction spent sending",
                       [&endpoint] { return endpoint.upstream_.busy_ns(); }) {}

PcieEndpoint::PcieEndpoint(sc_core::sc_module_name name, const PcieConfig& config,
                           const DeviceInfo& device, StatGroup& stats_parent)
    : sc_module(name),
      config_target("config_target"),
      mem_target("mem_target"),
      bar0_target("bar0_target"),
      bar1_target("bar1_target"),
      reg_initiator("reg_initiator"),
      vram_initiator("vram_initiator"),
      upstream_target("upstream_target"),
      dma_initiator("dma_initiator"),
      irq_out("irq_out"),
      interrupt_in("interrupt_in"),
      params_(config),
      device_(device),
      link_(config.link),
      downstream_(link_),
      upstream_(link_),
      config_(config, bar0::kSize),
      registers_("Host interface", register_specs()),
      log_(logger(this->name())),
      stats_(std::make_unique<Stats>(stats_parent, basename(), *this)) {
  params_.validate();
  if (device.vram_allocatable_bytes > device.vram_bytes) {
    throw ModelError(this->name(), "allocatable VRAM exceeds the VRAM capacity");
  }
  config_target.register_b_transport(this, &PcieEndpoint::config_b_transport);
  config_target.register_transport_dbg(this, &PcieEndpoint::config_transport_dbg);
  mem_target.register_b_transport(this, &PcieEndpoint::mem_b_transport);
  mem_target.register_transport_dbg(this, &PcieEndpoint::mem_transport_dbg);
  mem_target.register_get_direct_mem_ptr(this, &PcieEndpoint::mem_get_direct_mem_ptr);
  bar0_target.register_b_transport(this, &PcieEndpoint::bar0_b_transport);
  bar0_target.register_transport_dbg(this, &PcieEndpoint::bar0_transport_dbg);
  bar1_target.register_b_transport(this, &PcieEndpoint::bar1_b_transport);
  bar1_target.register_transport_dbg(this, &PcieEndpoint::bar1_transport_dbg);
  bar1_target.register_get_direct_mem_ptr(this, &PcieEndpoint::bar1_get_direct_mem_ptr);
  vram_initiator.register_invalidate_direct_mem_ptr(this,
                                                    &PcieEndpoint::vram_invalidate_direct_mem_ptr);
  upstream_target.register_b_transport(this, &PcieEndpoint::upstream_b_transport);
  upstream_target.register_transport_dbg(this, &PcieEndpoint::upstream_transport_dbg);
  interrupt_in.bind(*this);
  msi_tx_.set_data_ptr(reinterpret_cast<unsigned char*>(&msi_payload_));
  msi_tx_.set_data_length(4);
  msi_tx_.set_streaming_width(4);
  wire_registers();
}

PcieEndpoint::~PcieEndpoint() = default;

// A request crossing the link on `out`: `forward` performs it at the far end, given the delay at
// which it arrives there. Posted writes are done for the sender once their TLPs have left;
// reads and non-posted writes once their completions have come back on `back`.
template <typename Forward>
sc_time PcieEndpoint::cross(LinkDirection& out, LinkDirection& back, tlm::tlm_generic_payload& tx,
                            const sc_time& delay, bool posted, uint32_t header_bytes,
                            Forward&& forward) {
  const double now = ns(sc_core::sc_time_stamp());
  const uint64_t bytes = tx.get_data_length();
  const LinkParams& link = link_.params();
  const bool write = tx.is_write();
  const LinkDirection::Transfer request =
      write ? out.send(now + ns(delay), bytes, LinkTiming::tlp_count(bytes, link.max_payload_bytes),
                       header_bytes)
            : out.send(now + ns(delay), 0,
                       LinkTiming::tlp_count(bytes, link.max_read_request_bytes), header_bytes);
  sc_time at_target = after_ns(request.arrival_ns - now);
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  forward(at_target);
  tx.set_dmi_allowed(false);  // only the aperture offers DMI (bar_request)
  if (write && posted) return after_ns(request.sent_ns - now);
  const uint64_t returned = !write && tx.is_response_ok() ? bytes : 0;
  const LinkDirection::Transfer completion =
      back.send(now + ns(at_target), returned,
                LinkTiming::tlp_count(returned, link.max_payload_bytes), LinkTiming::kHeader3dw);
  return after_ns(completion.arrival_ns - now);
}

// ---- configuration space -----------------------------------------------------------------

void PcieEndpoint::config_b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  // Configuration requests are non-posted, 3 DW headers, both reads and writes.
  delay = cross(downstream_, upstream_, tx, delay, false, LinkTiming::kHeader3dw,
                [&](sc_time&) { config_access(tx); });
}

void PcieEndpoint::config_access(tlm::tlm_generic_payload& tx) {
  const uint64_t offset = tx.get_address();
  const unsigned bytes = tx.get_data_length();
  if (offset >= cfg::kSize) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  if (!ConfigSpace::valid_access(static_cast<uint32_t>(offset), bytes) ||
      tx.get_byte_enable_ptr() != nullptr || tx.get_streaming_width() != bytes) {
    tx.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  uint32_t value = 0;
  if (tx.is_read()) {
    value = in_reset_ ? ~0u : config_.read(static_cast<uint32_t>(offset), bytes);
    std::memcpy(tx.get_data_ptr(), &value, bytes);
    ++stats_->config_reads;
  } else if (tx.is_write() && in_reset_) {
    ++stats_->config_writes;  // dropped: nothing answers while the function is in reset
  } else if (tx.is_write()) {
    std::memcpy(&value, tx.get_data_ptr(), bytes);
    const uint64_t bar1 = config_.bar_address(1);
    const bool enabled = config_.memory_space_enabled();
    config_.write(static_cast<uint32_t>(offset), bytes, value);
    if (bar1 != config_.bar_address(1) || enabled != config_.memory_space_enabled())
      revoke_aperture_dmi();
    link_.set_max_payload(config_.max_payload_bytes());
    link_.set_max_read_request(config_.max_read_request_bytes());
    update_irq();  // Interrupt Disable or MSI Enable may have changed the INTx wire
    ++stats_->config_writes;
    if (ConfigSpace::initiates_function_level_reset(static_cast<uint32_t>(offset), bytes,
                                                    value)) {
      enter_reset(true);
      if (flr_hook_) {
        flr_hook_();
      } else {
        leave_reset();
      }
    }
  }
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
}

void PcieEndpoint::enter_reset(bool function_level) {
  ++(function_level ? stats_->function_level_resets : stats_->conventional_resets);
  log_->debug("{} reset", function_level ? "function level" : "conventional");
  config_.reset(function_level);
  revoke_aperture_dmi();
  link_.set_max_payload(config_.max_payload_bytes());
  link_.set_max_read_request(config_.max_read_request_bytes());
  in_reset_ = true;
  reset_registers();
}

void PcieEndpoint::leave_reset() {
  reset_registers();  // whatever the stopping units latched meanwhile goes too
  in_reset_ = false;
}

void PcieEndpoint::reset_registers() {
  intr_status_ = intr_mask_ = error_status_ = error_offset_ = 0;
  bar1_window_ = 0;
  update_irq();
}

unsigned PcieEndpoint::config_transport_dbg(tlm::tlm_generic_payload& tx) {
  const uint64_t offset = tx.get_address();
  const unsigned bytes = tx.get_data_length();
  if (!tx.is_read() || offset >= cfg::kSize || bytes > cfg::kSize - offset) return 0;
  for (unsigned i = 0; i < bytes; ++i) {
    tx.get_data_ptr()[i] = static_cast<uint8_t>(config_.read(static_cast<uint32_t>(offset) + i, 1));
  }
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return bytes;
}

// ---- memory requests from the root port ----------------------------------------------------

PcieEndpoint::Bar PcieEndpoint::decode(uint64_t address, uint64_t bytes, uint64_t& offset) const {
  if (!config_.memory_space_enabled()) return Bar::None;
  for (unsigned bar = 0; bar < 2; ++bar) {
    const uint64_t base = config_.bar_address(bar);
    const uint64_t size = config_.bar_size(bar);
    if (address >= base && address - base < size && bytes <= size - (address - base)) {
      offset = address - base;
      return bar == 0 ? Bar::Registers : Bar::Aperture;
    }
  }
  return Bar::None;
}

// BAR `bar` at `offset`, as the per-BAR sockets see it: None unless memory space is enabled and
// the access lies within the BAR.
PcieEndpoint::Bar PcieEndpoint::bar_at(unsigned bar, uint64_t offset, uint64_t bytes) const {
  const uint64_t size = config_.bar_size(bar);
  if (!config_.memory_space_enabled() || offset >= size || bytes > size - offset) return Bar::None;
  return bar == 0 ? Bar::Registers : Bar::Aperture;
}

// A memory request to `bar` at `offset`, from either path: it crosses the link (its header sized
// for `link_address`, the host address it has on the link), then reaches the BAR's target.
void PcieEndpoint::bar_request(Bar bar, uint64_t offset, uint64_t link_address,
                               tlm::tlm_generic_payload& tx, sc_time& delay) {
  const uint64_t address = tx.get_address();
  bool vram_dmi = false;  // VRAM's hint: the aperture passes it on (get_direct_mem_ptr)
  delay = cross(downstream_, upstream_, tx, delay, true,
                LinkTiming::request_header_bytes(link_address), [&](sc_time& at) {
                  if (bar == Bar::Registers) {
                    register_access(tx, static_cast<uint32_t>(offset), at);
                  } else if (bar == Bar::Aperture) {
                    aperture_access(tx, offset, at);
                    vram_dmi = tx.is_dmi_allowed();
                  } else {
                    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
                  }
                });
  tx.set_dmi_allowed(vram_dmi && tx.is_response_ok());
  tx.set_address(address);
}

void PcieEndpoint::mem_b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  uint64_t offset = 0;
  const Bar bar = decode(tx.get_address(), tx.get_data_length(), offset);
  bar_request(bar, offset, tx.get_address(), tx, delay);
}

void PcieEndpoint::bar0_b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  const uint64_t offset = tx.get_address();
  bar_request(bar_at(0, offset, tx.get_data_length()), offset, config_.bar_address(0) + offset, tx,
              delay);
}

void PcieEndpoint::bar1_b_transport(tlm::tlm_generic_payload& tx, sc_time& delay) {
  const uint64_t offset = tx.get_address();
  bar_request(bar_at(1, offset, tx.get_data_length()), offset, config_.bar_address(1) + offset, tx,
              delay);
}

void PcieEndpoint::register_access(tlm::tlm_generic_payload& tx, uint32_t offset, sc_time& at) {
  if (tx.is_read()) {
    ++stats_->mmio_reads;
  } else {
    ++stats_->mmio_writes;
  }
  tx.set_address(offset);
  const tlm::tlm_response_status shape = RegisterBlock::shape_status(tx);
  if (shape != tlm::TLM_OK_RESPONSE) {
    tx.set_response_status(shape);
    report_mmio_fault(bar0::kErrorBadAccess, offset);
  } else if (offset < kOwnRegisterBytes) {
    registers_.access(tx);  // refusals reach report_mmio_fault through on_fault
  } else {
    reg_initiator->b_transport(tx, at);
    if (!tx.is_response_ok()) {
      report_mmio_fault(tx.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE
                            ? bar0::kErrorUnmapped
                            : bar0::kErrorBadAccess,
                        offset);
    }
  }
}

bool PcieEndpoint::aperture_address(uint64_t offset, uint64_t bytes,
                                    uint64_t& device_address) const {
  const uint64_t vram_offset = bar1_window_ + offset;
  if (vram_offset >= device_.vram_bytes || bytes > device_.vram_bytes - vram_offset) return false;
  device_address = device_.vram_base + vram_offset;
  return true;
}

void PcieEndpoint::aperture_access(tlm::tlm_generic_payload& tx, uint64_t offset, sc_time& at) {
  uint64_t device_address = 0;
  if (!aperture_address(offset, tx.get_data_length(), device_address)) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  tx.set_address(device_address);
  vram_initiator->b_transport(tx, at);
  if (!tx.is_response_ok()) return;
  if (tx.is_read()) {
    stats_->bar1_read_bytes += tx.get_data_length();
  } else {
    stats_->bar1_write_bytes += tx.get_data_length();
  }
}

unsigned PcieEndpoint::bar_debug(Bar bar, uint64_t offset, tlm::tlm_generic_payload& tx) {
  const uint64_t address = tx.get_address();
  unsigned done = 0;
  switch (bar) {
    case Bar::Registers:
      tx.set_address(offset);
      done = offset < kOwnRegisterBytes ? registers_.debug_access(tx)
                                        : reg_initiator->transport_dbg(tx);
      break;
    case Bar::Aperture: {
      uint64_t device_address = 0;
      if (aperture_address(offset, tx.get_data_length(), device_address)) {
        tx.set_address(device_address);
        done = vram_initiator->transport_dbg(tx);
      }
      break;
    }
    case Bar::None:
      break;
  }
  tx.set_address(address);
  return done;
}

unsigned PcieEndpoint::mem_transport_dbg(tlm::tlm_generic_payload& tx) {
  uint64_t offset = 0;
  const Bar bar = decode(tx.get_address(), tx.get_data_length(), offset);
  return bar_debug(bar, offset, tx);
}

unsigned PcieEndpoint::bar0_transport_dbg(tlm::tlm_generic_payload& tx) {
  return bar_debug(bar_at(0, tx.get_address(), tx.get_data_length()), tx.get_address(), tx);
}

unsigned PcieEndpoint::bar1_transport_dbg(tlm::tlm_generic_payload& tx) {
  return bar_debug(bar_at(1, tx.get_address(), tx.get_data_length()), tx.get_address(), tx);
}

// ---- DMI on the VRAM aperture ----------------------------------------------------------------

// DMI for BAR1 offset `offset`: VRAM's own grant, clipped to the aperture the window shows and
// expressed in BAR1 offsets, its latencies the unloaded link's added to VRAM's (a posted write:
// the request's wire time; a read: request and completion, each with the link's latency). A
// refusal describes just `offset`, with no access allowed.
bool PcieEndpoint::aperture_dmi(uint64_t offset, tlm::tlm_generic_payload& tx,
                                tlm::tlm_dmi& dmi) {
  uint64_t device_address = 0;
  bool granted = bar_at(1, offset, 1) == Bar::Aperture &&
                 aperture_address(offset, 1, device_address);
  if (granted) {
    const uint64_t address = tx.get_address();
    tx.set_address(device_address);
    granted = vram_initiator->get_direct_mem_ptr(tx, dmi);
    tx.set_address(address);
  }
  // The aperture shows VRAM from vram_base + window, for the BAR's size or to VRAM's end.
  const uint64_t first = device_.vram_base + bar1_window_;
  const uint64_t span = std::min(config_.bar_size(1), device_.vram_bytes - bar1_window_);
  const uint64_t start = std::max<uint64_t>(dmi.get_start_address(), first);
  const uint64_t end = std::min<uint64_t>(dmi.get_end_address(), first + span - 1);
  if (!granted || start > end || (!dmi.is_read_allowed() && !dmi.is_write_allowed())) {
    dmi.init();
    dmi.allow_none();
    dmi.set_start_address(offset);
    dmi.set_end_address(offset);
    return false;
  }
  dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (start - dmi.get_start_address()));
  dmi.set_start_address(start - first);
  dmi.set_end_address(end - first);
  const LinkParams& link = link_.params();
  const uint32_t header = LinkTiming::request_header_bytes(config_.bar_address(1));
  const double request_ns = link_.wire_ns(link_.tlp_overhead_bytes(header));
  const double completion_ns =
      link_.wire_ns(link_.tlp_overhead_bytes(LinkTiming::kHeader3dw) + 4);
  dmi.set_read_latency(dmi.get_read_latency() +
                       after_ns(request_ns + completion_ns + 2 * link.latency_ns));
  dmi.set_write_latency(after_ns(link_.wire_ns(link_.tlp_overhead_bytes(header) + 4)));
  return true;
}

bool PcieEndpoint::bar1_get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
  const bool granted = aperture_dmi(tx.get_address(), tx, dmi);
  bar1_dmi_granted_ |= granted;
  return granted;
}

bool PcieEndpoint::mem_get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
  uint64_t offset = 0;
  if (decode(tx.get_address(), 1, offset) != Bar::Aperture) {  // refused at this address
    dmi.init();
    dmi.allow_none();
    dmi.set_start_address(tx.get_address());
    dmi.set_end_address(tx.get_address());
    return false;
  }
  const bool granted = aperture_dmi(offset, tx, dmi);
  const uint64_t base = config_.bar_address(1);  // in host addresses, granted or refused
  dmi.set_start_address(dmi.get_start_address() + base);
  dmi.set_end_address(dmi.get_end_address() + base);
  if (granted) {
    mem_dmi_granted_ = true;
    mem_dmi_base_ = base;
  }
  return granted;
}

// Revokes BAR1 offsets [first, last] on each socket that was granted some (mem_target's in the
// host addresses BAR1 had then).
void PcieEndpoint::revoke_aperture_range(uint64_t first, uint64_t last) {
  if (bar1_dmi_granted_ && bar1_target.size() > 0)
    bar1_target->invalidate_direct_mem_ptr(first, last);
  if (mem_dmi_granted_ && mem_target.size() > 0)
    mem_target->invalidate_direct_mem_ptr(mem_dmi_base_ + first, mem_dmi_base_ + last);
}

void PcieEndpoint::revoke_aperture_dmi() {
  revoke_aperture_range(0, config_.bar_size(1) - 1);
  bar1_dmi_granted_ = mem_dmi_granted_ = false;
}

// VRAM revoked device addresses [start, end]: what of them the aperture shows, in BAR1 offsets.
void PcieEndpoint::vram_invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  if (!bar1_dmi_granted_ && !mem_dmi_granted_) return;
  const uint64_t first = device_.vram_base + bar1_window_;
  const uint64_t last = first + config_.bar_size(1) - 1;
  if (end < first || start > last) return;
  revoke_aperture_range(std::max<uint64_t>(start, first) - first,
                        std::min<uint64_t>(end, last) - first);
}

// ---- DMA from the GPU's units into host memory ---------------------------------------------

void PcieEndpoint::upstream_b_transport(int, tlm::tlm_generic_payload& tx, sc_time& delay) {
  if (!config_.bus_master_enabled()) {
    // With Bus Master Enable clear the function may not issue requests at all.
    tx.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    ++stats_->dma_errors;
    report_error(bar0::kErrorDma);
    return;
  }
  delay = cross(upstream_, downstream_, tx, delay, true,
                LinkTiming::request_header_bytes(tx.get_address()),
                [&](sc_time& at) { dma_initiator->b_transport(tx, at); });
  if (!tx.is_response_ok()) {
    ++stats_->dma_errors;
    report_error(bar0::kErrorDma);
  } else if (tx.is_read()) {
    stats_->dma_read_bytes += tx.get_data_length();
  } else {
    stats_->dma_write_bytes += tx.get_data_length();
  }
}

unsigned PcieEndpoint::upstream_transport_dbg(int, tlm::tlm_generic_payload& tx) {
  return dma_initiator->transport_dbg(tx);
}

void PcieEndpoint::send_msi() {
  if (!config_.msi_enabled() || !config_.bus_master_enabled()) return;
  msi_payload_ = config_.msi_data();
  msi_tx_.set_command(tlm::TLM_WRITE_COMMAND);
  msi_tx_.set_address(config_.msi_address());
  msi_tx_.set_byte_enable_ptr(nullptr);
  msi_tx_.set_dmi_allowed(false);
  cross(upstream_, downstream_, msi_tx_, sc_core::SC_ZERO_TIME, true,
        LinkTiming::request_header_bytes(msi_tx_.get_address()),
        [&](sc_time& at) { dma_initiator->b_transport(msi_tx_, at); });
  ++stats_->msis;
  if (!msi_tx_.is_response_ok()) {
    // Latched without an interrupt: raising one would send another MSI to the same address.
    error_status_ |= bar0::kErrorDma;
    ++stats_->dma_errors;
    log_->warn("MSI write to {:#x} was refused", msi_tx_.get_address());
  }
}

}  // namespace gpusoc::pcie
