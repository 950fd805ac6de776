#include "models/common/register_block.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "models/common/error.h"

namespace gpusoc {
namespace {

const char* access_name(RegisterAccess access) {
  switch (access) {
    case RegisterAccess::ReadOnly:
      return "RO";
    case RegisterAccess::ReadWrite:
      return "RW";
    case RegisterAccess::WriteOnly:
      return "WO";
  }
  return "?";
}

}  // namespace

RegisterBlock::RegisterBlock(std::string name, std::vector<RegisterSpec> specs)
    : name_(std::move(name)), specs_(std::move(specs)) {
  uint32_t end = 0;
  for (const RegisterSpec& spec : specs_) {
    if (spec.offset % 4 != 0) {
      throw ModelError(name_, fmt::format("register {} at offset {:#x} is not 4-byte aligned",
                                          spec.name, spec.offset));
    }
    end = std::max(end, spec.offset + 4);
  }
  index_.assign(end / 4, -1);
  for (size_t i = 0; i < specs_.size(); ++i) {
    int& slot = index_[specs_[i].offset / 4];
    if (slot >= 0) {
      throw ModelError(name_, fmt::format("registers {} and {} share offset {:#x}",
                                          specs_[static_cast<size_t>(slot)].name, specs_[i].name,
                                          specs_[i].offset));
    }
    slot = static_cast<int>(i);
  }
  values_.resize(specs_.size());
  readers_.resize(specs_.size());
  writers_.resize(specs_.size());
  reset();
}

int RegisterBlock::index_of(uint32_t offset) const {
  if (offset % 4 != 0 || offset / 4 >= index_.size()) return -1;
  return index_[offset / 4];
}

const RegisterSpec* RegisterBlock::find(uint32_t offset) const {
  const int i = index_of(offset);
  return i < 0 ? nullptr : &specs_[static_cast<size_t>(i)];
}

void RegisterBlock::on_read(uint32_t offset, std::function<uint32_t()> fn) {
  const int i = index_of(offset);
  if (i < 0) throw ModelError(name_, fmt::format("on_read: no register at {:#x}", offset));
  readers_[static_cast<size_t>(i)] = std::move(fn);
}

void RegisterBlock::on_write(uint32_t offset, std::function<void(uint32_t value)> fn) {
  const int i = index_of(offset);
  if (i < 0) throw ModelError(name_, fmt::format("on_write: no register at {:#x}", offset));
  writers_[static_cast<size_t>(i)] = std::move(fn);
}

void RegisterBlock::on_fault(std::function<void(RegisterFault, uint32_t offset)> fn) {
  fault_handler_ = std::move(fn);
}

tlm::tlm_response_status RegisterBlock::shape_status(const tlm::tlm_generic_payload& tx) {
  const unsigned length = tx.get_data_length();
  if (length > 4) return tlm::TLM_BURST_ERROR_RESPONSE;
  if (length < 4 || tx.get_address() % 4 != 0 || tx.get_byte_enable_ptr() != nullptr ||
      tx.get_streaming_width() != length) {
    return tlm::TLM_GENERIC_ERROR_RESPONSE;
  }
  return tlm::TLM_OK_RESPONSE;
}

void RegisterBlock::access(tlm::tlm_generic_payload& tx) {
  const uint64_t address = tx.get_address();
  const uint32_t offset = static_cast<uint32_t>(address);
  const auto report = [&](RegisterFault fault) {
    if (fault_handler_) fault_handler_(fault, offset);
  };
  tx.set_dmi_allowed(false);
  const tlm::tlm_response_status shape = shape_status(tx);
  if (shape != tlm::TLM_OK_RESPONSE) {
    tx.set_response_status(shape);
    report(RegisterFault::BadAccess);
    return;
  }
  const int i = address > UINT32_MAX ? -1 : index_of(offset);
  if (i < 0) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    report(RegisterFault::Unmapped);
    return;
  }
  const auto slot = static_cast<size_t>(i);
  const RegisterSpec& spec = specs_[slot];
  if (tx.is_read()) {
    const uint32_t value = spec.access == RegisterAccess::WriteOnly ? 0 : read(offset);
    std::memcpy(tx.get_data_ptr(), &value, 4);
  } else if (tx.is_write()) {
    if (spec.access == RegisterAccess::ReadOnly) {
      report(RegisterFault::ReadOnlyWrite);
    } else {
      uint32_t value = 0;
      std::memcpy(&value, tx.get_data_ptr(), 4);
      values_[slot] = value;
      if (writers_[slot]) writers_[slot](value);
    }
  }
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned RegisterBlock::debug_access(tlm::tlm_generic_payload& tx) {
  const uint64_t address = tx.get_address();
  const unsigned length = tx.get_data_length();
  if (address % 4 != 0 || length % 4 != 0 || tx.get_byte_enable_ptr() != nullptr ||
      address + length > UINT32_MAX) {
    return 0;
  }
  unsigned done = 0;
  for (; done < length; done += 4) {
    const int i = index_of(static_cast<uint32_t>(address) + done);
    if (i < 0) break;
    const auto slot = static_cast<size_t>(i);
    uint8_t* data = tx.get_data_ptr() + done;
    if (tx.is_read()) {
      const uint32_t value =
          specs_[slot].access == RegisterAccess::WriteOnly ? 0 : read(specs_[slot].offset);
      std::memcpy(data, &value, 4);
    } else if (tx.is_write()) {
      if (specs_[slot].access == RegisterAccess::ReadOnly) break;
      std::memcpy(&values_[slot], data, 4);
    }
  }
  if (done > 0) tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return done;
}

uint32_t RegisterBlock::read(uint32_t offset) const {
  const int i = index_of(offset);
  if (i < 0) throw ModelError(name_, fmt::format("read: no register at {:#x}", offset));
  const auto slot = static_cast<size_t>(i);
  return readers_[slot] ? readers_[slot]() : values_[slot];
}

void RegisterBlock::set(uint32_t offset, uint32_t value) {
  const int i = index_of(offset);
  if (i < 0) throw ModelError(name_, fmt::format("set: no register at {:#x}", offset));
  values_[static_cast<size_t>(i)] = value;
}

void RegisterBlock::reset() {
  for (size_t i = 0; i < specs_.size(); ++i) values_[i] = specs_[i].reset;
}

uint32_t RegisterBlock::size_bytes() const {
  return static_cast<uint32_t>(index_.size() * 4);
}

std::string register_table_markdown(
    const std::string& title, uint64_t base, const std::vector<RegisterSpec>& specs,
    const std::function<uint32_t(const RegisterSpec&)>& reset_of) {
  std::ostringstream out;
  out << "### " << title << "\n\n";
  out << "| Offset | Name | Access | Reset | Description |\n";
  out << "|---|---|---|---|---|\n";
  for (const RegisterSpec& spec : specs) {
    out << fmt::format("| `{:#06x}` | `{}` | {} | `{:#010x}` | {} |\n", base + spec.offset,
                       spec.name, access_name(spec.access),
                       reset_of ? reset_of(spec) : spec.reset, spec.description);
  }
  return out.str();
}

}  // namespace gpusoc
