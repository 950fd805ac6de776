#include "models/mempart/address_mapping.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "models/common/error.h"

namespace gpusoc::mempart {
namespace {

constexpr uint64_t kBase = 0x4000'0000;
constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;

// 8800 GTX-like: 256-byte interleave, 32-byte bursts, 32 columns, 8 banks, 16K rows: 128 MiB a
// partition. Partition-local bits: burst 0-4, column 5-9, bank 10-12, row 13-26.
AddressMappingConfig gtx(uint32_t partitions, bool hash) {
  AddressMappingConfig c;
  c.base = kBase;
  c.partitions = partitions;
  c.xor_hash = hash;
  return c;
}

// GDDR5-like organisation: 4 bank groups of 4 banks, 2 channels, 16K rows.
AddressMappingConfig grouped(uint32_t partitions, bool hash) {
  AddressMappingConfig c = gtx(partitions, hash);
  c.bank_groups = 4;
  c.banks_per_group = 4;
  c.channels = 2;
  return c;
}

// Every field wider than one, small enough to enumerate every location; the bank group and one
// column bit sit below the 64-byte interleave.
AddressMappingConfig tiny(uint32_t partitions, bool hash, std::vector<std::string> layout) {
  AddressMappingConfig c;
  c.base = kBase;
  c.partitions = partitions;
  c.xor_hash = hash;
  c.interleave_bytes = 64;
  c.burst_bytes = 16;
  c.columns = 4;
  c.bank_groups = 2;
  c.banks_per_group = 4;
  c.channels = 2;
  c.rows = 64;
  c.layout = std::move(layout);
  return c;
}

// Bytes of partition-local space per row: the unhashed distance, times the partition count,
// between two addresses in the same partition and bank and consecutive rows.
uint64_t row_stride(const AddressMappingConfig& c) {
  return uint64_t(c.partitions) * c.columns * c.burst_bytes * c.bank_groups * c.banks_per_group *
         c.channels;
}

std::string label(const AddressMappingConfig& c) {
  return std::to_string(c.partitions) + " partitions, " + std::to_string(c.bank_groups) + "x" +
         std::to_string(c.banks_per_group) + " banks, hash " + (c.xor_hash ? "on" : "off");
}

TEST(AddressMappingLayout, DefaultLayoutSplitsFieldsAsComputedByHand) {
  const AddressMapping m(gtx(6, false));
  // Local address 5<<13 | 3<<10 | 17<<5 | 7 = 44583 = 174 x 256 + 39: quotient 174, so partition
  // 4 is chunk 174 x 6 + 4 = 1048, offset 1048 x 256 + 39 = 0x41827.
  const DramLocation want{4, 0, 0, 3, 5, 17};
  EXPECT_EQ(m.map(kBase + 0x41827), want);
  EXPECT_EQ(m.address_of(want), kBase + 0x41827 - 7);  // column offset 0
  EXPECT_EQ(m.map(kBase + 0x41827 - 7 + 31), want);    // the whole burst
  EXPECT_EQ(m.map(kBase + 0x41827 - 7 + 32).column, 18u);
  // The next 256 bytes go to the next partition, at the same local address.
  EXPECT_EQ(m.map(kBase + 0x41827 + 256), (DramLocation{5, 0, 0, 3, 5, 17}));
  EXPECT_EQ(m.map(kBase + 0x41827 + 512), (DramLocation{0, 0, 0, 3, 5, 17 + 8}));
}

TEST(AddressMappingLayout, DefaultLayoutPutsBankGroupThenChannelLowestAsComputedByHand) {
  const AddressMapping m(grouped(6, false));
  // Local bits: burst 0-4, bank group 5-6, channel 7, column 8-12, bank 13-14, row 15-28.
  // Local 7 | 2<<5 | 1<<7 | 17<<8 | 3<<13 | 5<<15 = 192967 = 753 x 256 + 199: partition 4 is
  // chunk 753 x 6 + 4 = 4522, offset 4522 x 256 + 199 = 0x11aac7.
  const DramLocation want{4, 1, 2, 3, 5, 17};
  EXPECT_EQ(m.map(kBase + 0x11aac7), want);
  EXPECT_EQ(m.address_of(want), kBase + 0x11aac7 - 7);
  // The next burst is the next bank group, same channel and column: a stream alternates bank
  // groups, then channels.
  EXPECT_EQ(m.map(kBase + 0x11aac7 - 7 + 32), (DramLocation{4, 1, 3, 3, 5, 17}));
  EXPECT_EQ(m.map(kBase + 0x11aac7 - 7 - 64), (DramLocation{4, 1, 0, 3, 5, 17}));
  EXPECT_EQ(m.map(kBase + 0x11aac7 - 7 - 128), (DramLocation{4, 0, 2, 3, 5, 17}));
}

// Accel-Sim's V100 and A100 maps keep 128 bytes in one bank and put a bank(-group) bit right
// above them; "column:1" splits the column to do the same with two pseudo-channels.
TEST(AddressMappingLayout, SplitColumnKeepsTwoBurstsInABankThenMovesToTheNextBankGroup) {
  AddressMappingConfig c = grouped(1, false);
  c.layout = {"channel", "column:1", "bank_group", "column", "bank", "row"};
  const AddressMapping m(c);
  // Local bits: burst 0-4, channel 5, column bit 0 at 6, bank group 7-8, column bits 1-4 at
  // 9-12, bank 13-14, row 15-28.
  EXPECT_EQ(m.map(kBase + 0), (DramLocation{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(m.map(kBase + 32), (DramLocation{0, 1, 0, 0, 0, 0}));
  EXPECT_EQ(m.map(kBase + 64), (DramLocation{0, 0, 0, 0, 0, 1}));   // same bank, next column
  EXPECT_EQ(m.map(kBase + 128), (DramLocation{0, 0, 1, 0, 0, 0}));  // next bank group
  EXPECT_EQ(m.map(kBase + 384), (DramLocation{0, 0, 3, 0, 0, 0}));
  EXPECT_EQ(m.map(kBase + 512), (DramLocation{0, 0, 0, 0, 0, 2}));  // column bit 1
  // Column 27 = 0b11011: bit 0 at 6, bits 1-4 (0b1101) at 9-12; bank group 2, bank 3, row 5.
  const uint64_t local = 1u << 6 | 2u << 7 | 13u << 9 | 3u << 13 | 5u << 15;
  const DramLocation want{0, 0, 2, 3, 5, 27};
  EXPECT_EQ(m.map(kBase + local), want);
  EXPECT_EQ(m.address_of(want), kBase + local);
}

TEST(AddressMappingLayout, HashXorsTheBankAndRotatesThePartitionAsComputedByHand) {
  const AddressMapping m(gtx(6, true));
  // Row 421 = 0b1'1010'0101 instead of 5: local 421<<13 | 3<<10 | 17<<5 | 7, quotient 13486,
  // offset (13486 x 6 + 4) x 256 + 39 = 0x13c1827. Fold width 3 bank bits + 5 partition bits
  // (ceil(log2 6) + 2): 0xa5 ^ 0x1 = 0xa4. Bank 3 ^ (0xa4 & 7) = 7. The rotation folds the row's
  // 0xa4 >> 3 = 20 with the local chunk index's other bits, (3<<10 | 17<<5 | 7) >> 8 = 14, in 5
  // bits: 20 ^ 14 = 26, 26 % 6 = 2, partition (4 + 2) % 6 = 0.
  const DramLocation want{0, 0, 0, 7, 421, 17};
  EXPECT_EQ(m.map(kBase + 0x13c1827), want);
  EXPECT_EQ(m.address_of(want), kBase + 0x13c1827 - 7);
  // Row 5 folds to 5: bank 3 ^ 5 = 6; rotation (5 >> 3) ^ 14 = 14, 14 % 6 = 2: partition 0.
  EXPECT_EQ(m.map(kBase + 0x41827), (DramLocation{0, 0, 0, 6, 5, 17}));
}

TEST(AddressMappingLayout, CustomLayoutWithFieldsBelowTheInterleaveAsComputedByHand) {
  AddressMappingConfig c;
  c.base = 0x8000'0000;
  c.partitions = 8;
  c.interleave_bytes = 512;
  c.burst_bytes = 64;
  c.bank_groups = 4;
  c.columns = 16;
  c.banks_per_group = 4;
  c.channels = 2;
  c.rows = 4096;
  c.layout = {"bank_group", "column", "bank", "channel", "row"};
  // Local bits: burst 0-5, bank group 6-7, column 8-11, bank 12-13, channel 14, row 15-26. With
  // 8 partitions at 512 bytes the address is local bits 0-8, partition in bits 9-11, then local
  // bits 9 and up. Local 9 | 2<<6 | 11<<8 | 1<<12 | 1<<14 | 0x123<<15 = 0x91db89; partition 5:
  // 0x189 | 5<<9 | 0x48ed<<12 = 0x48edb89.
  c.xor_hash = false;
  const AddressMapping plain(c);
  EXPECT_EQ(plain.map(0x8000'0000 + 0x48edb89), (DramLocation{5, 1, 2, 1, 0x123, 11}));
  // Row 0x177: local 0xbbdb89, address 0x189 | 5<<9 | 0x5ded<<12 = 0x5dedb89. Fold width 2 + 2
  // + 1 + 3 = 8: 0x77 ^ 0x1 = 0b011'1'01'10: bank 1 ^ 0b10 = 3, bank group 2 ^ 0b01 = 3,
  // channel 1 ^ 1 = 0, partition (5 + 0b011) % 8 = 0.
  c.xor_hash = true;
  const AddressMapping hashed(c);
  const DramLocation want{0, 0, 3, 3, 0x177, 11};
  EXPECT_EQ(hashed.map(0x8000'0000 + 0x5dedb89), want);
  EXPECT_EQ(hashed.address_of(want), 0x8000'0000 + 0x5dedb89 - 9);
}

// Every location maps to a distinct burst-aligned address inside the capacity and back: as there
// are exactly capacity / burst_bytes locations, map() is a bijection on bursts.
TEST(AddressMappingRoundTrip, EveryLocationOfASmallConfigurationIsABijection) {
  const std::vector<std::vector<std::string>> layouts{
      {"column", "bank_group", "bank", "channel", "row"},
      {"bank_group", "row", "column", "channel", "bank"},
      {"channel", "column:1", "bank_group", "column", "bank", "row"},
      {"row:2", "column:1", "bank:1", "row:3", "column:1", "bank", "channel", "bank_group", "row"}};
  for (uint32_t partitions : {1u, 5u, 6u, 8u}) {
    for (bool hash : {false, true}) {
      for (const auto& layout : layouts) {
        const AddressMappingConfig c = tiny(partitions, hash, layout);
        SCOPED_TRACE(label(c) + ", layout starting " + layout[0]);
        const AddressMapping m(c);
        const uint64_t capacity = uint64_t(partitions) * 16 * 4 * 2 * 4 * 2 * 64;
        ASSERT_EQ(m.capacity_bytes(), capacity);
        std::vector<bool> seen(capacity / 16);
        size_t count = 0;
        DramLocation l;
        for (l.partition = 0; l.partition < partitions; ++l.partition)
          for (l.channel = 0; l.channel < 2; ++l.channel)
            for (l.bank_group = 0; l.bank_group < 2; ++l.bank_group)
              for (l.bank = 0; l.bank < 4; ++l.bank)
                for (l.row = 0; l.row < 64; ++l.row)
                  for (l.column = 0; l.column < 4; ++l.column) {
                    const uint64_t offset = m.address_of(l) - kBase;
                    ASSERT_LT(offset, capacity);
                    ASSERT_EQ(offset % 16, 0u);
                    ASSERT_FALSE(seen[offset / 16]) << "two locations share offset " << offset;
                    seen[offset / 16] = true;
                    ++count;
                    ASSERT_EQ(m.map(kBase + offset + 15), l) << "offset " << offset;
                  }
        EXPECT_EQ(count, seen.size());
      }
    }
  }
}

TEST(AddressMappingRoundTrip, RandomAddressesSurviveMapAndAddressOf) {
  std::mt19937_64 rng(5);
  for (const AddressMappingConfig& c : {gtx(6, false), gtx(6, true), gtx(8, false), gtx(8, true),
                                        grouped(6, true), grouped(8, true)}) {
    SCOPED_TRACE(label(c));
    const AddressMapping m(c);
    std::uniform_int_distribution<uint64_t> offset(0, m.capacity_bytes() - 1);
    for (int i = 0; i < 100000; ++i) {
      const uint64_t address = kBase + offset(rng);
      const DramLocation where = m.map(address);
      ASSERT_EQ(m.address_of(where), address - address % c.burst_bytes) << address;
      // Past the capacity the mapping wraps around.
      ASSERT_EQ(m.map(address + m.capacity_bytes()), where) << address;
    }
  }
}

// Accesses per partition and per bank (partition, channel, bank group, bank).
struct Spread {
  std::map<uint32_t, uint64_t> partitions;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>, uint64_t> banks;
  void add(const DramLocation& l) {
    ++partitions[l.partition];
    ++banks[{l.partition, l.channel, l.bank_group, l.bank}];
  }
  template <typename Map>
  static double ratio(const Map& counts) {
    uint64_t lo = UINT64_MAX, hi = 0;
    for (const auto& [key, n] : counts) lo = std::min(lo, n), hi = std::max(hi, n);
    return double(hi) / double(lo);
  }
};

uint64_t all_banks(const AddressMappingConfig& c) {
  return uint64_t(c.partitions) * c.channels * c.bank_groups * c.banks_per_group;
}

TEST(AddressMappingSpread, LinearStreamSpreadsExactlyEvenlyOverPartitionsAndBanks) {
  for (const AddressMappingConfig& c : {gtx(6, false), gtx(6, true), gtx(8, false), gtx(8, true),
                                        grouped(6, true), grouped(8, true)}) {
    SCOPED_TRACE(label(c));
    const AddressMapping m(c);
    // N chunks, N = partitions x two rows of every bank in a partition: whole rows everywhere.
    const uint64_t chunks = row_stride(c) / c.interleave_bytes * 2;
    Spread spread;
    for (uint64_t chunk = 0; chunk < chunks; ++chunk) {
      for (uint64_t b = 0; b < c.interleave_bytes; b += c.burst_bytes) {
        spread.add(m.map(kBase + chunk * c.interleave_bytes + b));
      }
    }
    const uint64_t bursts = chunks * c.interleave_bytes / c.burst_bytes;
    ASSERT_EQ(spread.partitions.size(), c.partitions);
    for (const auto& [p, n] : spread.partitions) EXPECT_EQ(n, bursts / c.partitions) << p;
    ASSERT_EQ(spread.banks.size(), all_banks(c));
    for (const auto& [bank, n] : spread.banks) EXPECT_EQ(n, bursts / all_banks(c));
  }
}

TEST(AddressMappingSpread, EachAlignedGroupOfPartitionsChunksVisitsEveryPartitionOnce) {
  for (const AddressMappingConfig& c : {gtx(6, true), gtx(8, true), gtx(6, false)}) {
    SCOPED_TRACE(label(c));
    const AddressMapping m(c);
    for (uint64_t group = 0; group < 4096; ++group) {
      std::set<uint32_t> seen;
      for (uint64_t i = 0; i < c.partitions; ++i) {
        seen.insert(m.map(kBase + (group * c.partitions + i) * c.interleave_bytes).partition);
      }
      ASSERT_EQ(seen.size(), c.partitions) << "group " << group;
    }
  }
}

// The stride stream walks the whole memory once, N = capacity / stride accesses.
Spread stride_stream(const AddressMapping& m, uint64_t stride) {
  EXPECT_EQ(m.capacity_bytes() % stride, 0u);
  Spread spread;
  for (uint64_t a = 0; a < m.capacity_bytes(); a += stride) spread.add(m.map(kBase + a));
  return spread;
}

// The bound on max/min accesses per partition and per bank. Each hashed index is shifted by an
// XOR-fold of the row, which a power-of-two stride drives through every value equally often once
// it visits 2^(fold width) rows per unhashed slot (every stride here does, over the whole
// memory). With a power-of-two partition count that makes the spread exactly even. Otherwise the
// partition rotation is a w-bit fold value, w = ceil(log2 P) + 2, reduced mod P: a residue gets
// floor or ceil of 2^w / P of the values, so a stride that pins the unhashed slot (the row
// stride) is off by at most ceil / floor = 6 / 5 for 6 partitions, and by no more per bank.
double spread_bound(uint32_t partitions) {
  if ((partitions & (partitions - 1)) == 0) return 1.0;
  const double values = std::exp2(std::ceil(std::log2(partitions)) + 2);
  return std::ceil(values / partitions) / std::floor(values / partitions);
}

TEST(AddressMappingSpread, HashedPowerOfTwoStridesSpreadOverAllPartitionsAndBanks) {
  EXPECT_DOUBLE_EQ(spread_bound(6), 1.2);
  for (const AddressMappingConfig& c :
       {gtx(6, true), gtx(8, true), grouped(6, true), grouped(8, true)}) {
    const AddressMapping m(c);
    // 1 KiB is also the DRAM row (page) size: 32 columns of 32 bytes.
    for (uint64_t stride : {1 * kKiB, 4 * kKiB, 64 * kKiB, 1 * kMiB, row_stride(c)}) {
      SCOPED_TRACE(label(c) + ", stride " + std::to_string(stride));
      const Spread spread = stride_stream(m, stride);
      ASSERT_EQ(spread.partitions.size(), c.partitions);
      ASSERT_EQ(spread.banks.size(), all_banks(c));
      EXPECT_LE(Spread::ratio(spread.partitions), spread_bound(c.partitions));
      EXPECT_LE(Spread::ratio(spread.banks), spread_bound(c.partitions));
    }
  }
}

// A stride of partitions x interleave_bytes keeps the partition slot, and over a few KiB the row
// too: without a fold of the bits between them the partitions camp (every access on one). Here
// 4P accesses within one row visit every partition.
TEST(AddressMappingSpread, AStrideOfOneChunkPerPartitionVisitsEveryPartition) {
  for (uint32_t partitions : {6u, 8u}) {
    for (bool hash : {true, false}) {
      const AddressMappingConfig c = gtx(partitions, hash);
      const AddressMapping m(c);
      Spread spread;
      for (uint64_t k = 0; k < 4 * partitions; ++k)
        spread.add(m.map(kBase + k * partitions * c.interleave_bytes));
      EXPECT_EQ(spread.partitions.size(), hash ? partitions : 1u) << label(c);
    }
  }
}

TEST(AddressMappingSpread, UnhashedPowerOfTwoStridesConcentrate) {
  for (uint32_t partitions : {6u, 8u}) {
    const AddressMappingConfig c = gtx(partitions, false);
    const AddressMapping m(c);
    for (uint64_t stride : {1 * kKiB, 4 * kKiB, 64 * kKiB, 1 * kMiB, row_stride(c)}) {
      SCOPED_TRACE(label(c) + ", stride " + std::to_string(stride));
      const Spread spread = stride_stream(m, stride);
      // The stride moves the partition slot by stride / 256 chunks each time: it visits
      // P / gcd(P, stride / 256) partitions (3 of 6 for every stride here, 2 or 1 of 8).
      const uint64_t step = stride / c.interleave_bytes;
      EXPECT_EQ(spread.partitions.size(), c.partitions / std::gcd<uint64_t>(c.partitions, step));
      EXPECT_LT(spread.partitions.size(), c.partitions);
    }
    // The row stride keeps the partition, bank and column and changes only the row.
    const Spread rows = stride_stream(m, row_stride(c));
    EXPECT_EQ(rows.partitions.size(), 1u);
    EXPECT_EQ(rows.banks.size(), 1u);
  }
}

TEST(AddressMappingConfigTest, DefaultsHaveNoProblem) {
  EXPECT_EQ(AddressMappingConfig{}.problem("memory.mapping"), "");
  EXPECT_EQ(grouped(6, true).problem("memory.mapping"), "");
  EXPECT_EQ(
      tiny(1, true, {"row", "bank", "channel", "bank_group", "column"}).problem("memory.mapping"),
      "");
  // Every piece sized, adding up to the field (the tiny configuration's 4 columns are 2 bits).
  EXPECT_EQ(tiny(1, true, {"column:1", "row", "bank", "channel", "bank_group", "column:1"})
                .problem("memory.mapping"),
            "");
}

std::string problem_with(void (*change)(AddressMappingConfig&)) {
  AddressMappingConfig c;
  change(c);
  return c.problem("memory.mapping");
}

TEST(AddressMappingConfigTest, ProblemNamesEachBadField) {
  const std::string k = "memory.mapping.";
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.interleave_bytes = 384; }),
            k + "interleave_bytes must be a power of two (it is 384)");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.burst_bytes = 48; }),
            k + "burst_bytes must be a power of two (it is 48)");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.columns = 0; }),
            k + "columns must be a power of two (it is 0)");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.bank_groups = 3; }),
            k + "bank_groups must be a power of two (it is 3)");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.banks_per_group = 6; }),
            k + "banks_per_group must be a power of two (it is 6)");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.channels = 0; }),
            k + "channels must be a power of two (it is 0)");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.rows = 10000; }),
            k + "rows must be a power of two (it is 10000)");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.partitions = 0; }),
            k + "partitions must be at least 1");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.interleave_bytes = 16; }),
            k + "interleave_bytes must be at least " + k + "burst_bytes (32) (it is 16)");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.layout[2] = "rank"; }),
            k + "layout names an unknown field \"rank\" (the fields are column, bank_group, " +
                "bank, channel, row)");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.layout[1] = "column"; }),
            k + "layout names \"column\" twice");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.layout.pop_back(); }),
            k + "layout lacks \"row\"");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.layout.push_back("column:x"); }),
            k + "layout entry \"column:x\": the width after ':' must be 1 to 32 bits");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.layout.push_back("column:0"); }),
            k + "layout entry \"column:0\": the width after ':' must be 1 to 32 bits");
  // The default's 32 columns are five bits.
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.layout.push_back("column:6"); }),
            k + "layout gives \"column\" 6 bits; it has 5 (name it once without a width to "
                "place the rest)");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) {
              c.layout = {"bank_group", "channel", "column:2", "bank", "row"};
            }),
            k + "layout gives \"column\" 2 bits; it has 5 (name it once without a width to "
                "place the rest)");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) {
              c.layout = {"bank_group", "channel", "column:1", "column:1", "column:1",
                          "column:1", "column", "bank", "row"};
            }),
            k + "layout splits \"column\" into more than 4 pieces");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.interleave_bytes = 256 * kMiB; }),
            k + "interleave_bytes must not exceed one partition's capacity (2^27 bytes) (it is " +
                std::to_string(256 * kMiB) + ")");
  EXPECT_EQ(problem_with([](AddressMappingConfig& c) { c.rows = c.columns = 1u << 31; }),
            k + "rows, " + k + "columns and the other counts describe more than 2^64 bytes");
}

