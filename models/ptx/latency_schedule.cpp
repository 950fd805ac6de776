#include "models/ptx/latency_schedule.h"

#include <algorithm>
#include <unordered_map>

#include "models/ptx/inst_registers.h"

namespace gpusoc::ptx {
namespace {

constexpr uint32_t kNone = 0xffffffffu;

bool reads_memory(const Inst& in) {
  return in.op == Op::Ld || in.op == Op::Atom || in.op == Op::Red || in.op == Op::Tex ||
         in.op == Op::Tld4 || in.op == Op::Suld || in.op == Op::Sured;
}
bool writes_memory(const Inst& in) {
  return in.op == Op::St || in.op == Op::Atom || in.op == Op::Red || in.op == Op::Sust ||
         in.op == Op::Sured;
}
// Instructions nothing may move across: synchronization, calls, clocks, traps.
bool orders_everything(const Inst& in) {
  return in.cls == InstClass::Sync || in.cls == InstClass::Control || in.op == Op::ReadClock ||
         in.op == Op::MbarInit || in.op == Op::MbarArrive || in.op == Op::MbarTestWait;
}

struct Edge {
  uint32_t to, latency;
};

}  // namespace

uint32_t schedule_latency(const Inst& in) {
  switch (in.op) {
    case Op::Ld:
    case Op::Atom:
      if (in.space == StateSpace::Param) return 4;  // the constant bank
      return in.space == StateSpace::Shared ? 30 : 400;
    case Op::Tex:
    case Op::Tld4:
    case Op::Suld:
      return 400;
    case Op::Shfl:
    case Op::Vote:
    case Op::Match:
    case Op::Redux:
      return 30;
    default:
      break;
  }
  switch (in.cls) {
    case InstClass::Fp64:
      return 8;
    case InstClass::Sfu:
      return 20;
    case InstClass::Conversion:
      return 6;
    default:
      return 4;
  }
}

std::vector<Inst> if_converted(const std::vector<Inst>& code) {
  std::vector<Inst> out = code;
  const uint32_t n = uint32_t(out.size());
  for (bool changed = true; changed;) {
    changed = false;
    // How many branches enter each pc, and which pcs may not be predicated.
    std::vector<uint32_t> entries(n + 1, 0);
    for (const Inst& in : out)
      if (in.op == Op::Bra && in.target <= n) ++entries[in.target];
    auto straight = [&](uint32_t from, uint32_t to) {  // [from, to) predicable, single entry
      if (to < from || to - from > kIfConversionLimit) return false;
      for (uint32_t pc = from; pc < to; ++pc) {
        if (orders_everything(out[pc]) || (pc > from && entries[pc] != 0)) return false;
      }
      return true;
    };
    for (uint32_t b = 0; b < n; ++b) {
      Inst& bra = out[b];
      if (bra.op != Op::Bra || bra.guard == kNoReg || bra.target <= b + 1 || bra.target > n)
        continue;
      const uint32_t join = bra.target;
      if (straight(b + 1, join) && entries[b + 1] == 0) {  // if: skip [b+1, join)
        bra = Inst{};
        changed = true;
        continue;
      }
      // if/else: [b+1, j) ends in an unguarded branch to `end`; [join, end) falls through.
      const uint32_t j = join - 1;
      Inst& skip = out[j];
      if (skip.op != Op::Bra || skip.guard != kNoReg || skip.target <= join || skip.target > n ||
          entries[skip.target] != 1 || entries[join] != 1)
        continue;
      if (straight(b + 1, j) && straight(join, skip.target) && entries[b + 1] == 0) {
        bra = Inst{};
        skip = Inst{};
        changed = true;
      }
    }
  }
  return out;
}

std::vector<uint32_t> latency_order(const Function& fn, const std::vector<Inst>& code,
                                    uint32_t first, uint32_t last) {
  const uint32_t n = last - first + 1;
  std::vector<std::vector<Edge>> succ(n);
  std::vector<uint32_t> preds(n, 0);
  auto edge = [&](uint32_t from, uint32_t to, uint32_t latency) {
    if (from == kNone || from == to) return;
    succ[from].push_back({to, latency});
    ++preds[to];
  };
  std::unordered_map<uint32_t, uint32_t> last_def;
  std::unordered_map<uint32_t, std::vector<uint32_t>> reads_since_def;
  uint32_t last_store = kNone, last_fence = kNone;
  std::vector<uint32_t> loads_since_store, since_fence;
  for (uint32_t i = 0; i < n; ++i) {
    const Inst& in = code[first + i];
    for_each_use(fn, in, [&](uint32_t r) {
      if (auto d = last_def.find(r); d != last_def.end())
        edge(d->second, i, schedule_latency(code[first + d->second]));
      reads_since_def[r].push_back(i);
    });
    for_each_def(in, [&](uint32_t r) {
      if (auto d = last_def.find(r); d != last_def.end()) edge(d->second, i, 1);
      for (uint32_t reader : reads_since_def[r]) edge(reader, i, 0);
      reads_since_def[r].clear();
      last_def[r] = i;
    });
    const bool fence = orders_everything(in) || i == n - 1;
    if (fence) {
      for (uint32_t j : since_fence) edge(j, i, 0);
      edge(last_fence, i, 0);
      since_fence.clear();
      last_fence = i;
      continue;
    }
    edge(last_fence, i, 0);
    since_fence.push_back(i);
    if (writes_memory(in)) {
      edge(last_store, i, 0);
      for (uint32_t j : loads_since_store) edge(j, i, 0);
      loads_since_store.clear();
      last_store = i;
    } else if (reads_memory(in)) {
      edge(last_store, i, 0);
      loads_since_store.push_back(i);
    }
  }

  // Longest latency-weighted path from each instruction to the block's end.
  std::vector<uint32_t> height(n, 0);
  for (uint32_t i = n; i-- > 0;) {
    height[i] = 1;
    for (const Edge& e : succ[i])
      height[i] = std::max(height[i], std::max(1u, e.latency) + height[e.to]);
  }

  std::vector<uint32_t> order, earliest(n, 0), ready;
  order.reserve(n);
  for (uint32_t i = 0; i < n; ++i)
    if (preds[i] == 0) ready.push_back(i);
  for (uint64_t cycle = 0; order.size() < n; ++cycle) {
    uint32_t best = kNone;
    size_t best_at = 0;
    for (size_t k = 0; k < ready.size(); ++k) {
      const uint32_t i = ready[k];
      if (earliest[i] > cycle) continue;
      if (best == kNone || height[i] > height[best] || (height[i] == height[best] && i < best)) {
        best = i;
        best_at = k;
      }
    }
    if (best == kNone) {  // nothing can issue yet: jump to the first cycle something can
      uint32_t next = 0xffffffffu;
      for (uint32_t i : ready) next = std::min(next, earliest[i]);
      cycle = next - 1;
      continue;
    }
    ready[best_at] = ready.back();
    ready.pop_back();
    order.push_back(first + best);
    for (const Edge& e : succ[best]) {
      earliest[e.to] =
          std::max<uint32_t>(earliest[e.to], uint32_t(cycle) + std::max(1u, e.latency));
      if (--preds[e.to] == 0) ready.push_back(e.to);
    }
  }
  return order;
}

}  // namespace gpusoc::ptx
