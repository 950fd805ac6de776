#include "models/tex/texture_unit.h"

#include <fmt/format.h>

#include <algorithm>

#include "models/common/bit_count.h"
#include "models/common/error.h"

namespace gpusoc::tex {
namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}

// A fetch (or write) of a line's sectors `mask`: from its first to its last sector, as the SMs'
// load/store units send theirs.
sm::MemoryRequest line_request(uint64_t line, uint32_t mask, uint32_t sector_bytes) {
  const unsigned first = unsigned(__builtin_ctz(mask)), last = 31 - unsigned(__builtin_clz(mask));
  sm::MemoryRequest m;
  m.address = line + uint64_t(first) * sector_bytes;
  m.bytes = (last - first + 1) * sector_bytes;
  m.sectors = count_bits(mask);
  m.sector_mask = mask >> first;
  return m;
}

}  // namespace

TextureUnit::TextureUnit(sc_core::sc_module_name name, const TextureUnitConfig& config,
                         StatGroup& parent)
    : sc_module(name),
      sm_target("sm_target"),
      mem_initiator(port_.mem_initiator),
      config_(config),
      cycle_ps_(uint64_t(1e6 / config.clock_mhz + 0.5)),
      port_("port", ~0u, config.cache.mshrs),
      cache_(config.cache),
      stats_(parent, basename()),
      scratch_(sm::MemoryRequestPort::kMaxRequestBytes) {
  sm_target.register_b_transport(this, &TextureUnit::b_transport);
  sm_target.register_nb_transport_fw(this, &TextureUnit::nb_transport_fw);
  lt_tx_.set_extension(&lt_request_);
  lt_request_.sm = ~0u;
  lt_request_.kind = AccessKind::Load;
  SC_HAS_PROCESS(TextureUnit);
  SC_THREAD(run);
}

TextureUnit::~TextureUnit() {
  lt_tx_.clear_extension(&lt_request_);
}

const GpuRequest& TextureUnit::request_of(const tlm::tlm_generic_payload& tx) {
  const GpuRequest* r = tx.get_extension<GpuRequest>();
  if (!r || r->kind != AccessKind::Texture)
    throw ModelError("texture unit", "a request without a GpuRequest of kind Texture");
  return *r;
}

uint64_t TextureUnit::cycle_of(const sc_core::sc_time& t) const {
  return ceil_div(ps_.of(t), cycle_ps_);
}

sc_core::sc_time TextureUnit::time_of(uint64_t cycle) const {
  return ps_.time(cycle * cycle_ps_);
}

uint64_t TextureUnit::address_generation(const GpuRequest& r, uint64_t start) {
  const uint64_t begin = std::max(start, agen_free_);
  agen_free_ = begin + ceil_div(std::max(r.quads, 1u), config_.quads_per_cycle);
  return begin;
}

uint64_t TextureUnit::filter(const GpuRequest& r, uint64_t data_ready) {
  const uint64_t cycles = ceil_div(r.texels, config_.texels_per_cycle);
  const uint64_t begin = std::max(data_ready, filter_free_);
  filter_free_ = begin + cycles;
  stats_.filter_cycles += cycles;
  stats_.texels += r.texels;
  return std::max(filter_free_ + config_.filter_latency, last_answer_);
}

void TextureUnit::group_lines(const GpuRequest& r,
                              std::vector<std::pair<uint64_t, uint32_t>>& out) const {
  out.clear();
  const uint64_t line_bytes = cache_.config().line_bytes, sector = cache_.config().sector_bytes;
  for (uint64_t a : r.texture_sectors) {  // sorted: a line's sectors are neighbours
    const uint64_t line = a & ~(line_bytes - 1);
    const uint32_t bit = uint32_t(1) << ((a - line) / sector);
    if (out.empty() || out.back().first != line) out.emplace_back(line, 0);
    out.back().second |= bit;
  }
}

void TextureUnit::write_through(const std::vector<std::pair<uint64_t, uint32_t>>& lines) {
  for (const auto& l : lines) {
    cache_.invalidate(l.first);
    ++stats_.writes;
  }
}

void TextureUnit::queue_writes(const std::vector<std::pair<uint64_t, uint32_t>>& lines,
                               uint64_t cycle) {
  for (const auto& l : lines) unsent_.push_back(Fetch{l.first, l.second, kWriteTag, cycle});
}

// ---- loosely timed ----------------------------------------------------------------------------

