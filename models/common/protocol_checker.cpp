#include "models/common/protocol_checker.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "models/common/gpu_request.h"

namespace gpusoc {

const char* to_string(ProtocolRule rule) {
  switch (rule) {
    case ProtocolRule::InitialResponse:
      return "initial response status";
    case ProtocolRule::ZeroLength:
      return "zero data length";
    case ProtocolRule::ByteEnableLength:
      return "byte-enable length";
    case ProtocolRule::ResponseNotSet:
      return "response status not set";
    case ProtocolRule::AttributeModified:
      return "attribute modified";
    case ProtocolRule::DelayDecreased:
      return "delay decreased";
    case ProtocolRule::DmiHint:
      return "DMI hint";
    case ProtocolRule::DmiRegion:
      return "DMI region";
    case ProtocolRule::DmiAccess:
      return "DMI access";
    case ProtocolRule::DmiPointer:
      return "DMI pointer";
    case ProtocolRule::DebugLength:
      return "debug length";
    case ProtocolRule::DebugTime:
      return "debug time";
    case ProtocolRule::DebugSideEffect:
      return "debug side effect";
    case ProtocolRule::DebugStale:
      return "debug data differs from timed read";
    case ProtocolRule::PhaseOrder:
      return "phase order";
    case ProtocolRule::RequestExclusion:
      return "request exclusion";
    case ProtocolRule::ResponseExclusion:
      return "response exclusion";
    case ProtocolRule::ReturnStatus:
      return "return status";
  }
  return "?";
}

ProtocolChecker::ProtocolChecker(sc_core::sc_module_name name)
    : sc_module(name), target("target"), initiator("initiator") {
  target.register_b_transport(this, &ProtocolChecker::b_transport);
  target.register_nb_transport_fw(this, &ProtocolChecker::nb_transport_fw);
  target.register_transport_dbg(this, &ProtocolChecker::transport_dbg);
  target.register_get_direct_mem_ptr(this, &ProtocolChecker::get_direct_mem_ptr);
  initiator.register_nb_transport_bw(this, &ProtocolChecker::nb_transport_bw);
  initiator.register_invalidate_direct_mem_ptr(this, &ProtocolChecker::invalidate_direct_mem_ptr);
}

size_t ProtocolChecker::count(ProtocolRule rule) const {
  return static_cast<size_t>(std::count_if(violations_.begin(), violations_.end(),
                                           [rule](const Violation& v) { return v.rule == rule; }));
}

void ProtocolChecker::violation(ProtocolRule rule, const tlm::tlm_generic_payload* tx,
                                const std::string& what) {
  std::string message = fmt::format("{}: {}: {}", name(), to_string(rule), what);
  if (tx != nullptr) {
    const char* kind = timing_request(*tx) ? (writes(*tx) ? "timing write" : "timing read")
                       : tx->is_read()     ? "read"
                       : tx->is_write()    ? "write"
                                           : "ignore";
    message += fmt::format(" ({} of {} bytes at {:#x})", kind, tx->get_data_length(),
                           tx->get_address());
  }
  violations_.push_back(Violation{rule, message});
  SC_REPORT_ERROR(kMsgType, message.c_str());
}

ProtocolChecker::Attributes ProtocolChecker::attributes_of(const tlm::tlm_generic_payload& tx) {
  return Attributes{tx.get_command(),        tx.get_address(),         tx.get_data_ptr(),
                    tx.get_data_length(),    tx.get_byte_enable_ptr(), tx.get_byte_enable_length(),
                    tx.get_streaming_width()};
}

void ProtocolChecker::check_request(const tlm::tlm_generic_payload& tx) {
  if (tx.get_response_status() != tlm::TLM_INCOMPLETE_RESPONSE) {
    violation(ProtocolRule::InitialResponse, &tx,
              fmt::format("the initiator passed {}", tx.get_response_string()));
  }
  if (tx.get_data_length() == 0) violation(ProtocolRule::ZeroLength, &tx, "data length is 0");
  if (tx.get_byte_enable_ptr() != nullptr && tx.get_byte_enable_length() == 0) {
    violation(ProtocolRule::ByteEnableLength, &tx, "byte enables given with length 0");
  }
}

void ProtocolChecker::check_unchanged(const Attributes& before,
                                      const tlm::tlm_generic_payload& tx) {
  const Attributes after = attributes_of(tx);
  const char* changed = after.command != before.command             ? "command"
                        : after.address != before.address           ? "address"
                        : after.data != before.data                 ? "data pointer"
                        : after.length != before.length             ? "data length"
                        : after.byte_enables != before.byte_enables ? "byte-enable pointer"
                        : after.byte_enable_length != before.byte_enable_length
                            ? "byte-enable length"
                        : after.streaming_width != before.streaming_width ? "streaming width"
                                                                          : nullptr;
  if (changed != nullptr) {
    violation(
        ProtocolRule::AttributeModified, &tx,
        fmt::format("the target changed the {} (address was {:#x})", changed, before.address));
  }
}

void ProtocolChecker::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  check_request(tx);
  const Attributes before = attributes_of(tx);
  const sc_core::sc_time delay_before = delay;
  const bool hint_before = tx.is_dmi_allowed();
  initiator->b_transport(tx, delay);
  check_unchanged(before, tx);
  if (delay < delay_before) {
    violation(ProtocolRule::DelayDecreased, &tx,
              fmt::format("delay went from {} to {}", delay_before.to_string(), delay.to_string()));
  }
  if (tx.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) {
    violation(ProtocolRule::ResponseNotSet, &tx, "b_transport returned TLM_INCOMPLETE_RESPONSE");
  }
  if (tx.is_write()) debug_delta_ = ~0ull;  // the bytes a debug read saw may have changed
  if (tx.is_read() && tx.is_response_ok()) check_against_debug_read(tx);
  if (tx.is_dmi_allowed() && !hint_before && tx.is_response_ok()) confirm_dmi_hint(tx);
}

