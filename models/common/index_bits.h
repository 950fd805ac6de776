// A set of small indices (ports, memory partitions) kept as bits: insertion is a store, and
// taking the set yields its members in increasing order with neither sorting nor allocation.
// Event-driven steps use it for "who has something to do this cycle", which must be visited in
// a fixed order for determinism.
#pragma once

#include <cstdint>
#include <vector>

namespace gpusoc {

class IndexBits {
 public:
  explicit IndexBits(size_t size = 0) : words_((size + 63) / 64, 0) {}
  void insert(uint32_t i) { words_[i >> 6] |= uint64_t(1) << (i & 63); }
  /// insert(i) when `member`, without a branch.
  void insert_if(uint32_t i, bool member) { words_[i >> 6] |= uint64_t(member) << (i & 63); }
  /// Removes the members, calling visit(i) for each in increasing order. Members that visit()
  /// inserts stay in the set for the next take().
  template <typename Visit>
  void take(Visit&& visit) {
    for (size_t w = 0; w < words_.size(); ++w) {
      for (uint64_t bits = words_[w]; bits != 0; bits &= bits - 1) {
        const unsigned bit = unsigned(__builtin_ctzll(bits));
        words_[w] &= ~(uint64_t(1) << bit);
        visit(uint32_t(w * 64 + bit));
      }
    }
  }

 private:
  std::vector<uint64_t> words_;
};

}  // namespace gpusoc