void TextureUnit::b_transport(int, tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  const GpuRequest& r = request_of(tx);
  const sc_core::sc_time arrival = sc_core::sc_time_stamp() + delay;
  const uint64_t now_ps = ps_.now();
  const uint64_t agen_ps = ceil_div(std::max(r.quads, 1u), config_.quads_per_cycle) * cycle_ps_;
  const uint64_t start =
      ceil_div(lt_agen_.book(ps_.of(arrival), agen_ps, now_ps) - agen_ps, cycle_ps_);
  stats_.queue_cycles += start - cycle_of(arrival);
  ++stats_.requests;
  uint64_t ready = start;
  const bool writing = writes(tx);
  group_lines(r, lt_lines_);
  for (const auto& [line, mask] : lt_lines_) {
    if (writing) break;
    ++stats_.lookups;
    const sm::SectoredCache::Result res = cache_.read(line, mask, start, 0);
    if (res.outcome == sm::SectoredCache::Outcome::Hit) {
      ++stats_.hits;
      ready = std::max(ready, res.ready_cycle);
      continue;
    }
    ++stats_.misses;
    // The fetch: a timing-only read of the missing sectors, as the SM's loads make them.
    sc_core::sc_time d = time_of(start) - std::min(time_of(start), sc_core::sc_time_stamp());
    const sc_core::sc_time sent = sc_core::sc_time_stamp() + d;
    lt_transport(line_request(line, res.missing_mask, cache_.config().sector_bytes),
                 AccessKind::Load, d);
    const uint64_t landed = cycle_of(sent + d);
    if (res.mshr != sm::SectoredCache::kNoMshr) cache_.fill(res.mshr, landed, woken_);
    ready = std::max(ready, landed + cache_.config().hit_latency);
  }
  if (writing) {
    write_through(lt_lines_);
    for (const auto& [line, mask] : lt_lines_) {  // posted: the warp does not wait for them
      sc_core::sc_time d = time_of(start) - std::min(time_of(start), sc_core::sc_time_stamp());
      lt_transport(line_request(line, mask, cache_.config().sector_bytes), AccessKind::Store, d);
    }
    ready = start + cache_.config().hit_latency;
  }
  const uint64_t filter_cycles = ceil_div(r.texels, config_.texels_per_cycle);
  stats_.filter_cycles += filter_cycles;
  stats_.texels += r.texels;
  const uint64_t filtered = lt_filter_.book(ready * cycle_ps_, filter_cycles * cycle_ps_, now_ps);
  const uint64_t done = ceil_div(filtered, cycle_ps_) + config_.filter_latency;
  stats_.latency_cycles += done - cycle_of(arrival);
  delay = time_of(done) - std::min(time_of(done), sc_core::sc_time_stamp());
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
}

void TextureUnit::lt_transport(const sm::MemoryRequest& m, AccessKind kind,
                               sc_core::sc_time& delay) {
  lt_tx_.set_command(tlm::TLM_IGNORE_COMMAND);  // a timing request (gpu_request.h)
  lt_request_.write = kind == AccessKind::Store;
  lt_tx_.set_address(m.address);
  lt_tx_.set_data_ptr(scratch_.data());
  lt_tx_.set_data_length(m.bytes);
  lt_tx_.set_streaming_width(m.bytes);
  lt_tx_.set_byte_enable_ptr(nullptr);
  lt_tx_.set_dmi_allowed(false);
  lt_tx_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  lt_request_.kind = kind;
  lt_request_.sectors = m.sectors;
  lt_request_.sector_mask = m.sector_mask;
  mem_initiator->b_transport(lt_tx_, delay);
}

// ---- approximately timed ----------------------------------------------------------------------

tlm::tlm_sync_enum TextureUnit::nb_transport_fw(int port, tlm::tlm_generic_payload& tx,
                                                tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) {
    throw ModelError(name(),
                     fmt::format("{} on the forward path: the unit answers BEGIN_RESP, which "
                                 "the SM completes",
                                 phase.get_name()));
  }
  request_of(tx);
  tx.acquire();
  if (requests_.size() >= config_.queue_depth) {  // END_REQ when there is room
    refused_.emplace_back(port, &tx);
    return tlm::TLM_ACCEPTED;
  }
  accept(port, tx, sc_core::sc_time_stamp() + delay);
  phase = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void TextureUnit::accept(int port, tlm::tlm_generic_payload& tx, const sc_core::sc_time& arrival) {
  Request r;
  r.tx = &tx;
  r.port = port;
  r.id = next_id_++;
  r.arrival = cycle_of(arrival);
  requests_.push_back(r);
  work_.notify(arrival - sc_core::sc_time_stamp());
}

void TextureUnit::run() {
  for (;;) {
    bool progress = collect_fills();
    while (look_up_next()) progress = true;
    while (answer_ready()) progress = true;
    if (progress) continue;
    // Nothing to do until a request arrives (or its arrival time comes), a reply lands, or the
    // port frees for an unsent fetch.
    sc_core::sc_event_or_list events = work_ | port_.activity();
    const Request* next = nullptr;
    for (const Request& r : requests_)
      if (!r.looked_up) {
        next = &r;
        break;
      }
    if (next && next->arrival > now_cycle() && unsent_.empty()) {
      wait(time_of(next->arrival) - sc_core::sc_time_stamp(), events);
    } else {
      wait(events);
    }
  }
}

