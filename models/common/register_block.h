// Registers declared as data, the way virtual-platform peripherals declare them: each has an
// offset, a name, access rights, a reset value and a description, and a unit attaches side
// effects to reads and writes. One RegisterBlock answers the TLM accesses of a unit's register
// window and produces its section of docs/registers.md.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <tlm>

namespace gpusoc {

enum class RegisterAccess : uint8_t {
  ReadOnly,  // writes are ignored and reported through the block's error handler
  ReadWrite,
  WriteOnly,  // reads return 0
};

/// One 32-bit register. Every register is 32 bits wide; 64-bit quantities are _LO/_HI pairs.
struct RegisterSpec {
  uint32_t offset;   // bytes from the start of the block, a multiple of 4
  const char* name;  // upper case, e.g. "RING_BASE_LO"
  RegisterAccess access;
  uint32_t reset;           // value after construction and reset()
  const char* description;  // one sentence: meaning, units, side effects
};

/// Why an access was refused or ignored, for the owner's error status.
enum class RegisterFault : uint8_t {
  ReadOnlyWrite,  // write to a read-only register: ignored, the access still succeeds
  Unmapped,       // no register at the offset: TLM_ADDRESS_ERROR_RESPONSE
  BadAccess,      // not exactly 4 bytes, misaligned, byte enables, or streaming: refused
};

class RegisterBlock {
 public:
  /// `name` titles the block in documentation ("Channel 0", "Interrupts").
  RegisterBlock(std::string name, std::vector<RegisterSpec> specs);

  /// Computed value on read (status registers); without one, the stored value is returned.
  void on_read(uint32_t offset, std::function<uint32_t()> fn);
  /// Called after a write has stored the new value (doorbells, clears, enables).
  void on_write(uint32_t offset, std::function<void(uint32_t value)> fn);
  /// Told about every refused or ignored access, with its offset.
  void on_fault(std::function<void(RegisterFault, uint32_t offset)> fn);

  /// Answers a TLM access to the block (address relative to the block). Accesses must be exactly
  /// 4 bytes, 4-byte aligned, without byte enables or streaming: anything else gets
  /// TLM_BURST_ERROR_RESPONSE (oversized) or TLM_GENERIC_ERROR_RESPONSE (misaligned, byte
  /// enables); an offset with no register gets TLM_ADDRESS_ERROR_RESPONSE; a write to a
  /// read-only register is ignored, reported as ReadOnlyWrite, and answered TLM_OK_RESPONSE.
  void access(tlm::tlm_generic_payload& tx);
  /// The shape rule of access() alone, for units that check before routing an access:
  /// TLM_OK_RESPONSE when the access is exactly 4 bytes, aligned, without byte enables or
  /// streaming, else the error response access() would give.
  static tlm::tlm_response_status shape_status(const tlm::tlm_generic_payload& tx);
  /// Debug access: reads return stored or computed values without read side effects beyond the
  /// computation; writes store without calling on_write. Returns bytes transferred (0 on error).
  unsigned debug_access(tlm::tlm_generic_payload& tx);

  uint32_t read(uint32_t offset) const;       // stored or computed value; no side effects
  void set(uint32_t offset, uint32_t value);  // the unit updates its own status registers
  void reset();                               // every register to its reset value

  const std::string& name() const { return name_; }
  const std::vector<RegisterSpec>& specs() const { return specs_; }
  uint32_t size_bytes() const;  // one past the last register's offset + 4

 private:
  const RegisterSpec* find(uint32_t offset) const;
  int index_of(uint32_t offset) const;  // position in specs_, -1 when no register is there
  std::string name_;
  std::vector<RegisterSpec> specs_;
  std::vector<uint32_t> values_;
  std::vector<std::function<uint32_t()>> readers_;
  std::vector<std::function<void(uint32_t)>> writers_;
  std::function<void(RegisterFault, uint32_t)> fault_handler_;
  std::vector<int> index_;  // offset / 4 -> position in specs_, -1 where there is none
};

/// A Markdown table of a block's registers at `base` (BAR0 offset), for docs/registers.md. The
/// Reset column is `reset_of(spec)` where given (what a configured device reads after reset),
/// else the spec's own reset value.
std::string register_table_markdown(
    const std::string& title, uint64_t base, const std::vector<RegisterSpec>& specs,
    const std::function<uint32_t(const RegisterSpec&)>& reset_of = {});

}  // namespace gpusoc