void ProtocolChecker::check_against_debug_read(const tlm::tlm_generic_payload& tx) {
  if (debug_delta_ != sc_core::sc_delta_count() || debug_time_ != sc_core::sc_time_stamp()) return;
  if (tx.get_byte_enable_ptr() != nullptr || tx.get_streaming_width() < tx.get_data_length()) {
    return;
  }
  const uint64_t lo = std::max<uint64_t>(tx.get_address(), debug_address_);
  const uint64_t hi = std::min<uint64_t>(tx.get_address() + tx.get_data_length(),
                                         debug_address_ + debug_data_.size());
  if (lo >= hi) return;
  debug_delta_ = ~0ull;  // compared once, with the next read of the same bytes
  if (std::memcmp(tx.get_data_ptr() + (lo - tx.get_address()),
                  debug_data_.data() + (lo - debug_address_), hi - lo) != 0) {
    violation(ProtocolRule::DebugStale, &tx,
              fmt::format("bytes [{:#x}, {:#x}) differ from what transport_dbg returned just "
                          "before",
                          lo, hi));
  }
}

void ProtocolChecker::confirm_dmi_hint(const tlm::tlm_generic_payload& tx) {
  const uint64_t address = tx.get_address();
  if (confirmed_start_ <= address && address <= confirmed_end_) return;
  probe_.set_command(tx.get_command());
  probe_.set_address(address);
  probe_.set_data_ptr(nullptr);
  probe_.set_data_length(0);
  probe_.set_byte_enable_ptr(nullptr);
  tlm::tlm_dmi dmi;
  if (!initiator->get_direct_mem_ptr(probe_, dmi)) {
    violation(ProtocolRule::DmiHint, &tx, "dmi_allowed was set, but get_direct_mem_ptr refuses");
    return;
  }
  probe_.set_address(address);
  check_dmi_grant(probe_, dmi);
  confirmed_start_ = dmi.get_start_address();
  confirmed_end_ = dmi.get_end_address();
}