TEST(AddressMappingConfigTest, ConstructorThrowsConfigErrorNamingThePrefix) {
  AddressMappingConfig c;
  c.banks_per_group = 6;
  try {
    AddressMapping m(c, "gpu.partition.mapping");
    FAIL() << "no ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "gpu.partition.mapping.banks_per_group must be a power of two (it is 6)");
  }
  EXPECT_THROW(AddressMapping{c}, ConfigError);
}

TEST(AddressMappingRoundTrip, AddressOfRejectsAFieldOutOfRange) {
  const AddressMapping m(gtx(6, true));
  try {
    m.address_of(DramLocation{0, 0, 0, 8, 0, 0});
    FAIL() << "no ModelError";
  } catch (const ModelError& e) {
    EXPECT_EQ(std::string(e.what()), "address mapping: bank 8 is out of range (there are 8)");
  }
  EXPECT_THROW(m.address_of(DramLocation{6, 0, 0, 0, 0, 0}), ModelError);
  EXPECT_THROW(m.address_of(DramLocation{0, 1, 0, 0, 0, 0}), ModelError);
  EXPECT_THROW(m.address_of(DramLocation{0, 0, 0, 0, 16384, 0}), ModelError);
  EXPECT_THROW(m.address_of(DramLocation{0, 0, 0, 0, 0, 32}), ModelError);
}

}  // namespace
}  // namespace gpusoc::mempart
