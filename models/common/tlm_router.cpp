#include "models/common/tlm_router.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "models/common/error.h"

namespace gpusoc {
namespace {

constexpr uint64_t kMaxAddress = std::numeric_limits<uint64_t>::max();

uint64_t last(uint64_t base, uint64_t size) {
  return base + (size - 1);
}

std::string describe(uint64_t base, uint64_t size, const std::string& label) {
  return fmt::format("{}[{:#x}, {:#x}]", label.empty() ? "" : label + " ", base, last(base, size));
}

/// Bytes of the address space an access covers: a streaming access repeats its first
/// streaming-width bytes.
uint64_t span_of(const tlm::tlm_generic_payload& tx) {
  const uint64_t length = std::max(1u, tx.get_data_length());
  const uint64_t width = tx.get_streaming_width();
  return width != 0 && width < length ? width : length;
}

/// Restores the initiator's address on every way out of a forwarded call.
class AddressRestorer {
 public:
  explicit AddressRestorer(tlm::tlm_generic_payload& tx) : tx_(tx), address_(tx.get_address()) {}
  ~AddressRestorer() { tx_.set_address(address_); }
  AddressRestorer(const AddressRestorer&) = delete;
  AddressRestorer& operator=(const AddressRestorer&) = delete;

 private:
  tlm::tlm_generic_payload& tx_;
  uint64_t address_;
};

}  // namespace

TlmRouter::TlmRouter(sc_core::sc_module_name name)
    : sc_module(name), target("target"), initiator("initiator") {
  target.register_b_transport(this, &TlmRouter::b_transport);
  target.register_transport_dbg(this, &TlmRouter::transport_dbg);
  target.register_get_direct_mem_ptr(this, &TlmRouter::get_direct_mem_ptr);
  initiator.register_invalidate_direct_mem_ptr(this, &TlmRouter::invalidate_direct_mem_ptr);
}

void TlmRouter::map(unsigned port, uint64_t base, uint64_t size, uint64_t target_base,
                    std::string label) {
  if (size == 0) {
    throw ModelError(name(), fmt::format("range {} at {:#x} is empty", label, base));
  }
  if (size - 1 > kMaxAddress - base || size - 1 > kMaxAddress - target_base) {
    throw ModelError(name(), fmt::format("range {} of {:#x} bytes at {:#x} (target {:#x}) "
                                         "wraps around the address space",
                                         label, size, base, target_base));
  }
  const auto next = std::lower_bound(ranges_.begin(), ranges_.end(), base,
                                     [](const Range& r, uint64_t b) { return r.base < b; });
  const auto clash = [&](const Range& r) {
    return r.base <= last(base, size) && base <= last(r.base, r.size);
  };
  for (auto it : {next == ranges_.begin() ? next : std::prev(next), next}) {
    if (it != ranges_.end() && clash(*it)) {
      throw ModelError(name(),
                       fmt::format("range {} overlaps range {}", describe(base, size, label),
                                   describe(it->base, it->size, it->label)));
    }
  }
  ranges_.insert(next, Range{base, size, target_base, port, std::move(label)});
}

void TlmRouter::end_of_elaboration() {
  for (const Range& r : ranges_) {
    if (r.port >= initiator.size()) {
      throw ModelError(name(),
                       fmt::format("range {} goes to initiator port {}, but only {} "
                                   "port(s) are bound",
                                   describe(r.base, r.size, r.label), r.port, initiator.size()));
    }
  }
}

const TlmRouter::Range* TlmRouter::decode(uint64_t address, uint64_t length) const {
  // The last range starting at or below the address is the only candidate.
  const auto next = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                                     [](uint64_t a, const Range& r) { return a < r.base; });
  if (next == ranges_.begin()) return nullptr;
  const Range& r = *std::prev(next);
  const uint64_t offset = address - r.base;
  if (offset >= r.size || length > r.size - offset) return nullptr;
  return &r;
}

void TlmRouter::b_transport(int, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  const Range* r = decode(tx.get_address(), span_of(tx));
  if (r == nullptr) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  AddressRestorer restore(tx);
  tx.set_address(tx.get_address() - r->base + r->target_base);
  initiator[r->port]->b_transport(tx, delay);
}

unsigned TlmRouter::transport_dbg(int, tlm::tlm_generic_payload& tx) {
  const Range* r = decode(tx.get_address(), span_of(tx));
  if (r == nullptr) return 0;
  AddressRestorer restore(tx);
  tx.set_address(tx.get_address() - r->base + r->target_base);
  return initiator[r->port]->transport_dbg(tx);
}

bool TlmRouter::get_direct_mem_ptr(int, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
  const Range* r = decode(tx.get_address(), 1);
  if (r == nullptr) {
    deny_unmapped_dmi(tx.get_address(), dmi);
    return false;
  }
  bool granted;
  {
    AddressRestorer restore(tx);
    tx.set_address(tx.get_address() - r->base + r->target_base);
    granted = initiator[r->port]->get_direct_mem_ptr(tx, dmi);
  }
  // The target answers in its own address space and may describe more than this mapping.
  uint64_t start = dmi.get_start_address();
  uint64_t end = dmi.get_end_address();
  const uint64_t lo = r->target_base;
  const uint64_t hi = last(r->target_base, r->size);
  if (start < lo) {
    if (dmi.get_dmi_ptr() != nullptr) dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (lo - start));
    start = lo;
  }
  end = std::min(end, hi);
  dmi.set_start_address(start - lo + r->base);
  dmi.set_end_address(end - lo + r->base);
  return granted;
}

void TlmRouter::deny_unmapped_dmi(uint64_t address, tlm::tlm_dmi& dmi) const {
  // Describe the whole gap around the address, so the initiator need not ask again inside it.
  const auto next = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                                     [](uint64_t a, const Range& r) { return a < r.base; });
  dmi.allow_none();
  dmi.set_dmi_ptr(nullptr);
  dmi.set_start_address(
      next == ranges_.begin() ? 0 : last(std::prev(next)->base, std::prev(next)->size) + 1);
  dmi.set_end_address(next == ranges_.end() ? kMaxAddress : next->base - 1);
}

void TlmRouter::invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (const Range& r : ranges_) {
    if (r.port != static_cast<unsigned>(port)) continue;
    const uint64_t lo = std::max<uint64_t>(start, r.target_base);
    const uint64_t hi = std::min<uint64_t>(end, last(r.target_base, r.size));
    if (lo > hi) continue;
    for (unsigned i = 0; i < target.size(); ++i) {
      target[i]->invalidate_direct_mem_ptr(lo - r.target_base + r.base,
                                           hi - r.target_base + r.base);
    }
  }
}

}  // namespace gpusoc