bool ProtocolChecker::get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi) {
  const uint64_t address = tx.get_address();
  const bool granted = initiator->get_direct_mem_ptr(tx, dmi);
  if (tx.get_address() != address) {
    violation(ProtocolRule::AttributeModified, &tx,
              fmt::format("get_direct_mem_ptr changed the address from {:#x}", address));
  }
  if (granted) check_dmi_grant(tx, dmi);
  return granted;
}

void ProtocolChecker::check_dmi_grant(const tlm::tlm_generic_payload& tx, const tlm::tlm_dmi& dmi) {
  const uint64_t address = tx.get_address();
  if (dmi.get_dmi_ptr() == nullptr) {
    violation(ProtocolRule::DmiPointer, &tx, "DMI granted with a null pointer");
  }
  if (address < dmi.get_start_address() || address > dmi.get_end_address()) {
    violation(ProtocolRule::DmiRegion, &tx,
              fmt::format("granted region [{:#x}, {:#x}] does not contain the address",
                          dmi.get_start_address(), dmi.get_end_address()));
  }
  const bool covered = tx.is_read()    ? dmi.is_read_allowed()
                       : tx.is_write() ? dmi.is_write_allowed()
                                       : !dmi.is_none_allowed();
  if (!covered) {
    violation(ProtocolRule::DmiAccess, &tx, "DMI granted without the access asked for");
  }
}

void ProtocolChecker::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
  if (start <= confirmed_end_ && confirmed_start_ <= end) {
    confirmed_start_ = 1;
    confirmed_end_ = 0;
  }
  target->invalidate_direct_mem_ptr(start, end);
}

unsigned ProtocolChecker::transport_dbg(tlm::tlm_generic_payload& tx) {
  const sc_core::sc_time time = sc_core::sc_time_stamp();
  const uint64_t delta = sc_core::sc_delta_count();
  const Attributes before = attributes_of(tx);
  const unsigned bytes = initiator->transport_dbg(tx);
  if (sc_core::sc_time_stamp() != time || sc_core::sc_delta_count() != delta) {
    violation(ProtocolRule::DebugTime, &tx, "simulation advanced during transport_dbg");
  }
  if (bytes > before.length) {
    violation(ProtocolRule::DebugLength, &tx,
              fmt::format("transport_dbg returned {} for {} bytes", bytes, before.length));
  }
  if (!tx.is_read()) {
    debug_delta_ = ~0ull;
    return bytes;
  }
  const unsigned compared = std::min(bytes, before.length);
  if (compared == 0 || before.data == nullptr) return bytes;
  // Read the same bytes again: a debug read with side effects (a FIFO pop, a clear-on-read
  // status) answers differently the second time.
  scratch_.assign(compared, 0);
  probe_.set_command(tlm::TLM_READ_COMMAND);
  probe_.set_address(before.address);
  probe_.set_data_ptr(scratch_.data());
  probe_.set_data_length(compared);
  probe_.set_byte_enable_ptr(nullptr);
  probe_.set_streaming_width(compared);
  if (std::min(initiator->transport_dbg(probe_), compared) != compared ||
      std::memcmp(scratch_.data(), before.data, compared) != 0) {
    violation(ProtocolRule::DebugSideEffect, &tx, "a second identical debug read differs");
  }
  debug_data_.assign(before.data, before.data + compared);
  debug_address_ = before.address;
  debug_delta_ = delta;
  debug_time_ = time;
  return bytes;
}

tlm::tlm_sync_enum ProtocolChecker::nb_transport_fw(tlm::tlm_generic_payload& tx,
                                                    tlm::tlm_phase& phase,
                                                    sc_core::sc_time& delay) {
  const tlm::tlm_phase sent = phase;
  nb_sent(tx, sent, true);
  const tlm::tlm_sync_enum status = initiator->nb_transport_fw(tx, phase, delay);
  nb_returned(tx, sent, phase, status, true);
  return status;
}

