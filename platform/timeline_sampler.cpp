#include "platform/timeline_sampler.h"

#include <fmt/format.h>

#include "models/common/param.h"
#include "models/memsys/memory_totals.h"
#include "platform/gpu_soc.h"

namespace gpusoc::platform {
namespace {

const Param<double> kInterval{"timeline.interval_ns", TimelineSettings{}.interval_ns, "ns",
                              "simulated time between the counter samples of a --timeline "
                              "(DRAM bandwidth per partition, L2 hit rate, occupancy, IPC)",
                              Range{1, 1e9}};
const Param<uint64_t> kMaxEvents{
    "timeline.max_events", TimelineSettings{}.max_events, "events",
    "events a --timeline keeps (about 100 bytes each in the file); later ones are counted as "
    "dropped",
    Range{1, 1e9}};

}  // namespace

TimelineSettings TimelineSettings::from_config(const Config& config) {
  TimelineSettings s;
  s.interval_ns = kInterval.get(config);
  s.max_events = kMaxEvents.get(config);
  return s;
}

TimelineSampler::TimelineSampler(GpuSoc& gpu, Timeline& timeline, double shader_mhz)
    : gpu_(gpu), timeline_(timeline), shader_mhz_(shader_mhz) {}

void TimelineSampler::sample(uint64_t ps) {
  const double interval_ps = double(ps - last_ps_);
  if (interval_ps <= 0) return;
  // A counter holds its value until the next sample: each is stamped where its interval starts.
  const uint64_t at = last_ps_;
  if (const memsys::MemorySystem* memory = gpu_.memory_system()) {
    const memsys::PacketNetwork& net = memory->hierarchy();
    last_dram_.resize(net.partitions(), 0);
    for (uint32_t p = 0; p < net.partitions(); ++p) {
      const uint64_t bytes = memsys::dram_bytes(net.partition(p));
      timeline_.counter("DRAM GB/s", fmt::format("partition {}", p), at,
                        double(bytes - last_dram_[p]) * 1e3 / interval_ps);
      last_dram_[p] = bytes;
    }
    const auto [hits, reads] = memsys::l2_reads(net);
    if (reads > last_l2_reads_)
      timeline_.counter("L2", "read hit rate", at,
                        double(hits - last_l2_hits_) / double(reads - last_l2_reads_));
    last_l2_hits_ = hits;
    last_l2_reads_ = reads;
  }
  const gigathread::CtaDispatcher& dispatcher = gpu_.dispatcher();
  timeline_.counter("SMs", "achieved occupancy", ps, dispatcher.resident_thread_fraction());
  uint64_t instructions = 0;
  for (const sm::StreamingMultiprocessor* sm : dispatcher.sms())
    instructions += sm->issued_warp_instructions();
  if (instructions > 0 || last_instructions_ > 0) {
    const double cycles = interval_ps * shader_mhz_ * 1e-6 * double(dispatcher.sms().size());
    timeline_.counter("SMs", "issued IPC per SM", at,
                      double(instructions - last_instructions_) / cycles);
  }
  last_instructions_ = instructions;
  last_ps_ = ps;
}

}  // namespace gpusoc::platform
