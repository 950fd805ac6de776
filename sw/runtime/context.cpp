#include "sw/runtime/context.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/common/logging.h"
#include "models/pcie/bar0_map.h"
#include "sw/runtime/pci_function.h"

namespace gpusoc::rt {
namespace {

constexpr uint64_t kDeviceAlignment = 256;  // as cudaMalloc
constexpr uint64_t kMaxRedZoneBytes = 1 << 20;
constexpr uint8_t kDisplayControllerClass = 0x03;
constexpr uint64_t k4GiB = uint64_t(1) << 32;

uint64_t align_up(uint64_t v, uint64_t a) {
  return (v + a - 1) & ~(a - 1);
}

// BARs go into the MMIO window largest first, each naturally aligned.
void assign_bars(PciFunction& fn, std::vector<PciBar>& bars, const host::HostAddressMap& map) {
  std::vector<PciBar*> order;
  for (PciBar& b : bars) order.push_back(&b);
  std::stable_sort(order.begin(), order.end(),
                   [](const PciBar* a, const PciBar* b) { return a->bytes > b->bytes; });
  uint64_t cursor = map.mmio_base;
  const uint64_t end = map.mmio_base + map.mmio_bytes;
  for (PciBar* bar : order) {
    const uint64_t address = align_up(cursor, bar->bytes);
    if (address < cursor || address + bar->bytes > end || address + bar->bytes < address) {
      throw Error(Status::InvalidDevice,
                  fmt::format("BAR{} ({} bytes) does not fit the MMIO window [{:#x}, +{:#x})",
                              bar->index, bar->bytes, map.mmio_base, map.mmio_bytes));
    }
    if (!bar->is_64bit && address + bar->bytes > k4GiB) {
      throw Error(Status::InvalidDevice,
                  fmt::format("BAR{} is a 32-bit BAR but the MMIO window starts at {:#x}",
                              bar->index, map.mmio_base));
    }
    bar->address = address;
    fn.assign(*bar);
    cursor = address + bar->bytes;
  }
}

}  // namespace

Context::Context(host::HostBus& bus, const RuntimeOptions& options) : bus_(bus), options_(options) {
  open();
}

Context::~Context() {
  close();
}

void Context::open() {
  check_options();
  const host::HostAddressMap& map = bus_.address_map();
  PciFunction fn(bus_, map.ecam_base);  // bus 0, device 0, function 0
  DeviceProperties& p = properties_;
  p.vendor_id = fn.vendor_id();
  if (p.vendor_id == 0xFFFF || p.vendor_id == 0) {
    throw Error(Status::InvalidDevice,
                fmt::format("no PCI function at 00:00.0 (ECAM {:#x}): vendor id {:#06x}",
                            map.ecam_base, p.vendor_id));
  }
  p.device_id = fn.device_id();
  p.revision = fn.revision();
  p.class_code = fn.class_code();
  if ((p.class_code >> 16) != kDisplayControllerClass) {
    throw Error(Status::InvalidDevice,
                fmt::format("PCI 00:00.0 ({:04x}:{:04x}) has class code {:06x}, not a display "
                            "controller (03xxxx)",
                            p.vendor_id, p.device_id, p.class_code));
  }
  fn.set_command(0);  // no decoding while the BARs are sized and moved
  std::vector<PciBar> bars = fn.size_memory_bars();
  if (bars.empty() || bars[0].bytes < bar0::kSize) {
    throw Error(Status::InvalidDevice,
                fmt::format("PCI {:04x}:{:04x}: the first memory BAR is missing or smaller than "
                            "the {} bytes of the register map",
                            p.vendor_id, p.device_id, bar0::kSize));
  }
  assign_bars(fn, bars, map);
  fn.set_command(PciFunction::kCommandMemory | PciFunction::kCommandBusMaster |
                 PciFunction::kCommandIntxDisable);
  if (!fn.enable_msi(map.msi_address, map.msi_data)) {
    throw Error(Status::InvalidDevice, "the GPU has no MSI capability; the runtime needs MSIs");
  }
  const PciLink link = fn.link();
  p.pcie_generation = link.generation;
  p.pcie_lanes = link.lanes;
  p.pcie_max_generation = link.max_generation;
  p.pcie_max_lanes = link.max_lanes;
  p.bar0_address = bars[0].address;
  p.bar0_bytes = bars[0].bytes;
  if (bars.size() > 1) {
    p.bar1_address = bars[1].address;
    p.bar1_bytes = bars[1].bytes;
  }

  bar0_ = std::make_unique<Bar0>(bus_, p.bar0_address);
  const uint32_t id = bar0_->read(bar0::ID);
  p.register_map_version = bar0_->read(bar0::VERSION);
  if (id != bar0::kId || (p.register_map_version >> 16) != (bar0::kVersion >> 16)) {
    throw Error(Status::InvalidDevice,
                fmt::format("BAR0 ID {:#010x}, VERSION {:#010x}: the runtime needs ID {:#010x} "
                            "and register map {}.x",
                            id, p.register_map_version, bar0::kId, bar0::kVersion >> 16));
  }
  p.vram_base = bar0_->read64(bar0::VRAM_BASE_LO);
  p.vram_bytes = bar0_->read64(bar0::VRAM_SIZE_LO);
  p.channels = bar0_->read(bar0::NUM_CHANNELS);
  p.copy_engines = bar0_->read(bar0::NUM_COPY_ENGINES);
  if ((p.register_map_version & 0xffff) >= 3) {
    tex::Limits& t = p.texture_limits;
    t.width_1d = bar0_->read(bar0::TEX_MAX_1D);
    t.linear_1d = bar0_->read(bar0::TEX_MAX_LINEAR);
    t.width_2d = bar0_->read(bar0::TEX_MAX_2D_WIDTH);
    t.height_2d = bar0_->read(bar0::TEX_MAX_2D_HEIGHT);
    t.linear_2d = bar0_->read(bar0::TEX_MAX_2D_LINEAR);
    t.extent_3d = bar0_->read(bar0::TEX_MAX_3D);
    t.layered_width = bar0_->read(bar0::TEX_MAX_LAYERED);
    t.layers = bar0_->read(bar0::TEX_MAX_LAYERS);
    t.cube_width = bar0_->read(bar0::TEX_MAX_CUBE);
    t.cube_layers = bar0_->read(bar0::TEX_MAX_CUBE_LAYERS);
  }
  p.name =
      fmt::format("gpusoc GPU {:04x}:{:04x} rev {}, {} MiB, PCIe gen {} x{}", p.vendor_id,
                  p.device_id, p.revision, p.vram_bytes >> 20, p.pcie_generation, p.pcie_lanes);
  bar0_->write(bar0::INTR_MASK, 0);
  bar0_->write(bar0::INTR_CLEAR, ~0u);
  bar0_->write(bar0::ERROR_CLEAR, ~0u);
  if (p.bar1_bytes != 0) bar0_->write64(bar0::BAR1_WINDOW_LO, 0);
  waiter_ =
      std::make_unique<InterruptWaiter>(*bar0_, options_.sync_timeout, options_.poll_interval);

  const uint64_t pinned_base = map.memory_base + options_.pinned_offset;
  const uint64_t pinned_bytes =
      options_.pinned_bytes ? options_.pinned_bytes : map.memory_bytes - options_.pinned_offset;
  pinned_ = std::make_unique<PinnedMemory>(pinned_base, bus_.memory(pinned_base, pinned_bytes),
                                           pinned_bytes);
  DeviceHeapChecking checking;
  if (options_.memcheck || options_.racecheck) {
    if ((p.register_map_version & 0xffff) < 2) {
      throw Error(Status::InvalidDevice,
                  fmt::format("memcheck and racecheck need the memory checker of register map "
                              "2.2; the GPU has {}.{}",
                              p.register_map_version >> 16, p.register_map_version & 0xffff));
    }
    announce(bar0::kMemcheckClear, 0, 0);
    bar0_->write(bar0::kMemcheckBase + bar0::MC_CONTROL,
                 (options_.memcheck ? bar0::kMemcheckEnable : 0) |
                     (options_.racecheck ? bar0::kRacecheckEnable : 0));
  }
  if (options_.memcheck)
    checking = {options_.memcheck_red_zone_bytes, options_.memcheck_quarantine_bytes};
  vram_ = std::make_unique<DeviceHeap>(p.vram_base, p.vram_bytes, kDeviceAlignment, checking);
  open_channels();
  bar0_->write(bar0::INTR_MASK, bar0::kIntrFence | bar0::kIntrError);
}

void Context::check_options() const {
  const RuntimeOptions& o = options_;
  const uint64_t host_bytes = bus_.address_map().memory_bytes;
  const auto invalid = [](const std::string& what) {
    throw Error(Status::InvalidValue, "RuntimeOptions: " + what);
  };
  if (o.pinned_offset >= host_bytes || o.pinned_bytes > host_bytes - o.pinned_offset) {
    invalid(
        fmt::format("the pinned region at offset {:#x}, {} bytes, lies outside host memory "
                    "({} bytes)",
                    o.pinned_offset, o.pinned_bytes, host_bytes));
  }
  if (o.error_log_bytes == 0) invalid("error_log_bytes is 0");
  if (o.staging_chunk_bytes == 0) invalid("staging_chunk_bytes is 0");
  if (!(o.host_copy_gbytes_per_s > 0)) {
    invalid(
        fmt::format("host_copy_gbytes_per_s is {}; it must be positive", o.host_copy_gbytes_per_s));
  }
  if (o.sync_timeout == sc_core::SC_ZERO_TIME || o.poll_interval == sc_core::SC_ZERO_TIME) {
    invalid("sync_timeout and poll_interval must be longer than zero");
  }
  if (o.memcheck_red_zone_bytes > kMaxRedZoneBytes) {
    invalid(fmt::format("memcheck_red_zone_bytes is {}; at most {} (1 MiB)",
                        o.memcheck_red_zone_bytes, kMaxRedZoneBytes));
  }
}

void Context::open_channels() {
  uint32_t n = properties_.channels;
  if (options_.max_channels != 0) n = std::min(n, options_.max_channels);
  if (n == 0) throw Error(Status::InvalidDevice, "the GPU reports no command channels");
  ChannelSizes sizes;
  sizes.ring_bytes = options_.ring_bytes;
  sizes.error_log_bytes = options_.error_log_bytes;
  sizes.packet_write_time = cpu_copy_time(sizeof(cmd::Packet));
  for (uint32_t i = 0; i < n; ++i) {
    channels_.push_back(std::make_unique<Channel>(*bar0_, *waiter_, *pinned_, i, sizes));
    channels_.back()->enable();
  }
}

void Context::close() noexcept {
  const Logger log = logger("rt");
  try {
    drain();
  } catch (const gpusoc::Error& e) {
    log->warn("closing the device: {}", e.what());
  }
  try {
    for (auto& ch : channels_) ch->disable();
    if (bar0_) bar0_->write(bar0::INTR_MASK, 0);
    if (bar0_ && (options_.memcheck || options_.racecheck)) {
      bar0_->write(bar0::kMemcheckBase + bar0::MC_CONTROL, 0);
      announce(bar0::kMemcheckClear, 0, 0);
    }
  } catch (const gpusoc::Error& e) {
    log->warn("closing the device: {}", e.what());
  }
  try {
    for (const Released& r : released_) pinned_->free(r.address);
    for (const PinnedMemory::Block& b : staging_) {
      if (b.bytes != 0) pinned_->free(b.address);
    }
  } catch (const gpusoc::Error& e) {
    log->warn("closing the device: {}", e.what());
  }
  released_.clear();
  channels_.clear();
}

std::pair<uint32_t, uint32_t> Context::assign_stream() {
  const uint32_t id = next_stream_++;
  return {id, id % num_channels()};
}

sc_core::sc_time Context::cpu_copy_time(uint64_t bytes) const {
  return sc_core::sc_time(double(bytes) / options_.host_copy_gbytes_per_s, sc_core::SC_NS);
}

PinnedMemory::Block Context::pinned_temporary(uint64_t bytes) {
  if (auto block = pinned_->try_allocate(bytes)) return *block;
  reclaim();
  if (auto block = pinned_->try_allocate(bytes)) return *block;
  drain();
  reclaim();
  return pinned_->allocate(bytes);
}

DevicePtr Context::allocate_device(uint64_t bytes) {
  const DevicePtr ptr = vram_->allocate(bytes);
  if (options_.memcheck) {
    try {
      announce(bar0::kMemcheckAllocated, ptr, bytes);
    } catch (const Error&) {
      vram_->free(ptr);
      throw;
    }
  }
  return ptr;
}

void Context::free_device(DevicePtr ptr) {
  const auto block = vram_->find(ptr);
  if (!block || block->address != ptr) vram_->free(ptr);  // the error, without waiting
  std::optional<Error> failed;
  try {
    drain();
  } catch (const Error& e) {
    failed = e;
  }
  if (!failed) {
    try {
      textures_.memory_freed(ptr, block->bytes);
    } catch (const Error& e) {
      failed = e;
    }
  }
  vram_->free(ptr);
  if (options_.memcheck) announce(bar0::kMemcheckFreed, ptr, 0);
  if (failed) throw *failed;
}

void Context::announce(uint32_t command, DevicePtr address, uint64_t bytes) {
  bar0_->write64(bar0::kMemcheckBase + bar0::MC_ADDRESS_LO, address);
  bar0_->write64(bar0::kMemcheckBase + bar0::MC_BYTES_LO, bytes);
  bar0_->write(bar0::kMemcheckBase + bar0::MC_COMMAND, command);
  if (bar0_->read(bar0::kMemcheckBase + bar0::MC_STATUS) != 0) {
    throw Error(Status::DeviceError,
                fmt::format("the GPU's memory checker refused command {} for [{:#x}, +{}) "
                            "(MC_STATUS 1)",
                            command, address, bytes));
  }
}

void Context::free_pinned(uint64_t address) {
  if (!pinned_->allocator().find(address)) pinned_->free(address);
  std::optional<Error> failed;
  try {
    drain();
  } catch (const Error& e) {
    failed = e;
  }
  pinned_->free(address);
  if (failed) throw *failed;
}

void Context::release_pinned_after(uint64_t address,
                                   std::vector<std::pair<uint32_t, uint64_t>> uses) {
  released_.push_back(Released{address, std::move(uses)});
  reclaim();
}

void Context::reclaim() {
  for (auto& ch : channels_) ch->reclaim();
  const auto done = [&](const Released& r) {
    for (const auto& [channel, sequence] : r.uses) {
      if (channels_[channel]->completed() < sequence) return false;
    }
    pinned_->free(r.address);
    return true;
  };
  released_.erase(std::remove_if(released_.begin(), released_.end(), done), released_.end());
}

void Context::check_device_range(DevicePtr ptr, uint64_t bytes, const char* what) const {
  if (bytes == 0) throw Error(Status::InvalidValue, fmt::format("{}: size is 0 bytes", what));
  if (ptr + bytes < ptr) {
    throw Error(Status::InvalidValue,
                fmt::format("{}: device range [{:#x}, +{}) wraps around", what, ptr, bytes));
  }
  uint64_t start = 0, size = 0;
  std::string kind;
  if (const auto block = vram_->find(ptr)) {
    start = block->address;
    size = block->bytes;
    kind = "allocation";
  } else if (auto it = globals_.upper_bound(ptr);
             it != globals_.begin() && ptr - std::prev(it)->first < std::prev(it)->second.bytes) {
    --it;
    start = it->first;
    size = it->second.bytes;
    kind = "global " + it->second.name;
  } else {
    throw Error(Status::InvalidValue,
                fmt::format("{}: device address {:#x} is not in any allocation (never allocated, "
                            "or freed)",
                            what, ptr));
  }
  if (bytes > size - (ptr - start)) {
    throw Error(Status::InvalidValue,
                fmt::format("{}: device range [{:#x}, +{}) runs past the end of its {} [{:#x}, "
                            "+{})",
                            what, ptr, bytes, kind, start, size));
  }
}

void Context::finish(Channel& ch, const std::string& who) {
  ch.wait(ch.issued(), who);
  report(ch);
}

void Context::report(Channel& ch) {
  ch.check_new_errors();
  reclaim();
  throw_pending();
}

void Context::synchronize() {
  std::optional<Error> first;
  for (auto& ch : channels_) {
    try {
      ch->wait(ch->issued(), "synchronize");
      ch->check_new_errors();
    } catch (const Error& e) {
      if (!first) first = e;
    }
  }
  if (first) throw *first;
  reclaim();
  throw_pending();
}

void Context::defer(const Error& error) {
  logger("rt")->warn("reported at the next synchronizing call: {}", error.what());
  if (!deferred_) deferred_ = error;
}

void Context::throw_pending() {
  if (deferred_) {
    const Error e = *deferred_;
    deferred_.reset();
    throw e;
  }
  if (auto e = waiter_->take_device_error()) throw *e;
}

// Waits on every channel even when one fails, so that nothing freed afterwards is still in use
// by another channel's work; then reports the first failure.
void Context::drain() {
  std::optional<Error> first;
  for (auto& ch : channels_) {
    try {
      ch->wait(ch->issued(), fmt::format("drain (channel {})", ch->index()));
    } catch (const Error& e) {
      if (!first) first = e;
    }
  }
  if (first) throw *first;
}

const PinnedMemory::Block& Context::staging(int index) {
  if (staging_[index].bytes == 0) staging_[index] = pinned_->allocate(options_.staging_chunk_bytes);
  return staging_[index];
}

}  // namespace gpusoc::rt
