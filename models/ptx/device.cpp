#include "models/ptx/device.h"

#include <fmt/format.h>

#include <map>

#include "models/common/kernel_names.h"
#include "models/common/sparse_memory.h"
#include "models/common/text_file.h"
#include "models/ptx/address_space.h"
#include "models/ptx/cta_runner.h"
#include "models/ptx/decoder.h"
#include "models/ptx/diagnostics.h"
#include "models/ptx/launch.h"
#include "models/ptx/module_load.h"
#include "models/ptx/program.h"

namespace gpusoc::ptx {

const std::string& Kernel::name() const {
  return fn_->name;
}

std::vector<uint32_t> Kernel::param_sizes() const {
  std::vector<uint32_t> sizes;
  for (const ParamSlot& p : fn_->params) sizes.push_back(p.size);
  return sizes;
}

Kernel Module::kernel(std::string_view name) const {
  std::vector<const Function*> kernels;
  std::vector<std::string> names;
  for (const Function& f : program_->functions) {
    if (!f.is_entry || !f.has_body) continue;
    kernels.push_back(&f);
    names.push_back(f.name);
  }
  const KernelLookup found = find_kernel(names, name, "'" + program_->file + "'");
  if (found.index == KernelLookup::kNotFound) throw LaunchError(found.problem);
  return Kernel(kernels[found.index]);
}

std::pair<DevicePtr, uint64_t> Module::global(std::string_view name) const {
  for (const GlobalVariable& g : program_->globals) {
    if (g.name == name) return {g.address, g.size};
  }
  throw LaunchError(
      fmt::format("module '{}' has no .global or .const variable '{}'", program_->file, name));
}

std::vector<std::string> Module::kernel_names() const {
  std::vector<std::string> names;
  for (const Function& f : program_->functions) {
    if (f.is_entry) names.push_back(f.name);
  }
  return names;
}

struct FunctionalDevice::Impl : GlobalPlacement {
  explicit Impl(DeviceOptions o) : options(std::move(o)), memory(/*strict=*/true) {}

  uint64_t allocate(uint64_t bytes, uint64_t align) override {
    if (bytes > options.device_memory_bytes) throw std::bad_alloc();
    if (bytes == 0) bytes = 1;
    align = std::max<uint64_t>(align, 256);
    // First fit over the gaps between live allocations, pages kept apart so that an overrun
    // into the next page faults rather than corrupting a neighbour.
    uint64_t candidate = kGlobalBase;
    const uint64_t span = (bytes + SparseMemory::kPageSize - 1) & ~(SparseMemory::kPageSize - 1);
    for (const auto& [addr, size] : allocations) {
      if (candidate + span <= addr) break;
      const uint64_t end =
          addr + ((size + SparseMemory::kPageSize - 1) & ~(SparseMemory::kPageSize - 1));
      candidate = std::max(candidate, (end + align - 1) / align * align);
    }
    if (candidate + span > kGlobalBase + options.device_memory_bytes) throw std::bad_alloc();
    allocations[candidate] = bytes;
    memory.map(candidate, bytes);
    return candidate;
  }
  void write(uint64_t addr, const std::vector<uint8_t>& bytes) override {
    memory.write(addr, bytes.data(), bytes.size());
  }

  void check_range(const char* what, uint64_t addr, uint64_t bytes) const {
    auto it = allocations.upper_bound(addr);
    if (it != allocations.begin()) {
      --it;
      if (addr >= it->first && bytes <= it->second && addr - it->first <= it->second - bytes)
        return;
    }
    throw std::out_of_range(fmt::format("{}: [0x{:x}, 0x{:x}) is not inside one device allocation",
                                        what, addr, addr + bytes));
  }

  // A texture or surface object: its descriptor in an allocation of its own, kept out of the
  // memory checker's allocations so that kernels cannot touch it.
  uint64_t publish(tex::Descriptor d) {
    check_range("texture object", d.base, d.bytes);
    d.generation = objects.next_generation();
    const uint64_t address = allocate(tex::kDescriptorBytes, 256);
    const tex::DescriptorImage image = tex::encode(d);
    memory.write(address, image.data(), image.size());
    const uint64_t handle = tex::make_handle(address, d.generation);
    objects.add(handle, d.base, d.base + d.bytes);
    return handle;
  }
  void set_state(uint64_t handle, tex::ObjectState state) {
    const uint8_t byte = uint8_t(state);
    memory.write(tex::handle_address(handle) + 4, &byte, 1);
  }

