#include "sw/runtime/device.h"

#include <cerrno>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "models/common/text_file.h"
#include "sw/runtime/api_span.h"
#include "sw/runtime/context.h"

namespace gpusoc::rt {

namespace detail {

DevicePtr device_alloc(Context& ctx, uint64_t bytes) {
  return ctx.allocate_device(bytes);
}

void device_free(Context& ctx, DevicePtr ptr) noexcept {
  try {
    ctx.free_device(ptr);
  } catch (const Error& e) {
    ctx.defer(e);
  }
}

std::pair<uint64_t, uint8_t*> host_alloc(Context& ctx, uint64_t bytes) {
  const PinnedMemory::Block b = ctx.pinned().allocate(bytes);
  return {b.address, b.pointer};
}

void host_free(Context& ctx, uint64_t address) noexcept {
  try {
    ctx.free_pinned(address);
  } catch (const Error& e) {
    ctx.defer(e);
  }
}

void copy_to_device(Context& ctx, DevicePtr dst, const void* src, uint64_t bytes) {
  ctx.memcpy_htod(ctx.channel(0), "stream 0 (default)", dst, src, bytes, /*wait=*/true);
}

void copy_to_host(Context& ctx, void* dst, DevicePtr src, uint64_t bytes) {
  ctx.memcpy_dtoh(ctx.channel(0), "stream 0 (default)", dst, src, bytes, /*wait=*/true);
}

uint64_t array_bytes(size_t count, size_t element_bytes, const char* what) {
  if (count == 0) throw Error(Status::InvalidValue, fmt::format("{}: 0 elements", what));
  if (count > UINT64_MAX / element_bytes) {
    throw Error(Status::InvalidValue,
                fmt::format("{}: {} elements of {} bytes overflow", what, count, element_bytes));
  }
  return uint64_t(count) * element_bytes;
}

void check_count(size_t given, size_t expected, const char* what) {
  if (given != expected) {
    throw Error(Status::InvalidValue,
                fmt::format("{}: {} elements given, the buffer holds {}", what, given, expected));
  }
}

void empty_handle(const char* what) {
  throw Error(Status::InvalidHandle,
              fmt::format("{}: empty handle (moved-from, freed or default-constructed)", what));
}

}  // namespace detail

namespace {

// The context open on each GPU, by the host bus that reaches it. A second Device on a GPU shares
// the first's (allocator, modules, channels), as CUDA's runtime shares a device's primary
// context: two allocators over one VRAM would hand out the same addresses.
std::map<const host::HostBus*, std::weak_ptr<Context>>& open_contexts() {
  static std::map<const host::HostBus*, std::weak_ptr<Context>> contexts;
  return contexts;
}

std::shared_ptr<Context> open(host::HostBus& bus, const RuntimeOptions& options) {
  std::weak_ptr<Context>& slot = open_contexts()[&bus];
  if (std::shared_ptr<Context> open = slot.lock()) {
    if (!(open->options() == options)) {
      throw Error(Status::InvalidValue,
                  "device: the GPU is open already, with other runtime options; a second "
                  "Device on it shares the first's context and must ask for the same options");
    }
    return open;
  }
  auto context = std::make_shared<Context>(bus, options);
  slot = context;
  return context;
}

}  // namespace

Device::Device(host::HostBus& bus, const RuntimeOptions& options)
    : ctx_(open(bus, options)), default_stream_(ctx_, 0, 0) {}

Device::Device(Device&&) noexcept = default;
Device& Device::operator=(Device&&) noexcept = default;
Device::~Device() = default;

const std::shared_ptr<Context>& Device::context() const {
  if (!ctx_)
    throw Error(Status::NotInitialized,
                "device: not opened (default-constructed or "
                "moved-from)");
  return ctx_;
}

const DeviceProperties& Device::properties() const {
  return context()->properties();
}

DevicePtr Device::malloc(uint64_t bytes) {
  const ApiSpan span(context()->bus(), "malloc", std::to_string(bytes) + " bytes");

  return context()->allocate_device(bytes);
}

void Device::free(DevicePtr ptr) {
  const ApiSpan span(context()->bus(), "free");

  context()->free_device(ptr);
}

MemoryInfo Device::memory_info() const {
  const DeviceHeap& a = context()->vram();
  return MemoryInfo{a.free_bytes(), a.total_bytes(), a.largest_free_block()};
}

Array Device::create_array(const ArrayDesc& desc) {
  return Array(context(), desc);
}

TextureObject Device::create_texture(const tex::Resource& resource, const TextureDesc& desc) {
  const std::shared_ptr<Context>& c = context();
  return TextureObject(c, c->textures().create_texture(resource, desc.sampler()));
}

SurfaceObject Device::create_surface(const Array& array) {
  const std::shared_ptr<Context>& c = context();
  return SurfaceObject(c, c->textures().create_surface(array.resource()));
}

void Device::memcpy_htod(DevicePtr dst, const void* src, uint64_t bytes) {
  const ApiSpan span(context()->bus(), "memcpy_htod", std::to_string(bytes) + " bytes");

  context();
  detail::copy_to_device(*ctx_, dst, src, bytes);
}

void Device::memcpy_dtoh(void* dst, DevicePtr src, uint64_t bytes) {
  const ApiSpan span(context()->bus(), "memcpy_dtoh", std::to_string(bytes) + " bytes");

  context();
  detail::copy_to_host(*ctx_, dst, src, bytes);
}

void Device::memcpy_dtod(DevicePtr dst, DevicePtr src, uint64_t bytes) {
  const ApiSpan span(context()->bus(), "memcpy_dtod", std::to_string(bytes) + " bytes");

  Context& c = *context();
  c.memcpy_dtod(c.channel(0), "stream 0 (default)", dst, src, bytes, /*wait=*/true);
}

void Device::memset_d8(DevicePtr dst, uint8_t value, uint64_t count) {
  const ApiSpan span(context()->bus(), "memset_d8");

  Context& c = *context();
  c.memset(c.channel(0), "stream 0 (default)", dst, value, 1, count, /*wait=*/true);
}

void Device::memset_d16(DevicePtr dst, uint16_t value, uint64_t count) {
  const ApiSpan span(context()->bus(), "memset_d16");

  Context& c = *context();
  c.memset(c.channel(0), "stream 0 (default)", dst, value, 2, count, /*wait=*/true);
}

void Device::memset_d32(DevicePtr dst, uint32_t value, uint64_t count) {
  const ApiSpan span(context()->bus(), "memset_d32");

  Context& c = *context();
  c.memset(c.channel(0), "stream 0 (default)", dst, value, 4, count, /*wait=*/true);
}

Module Device::load_module(std::string_view ptx, const std::string& name,
                           std::string_view ptxas_report) {
  const ApiSpan span(context()->bus(), "load_module", name);

  const auto& c = context();
  return Module(c, c->load_module(ptx, name, ptxas_report));
}

Module Device::load_module_file(const std::string& path, const std::string& resource_path) {
  context();
  auto cannot_read = [](const std::string& file) {
    return Error(Status::FileNotFound,
                 fmt::format("cannot read module file {}: {}", file, std::strerror(errno)));
  };
  const auto text = read_text_file(path);
  if (!text) throw cannot_read(path);
  const auto report = read_ptxas_report(path, resource_path);
  if (!report) throw cannot_read(resource_path);
  return load_module(*text, path, report->text);
}

Stream& Device::default_stream() {
  context();
  return default_stream_;
}

Stream Device::create_stream() {
  const auto& c = context();
  const auto [id, channel] = c->assign_stream();
  return Stream(c, id, channel);
}

Event Device::create_event() {
  return Event(context());
}

void Device::synchronize() {
  const ApiSpan span(context()->bus(), "synchronize");

  context()->synchronize();
}

}  // namespace gpusoc::rt