bool TextureUnit::collect_fills() {
  completions_.clear();
  port_.take_completions(completions_);
  for (const sm::MemoryCompletion& c : completions_) {
    if (c.tag == kWriteTag) continue;  // a posted surface write
    const uint64_t landed = cycle_of(c.time);
    cache_.fill(uint32_t(c.tag), landed, woken_);
    const uint64_t ready = landed + cache_.config().hit_latency;
    for (uint64_t id : woken_) {
      if (requests_.empty() || id < requests_.front().id) continue;
      Request& r = requests_[size_t(id - requests_.front().id)];
      --r.pending;
      r.data_ready = std::max(r.data_ready, ready);
    }
  }
  // Misses the port could not take before.
  while (!unsent_.empty() && port_.can_send()) {
    const Fetch& f = unsent_.front();
    sm::MemoryRequest m = line_request(f.line, f.sectors, cache_.config().sector_bytes);
    m.tag = f.mshr;
    m.kind = f.mshr == kWriteTag ? AccessKind::Store : AccessKind::Load;
    port_.send(m, std::max(time_of(f.cycle), sc_core::sc_time_stamp()));
    unsent_.pop_front();
  }
  return !completions_.empty();
}

bool TextureUnit::look_up_next() {
  Request* r = nullptr;
  for (Request& q : requests_)
    if (!q.looked_up) {
      r = &q;
      break;
    }
  if (!r || r->arrival > now_cycle()) return false;
  collect_fills();  // fetches the port could not take before go first
  if (!unsent_.empty()) return false;
  const GpuRequest& g = request_of(*r->tx);
  if (r->next_line == 0 && r->lines.empty()) {
    const uint64_t start = address_generation(g, r->arrival);
    stats_.queue_cycles += start - r->arrival;
    r->data_ready = start;
    group_lines(g, r->lines);
    if (writes(*r->tx)) {
      write_through(r->lines);
      queue_writes(r->lines, start);
      r->data_ready = start + cache_.config().hit_latency;
      r->next_line = r->lines.size();
    }
  }
  const uint64_t cycle = std::max(r->data_ready, now_cycle());
  while (r->next_line < r->lines.size()) {
    const auto [line, mask] = r->lines[r->next_line];
    const sm::SectoredCache::Result res = cache_.read(line, mask, cycle, r->id);
    if (res.outcome == sm::SectoredCache::Outcome::Stall) {
      ++stats_.stalls;
      return false;  // retried when a fill frees an MSHR
    }
    ++stats_.lookups;
    ++r->next_line;
    switch (res.outcome) {
      case sm::SectoredCache::Outcome::Hit:
        ++stats_.hits;
        r->data_ready = std::max(r->data_ready, res.ready_cycle);
        break;
      case sm::SectoredCache::Outcome::Merged:
        ++stats_.merges;
        ++r->pending;
        break;
      default:
        ++stats_.misses;
        ++r->pending;
        unsent_.push_back(Fetch{line, res.missing_mask, res.mshr, cycle});
        collect_fills();  // sends it if the port can
        break;
    }
  }
  r->looked_up = true;
  return true;
}

bool TextureUnit::answer_ready() {
  if (requests_.empty()) return false;
  Request& r = requests_.front();
  if (!r.looked_up || r.pending != 0) return false;
  const GpuRequest& g = request_of(*r.tx);
  const uint64_t done = std::max(filter(g, r.data_ready), now_cycle());
  last_answer_ = done;
  ++stats_.requests;
  stats_.latency_cycles += done - r.arrival;
  tlm::tlm_generic_payload& tx = *r.tx;
  const int port = r.port;
  requests_.pop_front();
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = ps_.until(done * cycle_ps_);
  const tlm::tlm_sync_enum s = sm_target[port]->nb_transport_bw(tx, phase, delay);
  if (s != tlm::TLM_COMPLETED)
    throw ModelError(name(), "the SM did not complete BEGIN_RESP at once, as its port always does");
  tx.release();
  if (!refused_.empty()) {  // room for the oldest refused request
    const auto [p, waiting] = refused_.front();
    refused_.erase(refused_.begin());
    accept(p, *waiting, sc_core::sc_time_stamp());
    tlm::tlm_phase end = tlm::END_REQ;
    sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
    sm_target[p]->nb_transport_bw(*waiting, end, zero);
  }
  return true;
}

}  // namespace gpusoc::tex