  DeviceOptions options;
  SparseMemory memory;
  tex::ObjectRegistry objects;
  std::map<uint64_t, uint64_t> allocations;  // address -> bytes
  AllocationMap checked;                     // what memcheck knows, kept whether or not it is on
  std::vector<std::shared_ptr<const Program>> modules;
  uint32_t next_grid_id = 1;
};

FunctionalDevice::FunctionalDevice(DeviceOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {
  if (!impl_->options.simt_model) throw std::invalid_argument("DeviceOptions: no simt_model");
}
FunctionalDevice::~FunctionalDevice() = default;

const DeviceOptions& FunctionalDevice::options() const {
  return impl_->options;
}

Module FunctionalDevice::load_module(std::string_view text, std::string name,
                                     std::string_view ptxas_report, std::string report_name) {
  Diagnostics diags(name);
  std::shared_ptr<Program> program = load_program(
      ModuleSource{text, name, ptxas_report, report_name,
                   RegisterTarget{impl_->options.registers_per_sm,
                                  impl_->options.max_threads_per_sm, impl_->options.address_bits}},
      *impl_, diags);
  if (!program) throw ModuleLoadError(diags.list());
  impl_->modules.push_back(program);
  add_module_variables(impl_->checked, *program);
  return Module(program);
}

Module FunctionalDevice::load_module_file(const std::string& path,
                                          const std::string& resource_path) {
  const auto text = read_text_file(path);
  if (!text) throw ModuleLoadError({Diagnostic{path, SourceLoc{}, "cannot open file"}});
  const auto report = read_ptxas_report(path, resource_path);
  if (!report) throw ModuleLoadError({Diagnostic{resource_path, SourceLoc{}, "cannot open file"}});
  return load_module(*text, path, report->text, report->path);
}

DevicePtr FunctionalDevice::malloc(uint64_t bytes) {
  const DevicePtr p = impl_->allocate(bytes, 256);
  impl_->checked.add(p, std::max<uint64_t>(bytes, 1), RegionKind::Allocation);
  return p;
}

void FunctionalDevice::free(DevicePtr ptr) {
  auto it = impl_->allocations.find(ptr);
  if (it == impl_->allocations.end()) {
    throw std::invalid_argument(fmt::format("free: 0x{:x} is not a device allocation", ptr));
  }
  for (const uint64_t handle : impl_->objects.reading(ptr, ptr + it->second))
    impl_->set_state(handle, tex::ObjectState::BackingFreed);
  impl_->memory.unmap(ptr);
  impl_->allocations.erase(it);
  impl_->checked.release(ptr, RegionKind::Allocation);
}

tex::Resource FunctionalDevice::create_array(const tex::ArrayDesc& desc) {
  tex::Resource r;
  const std::string problem = tex::array_layout(desc, impl_->options.texture_limits, r.array);
  if (!problem.empty()) throw std::invalid_argument("create_array: " + problem);
  r.kind = tex::Resource::Kind::Array;
  r.array_format = desc.format;
  r.surface_capable = desc.flags & tex::kArraySurfaceLoadStore;
  r.base = malloc(r.array.bytes);
  return r;
}

uint64_t FunctionalDevice::create_texture(const tex::Resource& r, const tex::SamplerState& s) {
  tex::Descriptor d;
  const std::string problem = tex::texture_descriptor(r, s, impl_->options.texture_limits, d);
  if (!problem.empty()) throw std::invalid_argument("create_texture: " + problem);
  return impl_->publish(d);
}

uint64_t FunctionalDevice::create_surface(const tex::Resource& r) {
  tex::Descriptor d;
  const std::string problem = tex::surface_descriptor(r, d);
  if (!problem.empty()) throw std::invalid_argument("create_surface: " + problem);
  return impl_->publish(d);
}

void FunctionalDevice::destroy_object(uint64_t handle) {
  if (!impl_->objects.remove(handle)) {
    throw std::invalid_argument(
        fmt::format("destroy_object: 0x{:x} is not a live texture or surface object", handle));
  }
  // The descriptor stays, marked, so that a kernel given the stale handle is told so.
  impl_->set_state(handle, tex::ObjectState::Destroyed);
}

void FunctionalDevice::copy_to_device(DevicePtr dst, const void* src, uint64_t bytes) {
  if (bytes == 0) return;
  impl_->check_range("copy_to_device", dst, bytes);
  impl_->memory.write(dst, src, bytes);
}

void FunctionalDevice::copy_to_host(void* dst, DevicePtr src, uint64_t bytes) {
  if (bytes == 0) return;
  impl_->check_range("copy_to_host", src, bytes);
  impl_->memory.read(src, dst, bytes);
}

void FunctionalDevice::memset(DevicePtr dst, uint8_t value, uint64_t bytes) {
  if (bytes == 0) return;
  impl_->check_range("memset", dst, bytes);
  impl_->memory.fill(dst, value, bytes);
}

std::string dimension_problem(const Function& k, Dim3 g, Dim3 b, uint32_t max_threads_per_cta) {
  if (b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0)
    return fmt::format("grid ({},{},{}) and block ({},{},{}) must not have a zero dimension", g.x,
                       g.y, g.z, b.x, b.y, b.z);
  if (b.exceeds(kMaxBlock))
    return fmt::format("block ({},{},{}) exceeds the limits ({},{},{})", b.x, b.y, b.z, kMaxBlock.x,
                       kMaxBlock.y, kMaxBlock.z);
  if (b.count() > max_threads_per_cta)
    return fmt::format("block ({},{},{}) has {} threads; at most {} are allowed", b.x, b.y, b.z,
                       b.count(), max_threads_per_cta);
  if (g.exceeds(kMaxGrid))
    return fmt::format("grid ({},{},{}) exceeds the limits ({},{},{})", g.x, g.y, g.z, kMaxGrid.x,
                       kMaxGrid.y, kMaxGrid.z);
  if (k.reqntid[0] && (k.reqntid[0] != b.x || k.reqntid[1] != std::max(1u, b.y) ||
                       k.reqntid[2] != std::max(1u, b.z)))
    return fmt::format("block ({},{},{}) differs from the kernel's .reqntid", b.x, b.y, b.z);
  return {};
}

std::string resource_problem(const Function& k, uint32_t dynamic_shared_bytes,
                             uint32_t max_shared_bytes_per_cta, uint32_t stack_bytes_per_thread) {
  const uint64_t shared = cta_shared_bytes(k, dynamic_shared_bytes);
  if (shared > max_shared_bytes_per_cta)
    return fmt::format("{} bytes of shared memory ({} static + {} dynamic) exceed the limit of {}",
                       shared, k.static_shared_bytes, dynamic_shared_bytes,
                       max_shared_bytes_per_cta);
  if (k.depot_bytes > stack_bytes_per_thread ||
      k.frame_bytes > stack_bytes_per_thread + LaunchContext::kParamReserveBytes)
    return fmt::format("the kernel needs {} bytes of local memory per thread; the stack is {}",
                       k.depot_bytes, stack_bytes_per_thread);
  return {};
}

namespace {

void check_launch(const Function& k, const LaunchConfig& c, const KernelArgs& args,
                  const DeviceOptions& o) {
  auto fail = [&](const std::string& why) {
    throw LaunchError(fmt::format("launch of '{}': {}", k.name, why));
  };
  if (std::string why = dimension_problem(k, c.grid, c.block, o.max_threads_per_cta); !why.empty())
    fail(why);
  if (std::string why = resource_problem(k, c.dynamic_shared_bytes, o.max_shared_bytes_per_cta,
                                         o.stack_bytes_per_thread);
      !why.empty())
    fail(why);
  std::vector<uint32_t> sizes;
  for (const ParamSlot& p : k.params) sizes.push_back(p.size);
  if (const std::string why = args.mismatch(k.name, sizes); !why.empty()) throw LaunchError(why);
}

}  // namespace

void FunctionalDevice::launch(const Kernel& kernel, const LaunchConfig& config,
                              const KernelArgs& args) {
  const Function& k = kernel.function();
  check_launch(k, config, args, impl_->options);
  LaunchContext ctx;
  for (const auto& m : impl_->modules) {
    if (&k >= m->functions.data() && &k < m->functions.data() + m->functions.size())
      ctx.program = m.get();
  }
  if (!ctx.program)
    throw LaunchError("launch of '" + k.name + "': the kernel is not from this device");
  ctx.kernel = &k;
  ctx.grid = config.grid;
  ctx.block = config.block;
  ctx.dynamic_shared_bytes = config.dynamic_shared_bytes;
  ctx.params.assign(k.param_buffer_bytes, 0);
  std::vector<uint32_t> offsets;
  for (const ParamSlot& p : k.params) offsets.push_back(p.offset);
  args.pack(offsets, ctx.params.data(), ctx.params.size());
  ctx.global = &impl_->memory;
  ctx.num_sms = impl_->options.num_sms;
  ctx.stack_bytes_per_thread = impl_->options.stack_bytes_per_thread;
  ctx.reserved_shared_bytes = impl_->options.reserved_shared_bytes_per_cta;
  ctx.grid_id = impl_->next_grid_id++;
  ctx.watchdog = impl_->options.watchdog;
  ctx.simt_model = impl_->options.simt_model;
  if (impl_->options.memcheck) ctx.memcheck = &impl_->checked;
  ctx.racecheck = impl_->options.racecheck;
  ctx.printf_sink = impl_->options.printf_sink;
  if (!ctx.printf_sink)
    ctx.printf_sink = [](const std::string& s) { std::fputs(s.c_str(), stdout); };

  LaunchStats stats;
  CtaRunner runner(ctx);
  uint64_t linear = 0;
  for (uint32_t z = 0; z < config.grid.z; ++z) {
    for (uint32_t y = 0; y < config.grid.y; ++y) {
      for (uint32_t x = 0; x < config.grid.x; ++x, ++linear) {
        runner.run(Dim3(x, y, z), uint32_t(linear % std::max(1u, ctx.num_sms)), stats);
      }
    }
  }
  if (config.stats) *config.stats = stats;
}

}  // namespace gpusoc::ptx
