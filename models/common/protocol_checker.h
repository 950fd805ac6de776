// A pass-through that checks the TLM-2.0 base protocol on everything crossing it, for tests and
// for users who suspect a model: bind it between an initiator and a target (initiator ->
// checker.target, checker.initiator -> target) and every b_transport, nb_transport, DMI request
// and debug access is forwarded unchanged and checked on the way.
//
// Each violation is recorded (rule, message) and reported with SC_REPORT_ERROR under
// ProtocolChecker::kMsgType, so a testbench can count them (sc_report_handler::get_count) or,
// with SystemC's default action for errors, have the first one thrown as an exception.
//
// Checks that need extra traffic use debug transport and DMI only, which must be free of side
// effects: a DMI hint is confirmed with get_direct_mem_ptr, a debug read is repeated once and
// compared, and the next timed read of the same bytes in the same delta cycle must see what the
// debug read saw.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

namespace gpusoc {

enum class ProtocolRule : uint8_t {
  // b_transport (and the payload of a new nb_transport request)
  InitialResponse,    // the initiator must pass TLM_INCOMPLETE_RESPONSE
  ZeroLength,         // data length must be > 0
  ByteEnableLength,   // a byte-enable pointer needs a byte-enable length > 0
  ResponseNotSet,     // the target must set the response status
  AttributeModified,  // command, address, data/byte-enable pointers, lengths, streaming width
  DelayDecreased,     // the annotated delay only grows
  // DMI
  DmiHint,     // dmi_allowed set by the target, but get_direct_mem_ptr refuses
  DmiRegion,   // a granted region must contain the requested address
  DmiAccess,   // granted access must cover the command asked for
  DmiPointer,  // a grant needs a pointer
  // debug transport
  DebugLength,      // at most data length bytes transferred
  DebugTime,        // no simulated time (nor delta cycle) passes
  DebugSideEffect,  // two identical debug reads return the same data
  DebugStale,       // a timed read right after a debug read sees the same data
  // nb_transport
  PhaseOrder,         // BEGIN_REQ, END_REQ, BEGIN_RESP, END_RESP on the right paths
  RequestExclusion,   // one request in its request phase at a time
  ResponseExclusion,  // one response in its response phase at a time
  ReturnStatus,       // TLM_ACCEPTED keeps the phase; TLM_COMPLETED only where allowed
};

const char* to_string(ProtocolRule rule);

class ProtocolChecker : public sc_core::sc_module {
 public:
  static constexpr const char* kMsgType = "/gpusoc/tlm/protocol_checker";

  tlm_utils::simple_target_socket<ProtocolChecker> target;        // the initiator binds here
  tlm_utils::simple_initiator_socket<ProtocolChecker> initiator;  // bound to the target

  struct Violation {
    ProtocolRule rule;
    std::string message;  // names the checker, the rule and the transaction
  };

  explicit ProtocolChecker(sc_core::sc_module_name name);

  const std::vector<Violation>& violations() const { return violations_; }
  /// How many violations of one rule were found.
  size_t count(ProtocolRule rule) const;

 private:
  struct Attributes {
    tlm::tlm_command command;
    uint64_t address;
    unsigned char* data;
    unsigned length;
    unsigned char* byte_enables;
    unsigned byte_enable_length;
    unsigned streaming_width;
  };
  enum class NbState : uint8_t { Request, RequestDone, Response };

  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);

  static Attributes attributes_of(const tlm::tlm_generic_payload& tx);
  void check_request(const tlm::tlm_generic_payload& tx);
  void check_unchanged(const Attributes& before, const tlm::tlm_generic_payload& tx);
  void check_dmi_grant(const tlm::tlm_generic_payload& tx, const tlm::tlm_dmi& dmi);
  void confirm_dmi_hint(const tlm::tlm_generic_payload& tx);
  void check_against_debug_read(const tlm::tlm_generic_payload& tx);
  /// Phase bookkeeping for one nb_transport call, before (`sent`) and after it returned.
  void nb_sent(tlm::tlm_generic_payload& tx, const tlm::tlm_phase& phase, bool forward);
  void nb_returned(tlm::tlm_generic_payload& tx, const tlm::tlm_phase& sent,
                   const tlm::tlm_phase& phase, tlm::tlm_sync_enum status, bool forward);
  void nb_finish(tlm::tlm_generic_payload& tx);
  void violation(ProtocolRule rule, const tlm::tlm_generic_payload* tx, const std::string& what);

  std::vector<Violation> violations_;
  // A DMI region already confirmed for the hint, so each region is confirmed once.
  uint64_t confirmed_start_ = 1, confirmed_end_ = 0;
  // The last debug read, for comparison with a timed read in the same delta cycle.
  std::vector<unsigned char> debug_data_;
  uint64_t debug_address_ = 0;
  uint64_t debug_delta_ = ~0ull;
  sc_core::sc_time debug_time_;
  std::vector<unsigned char> scratch_;
  tlm::tlm_generic_payload probe_;  // the checker's own debug and DMI requests
  // nb_transport: the state of each open transaction, and who holds the request and response
  // phases of this hop.
  std::unordered_map<const tlm::tlm_generic_payload*, NbState> open_;
  const tlm::tlm_generic_payload* request_holder_ = nullptr;
  const tlm::tlm_generic_payload* response_holder_ = nullptr;
};

}  // namespace gpusoc
