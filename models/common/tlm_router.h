// An address decoder between TLM initiators and targets, as in every virtual platform's bus:
// each mapped range goes to one initiator port, translated; anything else answers
// TLM_ADDRESS_ERROR_RESPONSE. Debug transport and DMI pass through with the same translation,
// and DMI invalidations travel back translated to every initiator.
//
// The router forwards b_transport, transport_dbg and DMI; it does not forward nb_transport.
// The forwarded payload carries the translated address while the target has it; the router
// restores the initiator's address before returning, so initiators and protocol checkers in
// front of it see their payload unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <systemc>
#include <tlm>

namespace gpusoc {

class TlmRouter : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<TlmRouter> target;        // initiators bind here
  tlm_utils::multi_passthrough_initiator_socket<TlmRouter> initiator;  // to targets, in bind order

  explicit TlmRouter(sc_core::sc_module_name name);

  /// Routes [base, base + size) to initiator port `port` (the port's index in bind order); the
  /// forwarded address is address - base + target_base. Overlapping ranges are refused with
  /// ModelError naming both; so are empty ranges and ranges that wrap around 2^64. A port that
  /// is never bound is reported at the end of elaboration.
  void map(unsigned port, uint64_t base, uint64_t size, uint64_t target_base = 0,
           std::string label = "");

 private:
  struct Range {
    uint64_t base, size, target_base;
    unsigned port;
    std::string label;
  };
  /// The range holding all of [address, address + length), or null.
  const Range* decode(uint64_t address, uint64_t length) const;
  void end_of_elaboration() override;
  void b_transport(int id, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload& tx);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& tx, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(int port, sc_dt::uint64 start, sc_dt::uint64 end);
  void deny_unmapped_dmi(uint64_t address, tlm::tlm_dmi& dmi) const;
  std::vector<Range> ranges_;  // sorted by base
};

}  // namespace gpusoc
