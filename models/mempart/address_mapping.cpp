#include "models/mempart/address_mapping.h"

#include <algorithm>
#include <array>
#include <sstream>

#include "models/common/error.h"

// The hash. Every hashed index is shifted by a value that depends on the row alone, so the map
// stays a bijection and address_of() can undo it once it has rebuilt the row:
// - bank, bank group and channel are XORed with row-derived bits (permutation-based
//   interleaving, Zhang et al., MICRO 2000): for a fixed row that permutes the banks;
// - the partition is rotated, (slot + shift) mod partitions: for a fixed partition-local address
//   that permutes the partitions, whatever their count, and the local address does not depend on
//   the partition. The shift is the row's fold XORed with a fold of the local chunk index's other
//   bits (column, bank, ...), so that a stride of partitions x interleave_bytes, which keeps the
//   slot and the row, still moves from partition to partition instead of camping on one.
// The row-derived bits are ONE XOR-fold of the row, as wide as the bank, bank group, channel and
// partition indices together (the channel too: unhashed, a large stride keeps to one channel). With
// one fold per field, the fields would move in step (a 64 KiB stride over 8 partitions used 8 of
// the 64 partition-bank pairs). With one fold, a stride of 2^j rows sends bit i of the step count
// to fold bit (i + j) mod width, so any run of 2^width steps covers every fold value exactly once:
// power-of-two strides spread exactly evenly. A partition count that is not a power of two gets two
// more fold bits, so that reducing them mod the count is at most ceil(2^w / count) / floor(2^w /
// count) uneven (6/5 for the 8800 GTX's 6 partitions).

