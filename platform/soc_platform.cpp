#include "platform/soc_platform.h"

#include "models/common/error.h"
#include "models/host/host_system.h"
#include "platform/gpu_soc.h"

namespace gpusoc::platform {

struct SocPlatform::Impl {
  Impl(const Config& config, StatGroup& stats)
      : host("host", host::HostConfig::from_config(config), stats, check_tlm_protocol(config)),
        gpu("gpu", config, stats) {
    gpu.connect(host.config_initiator, gpu.endpoint().config_target, "link_config");
    gpu.connect(host.mem_initiator, gpu.endpoint().mem_target, "link_memory");
    gpu.connect(gpu.endpoint().dma_initiator, host.upstream_target, "link_upstream");
  }
  host::HostSystem host;
  GpuSoc gpu;
  bool ran = false;
};

SocPlatform::SocPlatform(const Config& config, StatGroup& stats)
    : impl_(std::make_unique<Impl>(config, stats)) {}

SocPlatform::~SocPlatform() = default;

sc_core::sc_time SocPlatform::run(std::function<void(host::HostBus&)> program) {
  if (impl_->ran) throw UsageError("a SocPlatform runs one host program (SystemC elaborates once)");
  impl_->ran = true;
  sc_core::sc_time returned;
  impl_->host.set_program([&](host::HostBus& bus) {
    program(bus);
    bus.sync();
    returned = bus.now();
  });
  // The host program's end stops the simulation; SystemC would announce that as news.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  sc_core::sc_start();
  impl_->host.cpu.rethrow_program_error();
  return returned;
}

}  // namespace gpusoc::platform

namespace gpusoc::platform {

size_t SocPlatform::protocol_checkers() const {
  return impl_->host.protocol_checkers() + impl_->gpu.protocol_checkers();
}

size_t SocPlatform::protocol_violations() const {
  return impl_->host.protocol_violations() + impl_->gpu.protocol_violations();
}

}  // namespace gpusoc::platform
