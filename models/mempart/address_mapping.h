// Physical address -> where it lives in the memory system: memory partition (and its L2 slice),
// channel within the partition (pseudo-channel for HBM2), bank group, bank, row and column. The
// bit layout is configurable, lowest field first; partition, channel, bank group and bank indices
// can be XOR-hashed with row bits so that strided streams spread over partitions and banks
// instead of hammering one. Partitions interleave at `interleave_bytes` (a few hundred bytes).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gpusoc::mempart {

struct DramLocation {
  uint32_t partition = 0;
  uint32_t channel = 0;
  uint32_t bank_group = 0;
  uint32_t bank = 0;  // within its bank group
  uint32_t row = 0;
  uint32_t column = 0;  // in units of one burst
  bool operator==(const DramLocation& o) const {
    return partition == o.partition && channel == o.channel && bank_group == o.bank_group &&
           bank == o.bank && row == o.row && column == o.column;
  }
};

struct AddressMappingConfig {
  uint64_t base = 0;                // addresses are offsets from here (VRAM_BASE)
  uint32_t interleave_bytes = 256;  // consecutive bytes in one partition (power of two)
  uint32_t partitions = 6;          // any count >= 1 (not only powers of two: the 8800 GTX has 6)
  uint32_t channels = 1;            // per partition (power of two)
  uint32_t bank_groups = 1;         // per channel (power of two)
  uint32_t banks_per_group = 8;     // power of two
  uint32_t rows = 16384;            // power of two
  uint32_t columns = 32;            // bursts per row (power of two)
  uint32_t burst_bytes = 32;        // bytes per column address (power of two)
  /// Fields above the burst offset, lowest first: "column", "bank", "bank_group", "channel",
  /// "row". Each is named once, or split into pieces: "column:1" places one bit of the column
  /// (its lowest not yet placed), and the field's entry without a width places the rest, so
  /// "channel,column:1,bank_group,column,bank,row" keeps two bursts of a channel in one bank and
  /// moves to the next bank group after them. The partition sits at `interleave_bytes` (it is
  /// not a bit field, as the count need not be a power of two); bits below it that belong to a
  /// field are taken first.
  /// The default puts the bank group lowest, then the channel: consecutive bursts alternate bank
  /// groups, so that a sequential stream pays tCCD_S rather than tCCD_L (longer than the burst on
  /// GDDR5, GDDR6, HBM2 and DDR4), and every few bursts the channel, so that it keeps all the
  /// partition's channels busy; each channel still sees consecutive columns of one row.
  std::vector<std::string> layout{"bank_group", "channel", "column", "bank", "row"};
  /// XOR bank group, bank and channel with a fold of the row bits, and rotate the partition by
  /// that fold and one of the other bits above it (so that strides of partitions x
  /// interleave_bytes do not camp on one partition).
  bool xor_hash = true;
  /// What is wrong (not a power of two, a field missing or repeated, ...), naming `prefix`.key;
  /// empty when nothing is.
  std::string problem(const std::string& prefix) const;
};

/// "bank_group, channel, column : 1, ..." -> its entries, each with the spaces around it gone.
std::vector<std::string> split_layout(const std::string& text);

class AddressMapping {
 public:
  static constexpr unsigned kMaxPieces = 4;  // places one field's bits may be split into
  /// ConfigError on a problem, naming `prefix`.key.
  explicit AddressMapping(const AddressMappingConfig& config,
                          const std::string& prefix = "memory.mapping");
  /// Addresses past the capacity wrap around it (the row is masked). The last answer is kept:
  /// whoever routes a packet to its partition and the partition splitting it into bursts ask
  /// for the same address in a row.
  DramLocation map(uint64_t address) const {
    if (address != last_address_ || !has_last_) {
      last_address_ = address, last_ = compute(address), has_last_ = true;
    }
    return last_;
  }
  /// The byte offset of `address` within its partition: the address with the bits that chose the
  /// partition taken out. Within one partition it is one-to-one, so its L2 slice indexes sets
  /// with it: the global line number would use only the few sets the partition's lines fall in.
  uint64_t local_offset(uint64_t address) const {
    const uint64_t offset = address - config_.base;
    const uint64_t chunk = offset >> interleave_shift_;
    const uint64_t quotient =
        partition_mask_ ? chunk >> partition_shift_ : chunk / config_.partitions;
    return (quotient << interleave_shift_) | (offset & ((uint64_t(1) << interleave_shift_) - 1));
  }
  /// The address map() sends to `where` (column offset 0): the two are inverse, for tests and
  /// for trace generators that aim at a bank. ModelError when a field is out of range.
  uint64_t address_of(const DramLocation& where) const;
  const AddressMappingConfig& config() const { return config_; }
  /// Bytes the mapping covers: partitions x channels x bank groups x banks x rows x row bytes.
  uint64_t capacity_bytes() const {
    return local_bits_ >= 64 ? ~uint64_t(0) : uint64_t(config_.partitions) << local_bits_;
  }

 private:
  // A field's bits, in up to kMaxPieces places of the local address: pieces in layout order
  // hold the value's bits lowest first.
  struct Field {
    struct Piece {
      unsigned shift = 0, bits = 0;
    };
    std::array<Piece, kMaxPieces> pieces{};
    unsigned count = 0;
    uint32_t mask = 0;  // the field's count - 1
    uint32_t get(uint64_t local) const {
      uint32_t value = 0;
      for (unsigned i = 0, at = 0; i < count; at += pieces[i].bits, ++i) {
        value |= uint32_t(local >> pieces[i].shift & ((uint64_t(1) << pieces[i].bits) - 1)) << at;
      }
      return value;
    }
    uint64_t put(uint32_t value) const {
      uint64_t local = 0;
      for (unsigned i = 0, at = 0; i < count; at += pieces[i].bits, ++i) {
        local |= (uint64_t(value >> at) & ((uint64_t(1) << pieces[i].bits) - 1)) << pieces[i].shift;
      }
      return local;
    }
  };
  // XOR-fold of the row, `hash_bits_` wide: bank bits low, then bank group, channel, and the
  // partition rotation (see address_mapping.cpp for why one fold and not one per field).
  uint64_t row_hash(uint32_t row) const;
  // The partition rotation of a partition-local address: the row's fold (`row_fold`, from
  // row_hash) XORed with a fold of the local chunk index's bits outside the row.
  uint32_t rotation_of(uint64_t row_fold, uint64_t local) const;
  DramLocation compute(uint64_t address) const;

  AddressMappingConfig config_;
  // Resolved shifts and masks, built once.
  Field column_, bank_group_, bank_, channel_, row_;
  unsigned burst_shift_ = 0, interleave_shift_ = 0, local_bits_ = 0;
  // A power-of-two partition count (above one): its log2 and mask; else 0.
  unsigned partition_shift_ = 0;
  uint32_t partition_mask_ = 0;
  unsigned hash_bits_ = 0;  // width of the fold; 0: no hashing
  unsigned rotation_bits_ = 1;  // width of the partition rotation's fold
  uint64_t rotation_mask_ = 1;
  uint64_t hash_mask_ = 0;
  unsigned group_hash_shift_ = 0, channel_hash_shift_ = 0, partition_hash_shift_ = 0;
  mutable bool has_last_ = false;  // map()'s last question and answer
  mutable uint64_t last_address_ = 0;
  mutable DramLocation last_;
};

}  // namespace gpusoc::mempart