namespace gpusoc::mempart {
namespace {

bool power_of_two(uint32_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

unsigned log2_of(uint32_t power) {
  return power <= 1 ? 0 : unsigned(__builtin_ctz(power));
}

unsigned ceil_log2(uint32_t v) {
  return v <= 1 ? 0 : unsigned(32 - __builtin_clz(v - 1));
}

constexpr std::array<const char*, 5> kFields{"column", "bank_group", "bank", "channel", "row"};

// The field counts in kFields order.
std::array<uint32_t, 5> counts_of(const AddressMappingConfig& c) {
  return {c.columns, c.bank_groups, c.banks_per_group, c.channels, c.rows};
}

int field_index(const std::string& name) {
  const auto it = std::find(kFields.begin(), kFields.end(), name);
  return it == kFields.end() ? -1 : int(it - kFields.begin());
}

// One layout entry: "column" (the field's remaining bits) or "column:2" (two of its bits).
struct LayoutEntry {
  std::string name;
  int field = -1;  // index into kFields, -1 when unknown
  int bits = -1;   // -1: the rest; 0: a width that is not a count of 1 to 32
};

std::string trimmed(const std::string& text) {
  const size_t first = text.find_first_not_of(' ');
  const size_t last = text.find_last_not_of(' ');
  return first == std::string::npos ? "" : text.substr(first, last - first + 1);
}

LayoutEntry parse_entry(const std::string& text) {
  LayoutEntry e;
  const size_t colon = text.find(':');
  e.name = trimmed(text.substr(0, colon));
  e.field = field_index(e.name);
  if (colon != std::string::npos) {
    const std::string width = trimmed(text.substr(colon + 1));
    const bool digits = !width.empty() && width.size() <= 2 &&
                        std::all_of(width.begin(), width.end(), [](char c) {
                          return c >= '0' && c <= '9';
                        });
    const int n = digits ? std::stoi(width) : 0;
    e.bits = n >= 1 && n <= 32 ? n : 0;
  }
  return e;
}

}  // namespace

std::vector<std::string> split_layout(const std::string& text) {
  std::vector<std::string> entries;
  std::stringstream in(text);
  std::string entry;
  while (std::getline(in, entry, ',')) entries.push_back(trimmed(entry));
  return entries;
}

std::string AddressMappingConfig::problem(const std::string& prefix) const {
  const std::string key = prefix + ".";
  const auto is = [](uint64_t v) { return " (it is " + std::to_string(v) + ")"; };
  const std::array<std::pair<const char*, uint32_t>, 7> powers{
      {{"interleave_bytes", interleave_bytes},
       {"burst_bytes", burst_bytes},
       {"columns", columns},
       {"bank_groups", bank_groups},
       {"banks_per_group", banks_per_group},
       {"channels", channels},
       {"rows", rows}}};
  for (const auto& [name, value] : powers) {
    if (!power_of_two(value)) return key + name + " must be a power of two" + is(value);
  }
  if (partitions == 0) return key + "partitions must be at least 1";
  if (interleave_bytes < burst_bytes) {
    return key + "interleave_bytes must be at least " + key + "burst_bytes (" +
           std::to_string(burst_bytes) + ")" + is(interleave_bytes);
  }
  std::array<bool, kFields.size()> seen{}, whole{};
  std::array<unsigned, kFields.size()> sized_bits{}, pieces{};
  for (const std::string& text : layout) {
    const LayoutEntry e = parse_entry(text);
    if (e.field < 0) {
      return key + "layout names an unknown field \"" + e.name +
             "\" (the fields are column, bank_group, bank, channel, row)";
    }
    if (e.bits == 0) {
      return key + "layout entry \"" + text + "\": the width after ':' must be 1 to 32 bits";
    }
    const size_t f = size_t(e.field);
    if (e.bits < 0 && whole[f]) return key + "layout names \"" + e.name + "\" twice";
    if (++pieces[f] > AddressMapping::kMaxPieces) {
      return key + "layout splits \"" + e.name + "\" into more than " +
             std::to_string(AddressMapping::kMaxPieces) + " pieces";
    }
    seen[f] = true;
    whole[f] = whole[f] || e.bits < 0;
    if (e.bits > 0) sized_bits[f] += unsigned(e.bits);
  }
  const std::array<uint32_t, 5> counts = counts_of(*this);
  for (size_t i = 0; i < kFields.size(); ++i) {
    if (!seen[i]) return key + "layout lacks \"" + kFields[i] + "\"";
    const unsigned bits = log2_of(counts[i]);
    if (sized_bits[i] > bits || (!whole[i] && sized_bits[i] != bits)) {
      return key + "layout gives \"" + kFields[i] + "\" " + std::to_string(sized_bits[i]) +
             " bits; it has " + std::to_string(bits) +
             " (name it once without a width to place the rest)";
    }
  }
  unsigned local_bits = log2_of(burst_bytes);
  for (uint32_t count : counts_of(*this)) local_bits += log2_of(count);
  if (log2_of(interleave_bytes) > local_bits) {
    return key + "interleave_bytes must not exceed one partition's capacity (2^" +
           std::to_string(local_bits) + " bytes)" + is(interleave_bytes);
  }
  if (local_bits + ceil_log2(partitions) > 64) {
    return key + "rows, " + key + "columns and the other counts describe more than 2^64 bytes";
  }
  return {};
}

AddressMapping::AddressMapping(const AddressMappingConfig& config, const std::string& prefix)
    : config_(config) {
  if (const std::string why = config.problem(prefix); !why.empty()) throw ConfigError(why);
  burst_shift_ = log2_of(config.burst_bytes);
  interleave_shift_ = log2_of(config.interleave_bytes);
  const std::array<Field*, kFields.size()> fields{&column_, &bank_group_, &bank_, &channel_, &row_};
  const std::array<uint32_t, kFields.size()> counts = counts_of(config);
  std::array<unsigned, kFields.size()> rest{};  // the bits the entry without a width places
  for (size_t i = 0; i < kFields.size(); ++i) {
    rest[i] = log2_of(counts[i]);
    fields[i]->mask = counts[i] - 1;
  }
  for (const std::string& text : config.layout) {
    const LayoutEntry e = parse_entry(text);
    if (e.bits > 0) rest[size_t(e.field)] -= unsigned(e.bits);
  }
  unsigned shift = burst_shift_;
  for (const std::string& text : config.layout) {
    const LayoutEntry e = parse_entry(text);
    const unsigned bits = e.bits > 0 ? unsigned(e.bits) : rest[size_t(e.field)];
    if (bits == 0) continue;  // an empty field has no bits anywhere
    Field& field = *fields[size_t(e.field)];
    field.pieces[field.count++] = Field::Piece{shift, bits};
    shift += bits;
  }
  local_bits_ = shift;
  if (power_of_two(config.partitions)) {
    partition_shift_ = log2_of(config.partitions);
    partition_mask_ = config.partitions - 1;
  }
  if (!config.xor_hash) return;
  const unsigned bank_bits = log2_of(config.banks_per_group);
  const unsigned group_bits = log2_of(config.bank_groups);
  const uint32_t p = config.partitions;
  const unsigned channel_bits = log2_of(config.channels);
  const unsigned partition_bits = ceil_log2(p) + (power_of_two(p) || p == 1 ? 0 : 2);
  group_hash_shift_ = bank_bits;
  channel_hash_shift_ = bank_bits + group_bits;
  partition_hash_shift_ = std::min(channel_hash_shift_ + channel_bits, 63u);  // past the fold
  // Rows are 32 bits: a fold that wide is the row itself.
  hash_bits_ = std::min(partition_hash_shift_ + partition_bits, 32u);
  hash_mask_ = (uint64_t(1) << hash_bits_) - 1;
  rotation_bits_ = std::max(partition_bits, 1u);  // the rotation's own width
  rotation_mask_ = (uint64_t(1) << rotation_bits_) - 1;
}

uint32_t AddressMapping::rotation_of(uint64_t row_fold, uint64_t local) const {
  uint64_t fold = row_fold >> partition_hash_shift_;
  // Within the mapped bits (addresses past the capacity wrap), less the row's.
  const uint64_t mapped = local_bits_ >= 64 ? ~uint64_t(0) : (uint64_t(1) << local_bits_) - 1;
  for (uint64_t rest = (local & mapped & ~row_.put(row_.mask)) >> interleave_shift_; rest != 0;
       rest >>= rotation_bits_)
    fold ^= rest & rotation_mask_;
  return uint32_t(partition_mask_ ? fold & partition_mask_ : fold % config_.partitions);
}

uint64_t AddressMapping::row_hash(uint32_t row) const {
  uint64_t hash = 0;
  for (uint64_t rest = row; rest != 0; rest >>= hash_bits_) hash ^= rest & hash_mask_;
  return hash;
}

DramLocation AddressMapping::compute(uint64_t address) const {
  const uint64_t offset = address - config_.base;
  const uint64_t chunk = offset >> interleave_shift_;
  const uint32_t partitions = config_.partitions;
  // Dividing is slow: most partition counts are powers of two.
  const uint64_t quotient = partition_mask_ ? chunk >> partition_shift_ : chunk / partitions;
  const uint64_t local = local_offset(address);
  DramLocation where;
  where.partition = uint32_t(chunk - quotient * partitions);
  where.channel = channel_.get(local);
  where.bank_group = bank_group_.get(local);
  where.bank = bank_.get(local);
  where.row = row_.get(local);
  where.column = column_.get(local);
  if (hash_bits_ != 0) {
    const uint64_t hash = row_hash(where.row);
    where.bank ^= uint32_t(hash) & bank_.mask;
    where.bank_group ^= uint32_t(hash >> group_hash_shift_) & bank_group_.mask;
    where.channel ^= uint32_t(hash >> channel_hash_shift_) & channel_.mask;
    where.partition += rotation_of(hash, local);
    if (where.partition >= partitions) where.partition -= partitions;
  }
  return where;
}

uint64_t AddressMapping::address_of(const DramLocation& where) const {
  const auto check = [](uint32_t value, uint64_t count, const char* what) {
    if (value >= count) {
      throw ModelError("address mapping", std::string(what) + " " + std::to_string(value) +
                                              " is out of range (there are " +
                                              std::to_string(count) + ")");
    }
  };
  check(where.partition, config_.partitions, "partition");
  check(where.channel, uint64_t(channel_.mask) + 1, "channel");
  check(where.bank_group, uint64_t(bank_group_.mask) + 1, "bank group");
  check(where.bank, uint64_t(bank_.mask) + 1, "bank");
  check(where.row, uint64_t(row_.mask) + 1, "row");
  check(where.column, uint64_t(column_.mask) + 1, "column");
  uint32_t bank = where.bank;
  uint32_t group = where.bank_group;
  uint32_t channel = where.channel;
  const uint32_t partitions = config_.partitions;
  uint32_t rotation = 0;
  if (hash_bits_ != 0) {
    const uint64_t hash = row_hash(where.row);
    bank ^= uint32_t(hash) & bank_.mask;
    group ^= uint32_t(hash >> group_hash_shift_) & bank_group_.mask;
    channel ^= uint32_t(hash >> channel_hash_shift_) & channel_.mask;
  }
  const uint64_t local = column_.put(where.column) | bank_group_.put(group) | bank_.put(bank) |
                         channel_.put(channel) | row_.put(where.row);
  if (hash_bits_ != 0) rotation = rotation_of(row_hash(where.row), local);
  const uint32_t slot = where.partition >= rotation ? where.partition - rotation
                                                    : where.partition + partitions - rotation;
  const uint64_t chunk = (local >> interleave_shift_) * partitions + slot;
  const uint64_t inside = local & ((uint64_t(1) << interleave_shift_) - 1);
  return config_.base + ((chunk << interleave_shift_) | inside);
}

}  // namespace gpusoc::mempart