tlm::tlm_sync_enum ProtocolChecker::nb_transport_bw(tlm::tlm_generic_payload& tx,
                                                    tlm::tlm_phase& phase,
                                                    sc_core::sc_time& delay) {
  const tlm::tlm_phase sent = phase;
  nb_sent(tx, sent, false);
  const tlm::tlm_sync_enum status = target->nb_transport_bw(tx, phase, delay);
  nb_returned(tx, sent, phase, status, false);
  return status;
}

void ProtocolChecker::nb_sent(tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase,
                              bool forward) {
  const auto it = open_.find(&tx);
  const auto out_of_order = [&](const char* why) {
    violation(ProtocolRule::PhaseOrder, &tx,
              fmt::format("{} on the {} path {}", phase.get_name(),
                          forward ? "forward" : "backward", why));
  };
  if (forward && phase == tlm::BEGIN_REQ) {
    if (it != open_.end()) return out_of_order("for a transaction still in progress");
    if (request_holder_ != nullptr) {
      violation(ProtocolRule::RequestExclusion, &tx,
                "BEGIN_REQ before the previous request's END_REQ or BEGIN_RESP");
    }
    check_request(tx);
    open_.emplace(&tx, NbState::Request);
    request_holder_ = &tx;
  } else if (forward && phase == tlm::END_RESP) {
    if (it == open_.end() || it->second != NbState::Response) {
      return out_of_order("without a BEGIN_RESP");
    }
    nb_finish(tx);
  } else if (!forward && phase == tlm::END_REQ) {
    if (it == open_.end() || it->second != NbState::Request) {
      return out_of_order("without an open BEGIN_REQ");
    }
    it->second = NbState::RequestDone;
    request_holder_ = nullptr;
  } else if (!forward && phase == tlm::BEGIN_RESP) {
    if (it == open_.end() || it->second == NbState::Response) {
      return out_of_order("without an open request");
    }
    if (request_holder_ == &tx) request_holder_ = nullptr;  // BEGIN_RESP implies END_REQ
    if (response_holder_ != nullptr) {
      violation(ProtocolRule::ResponseExclusion, &tx,
                "BEGIN_RESP before the previous response's END_RESP");
    }
    if (tx.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) {
      violation(ProtocolRule::ResponseNotSet, &tx, "BEGIN_RESP with TLM_INCOMPLETE_RESPONSE");
    }
    it->second = NbState::Response;
    response_holder_ = &tx;
  } else {
    out_of_order("is not allowed");
  }
}

void ProtocolChecker::nb_returned(tlm::tlm_generic_payload& tx, const tlm::tlm_phase& sent,
                                  const tlm::tlm_phase& phase, tlm::tlm_sync_enum status,
                                  bool forward) {
  switch (status) {
    case tlm::TLM_ACCEPTED:
      if (phase != sent) {
        violation(ProtocolRule::ReturnStatus, &tx,
                  fmt::format("TLM_ACCEPTED with the phase changed from {} to {}", sent.get_name(),
                              phase.get_name()));
      }
      return;
    case tlm::TLM_UPDATED:
      nb_sent(tx, phase, !forward);  // the callee answered on the return path
      return;
    case tlm::TLM_COMPLETED:
      if (forward && sent == tlm::BEGIN_REQ) {
        if (tx.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) {
          violation(ProtocolRule::ResponseNotSet, &tx,
                    "TLM_COMPLETED with TLM_INCOMPLETE_RESPONSE");
        }
        nb_finish(tx);
      } else if (!forward && sent == tlm::BEGIN_RESP) {
        nb_finish(tx);
      } else if (!(forward && sent == tlm::END_RESP)) {
        violation(ProtocolRule::ReturnStatus, &tx,
                  fmt::format("TLM_COMPLETED in answer to {}", sent.get_name()));
      }
      return;
  }
}

void ProtocolChecker::nb_finish(tlm::tlm_generic_payload& tx) {
  open_.erase(&tx);
  if (request_holder_ == &tx) request_holder_ = nullptr;
  if (response_holder_ == &tx) response_holder_ = nullptr;
}

}  // namespace gpusoc
