#include "models/gigathread/command_processor.h"

#include <algorithm>
#include <string>

#include "models/gigathread/channel_registers.h"
#include "models/pcie/bar0_map.h"

namespace gpusoc::gigathread {
namespace {

const GigaThreadConfig& checked(const GigaThreadConfig& config) {
  config.check();
  return config;
}

}  // namespace

void CommandProcessor::stop() {
  for (auto& channel : channels_) channel->stop();
}

bool CommandProcessor::idle() const {
  return std::all_of(channels_.begin(), channels_.end(),
                     [](const auto& channel) { return channel->idle(); });
}

void CommandProcessor::reset() {
  for (auto& channel : channels_) channel->reset();
  loader_.unload_all();
  memcheck_.reset();
}

CommandProcessor::CommandProcessor(sc_core::sc_module_name name, const GigaThreadConfig& config,
                                   StatGroup& stats_parent)
    : sc_module(name),
      mmio_target("mmio_target"),
      memcheck_target("memcheck_target"),
      dma_initiator("dma_initiator"),
      vram_initiator("vram_initiator"),
      grid_out("grid_out"),
      copy_engines("copy_engines"),
      interrupt_out("interrupt_out"),
      config_(checked(config)),
      stats_(stats_parent, basename()),
      host_(dma_initiator, /*use_dmi=*/false),
      vram_(vram_initiator, /*use_dmi=*/true),
      memcheck_(config_.vram_base, config_.vram_bytes),
      loader_(config_, vram_, memcheck_.map()),
      services_{config_, host_, loader_, memcheck_, grid_out, copy_engines, interrupt_out, stats_} {
  mmio_target.register_b_transport(this, &CommandProcessor::b_transport);
  mmio_target.register_transport_dbg(this, &CommandProcessor::transport_dbg);
  memcheck_target.register_b_transport(this, &CommandProcessor::memcheck_transport);
  memcheck_target.register_transport_dbg(this, &CommandProcessor::memcheck_transport_dbg);
  vram_initiator.register_invalidate_direct_mem_ptr(this, &CommandProcessor::invalidate_vram_dmi);
  for (uint32_t i = 0; i < config_.channels; ++i) {
    channels_.push_back(
        std::make_unique<Channel>(("channel" + std::to_string(i)).c_str(), i, services_, stats_));
  }
}

CommandProcessor::~CommandProcessor() = default;

const std::vector<RegisterSpec>& CommandProcessor::channel_register_specs() {
  return gigathread::channel_register_specs();
}

Channel* CommandProcessor::route(tlm::tlm_generic_payload& tx, uint64_t& restore) {
  restore = tx.get_address();
  const uint64_t index = restore / bar0::kChannelStride;
  if (index >= channels_.size()) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return nullptr;
  }
  tx.set_address(restore % bar0::kChannelStride);
  return channels_[index].get();
}

void CommandProcessor::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  uint64_t address = 0;
  if (Channel* ch = route(tx, address)) {
    ch->access(tx, delay);
    tx.set_address(address);
  }
}

unsigned CommandProcessor::transport_dbg(tlm::tlm_generic_payload& tx) {
  uint64_t address = 0;
  Channel* ch = route(tx, address);
  if (!ch) return 0;
  const unsigned bytes = ch->registers().debug_access(tx);
  tx.set_address(address);
  return bytes;
}

void CommandProcessor::memcheck_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time&) {
  memcheck_.registers().access(tx);
}

unsigned CommandProcessor::memcheck_transport_dbg(tlm::tlm_generic_payload& tx) {
  return memcheck_.registers().debug_access(tx);
}

void CommandProcessor::invalidate_vram_dmi(sc_dt::uint64 start, sc_dt::uint64 end) {
  vram_.invalidate(start, end);
}

}  // namespace gpusoc::gigathread
