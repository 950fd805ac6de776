#include "sw/runtime/module.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/common/kernel_names.h"
#include "sw/runtime/context.h"

namespace gpusoc::rt {

const KernelInfo& Kernel::info() const {
  if (!module_) throw Error(Status::InvalidHandle, "kernel: empty handle (default-constructed)");
  const KernelInfo& k = module_->kernels[index_];
  if (!module_->loaded) {
    throw Error(Status::InvalidHandle,
                fmt::format("kernel {}: its module {} has been unloaded", k.name, module_->name));
  }
  return k;
}

Module::Module(std::shared_ptr<Context> ctx, std::shared_ptr<ModuleState> state)
    : ctx_(std::move(ctx)), state_(std::move(state)) {}

Module& Module::operator=(Module&& other) noexcept {
  if (this != &other) {
    Module old(std::move(*this));  // unloads what this held
    ctx_ = std::move(other.ctx_);
    state_ = std::move(other.state_);
  }
  return *this;
}

Module::~Module() {
  if (!ctx_ || !state_) return;
  try {
    ctx_->unload_module(*state_);
  } catch (const Error& e) {
    ctx_->defer(e);
  }
}

void Module::unload() {
  state();  // checks the handle
  ctx_->unload_module(*state_);
}

const ModuleState& Module::state() const {
  if (!ctx_ || !state_) {
    throw Error(Status::InvalidHandle, "module: empty handle (moved-from or default-constructed)");
  }
  if (!state_->loaded) {
    throw Error(Status::InvalidHandle, "module " + state_->name + " has been unloaded");
  }
  return *state_;
}

bool Module::valid() const {
  return ctx_ && state_ && state_->loaded;
}

const std::string& Module::name() const {
  return state().name;
}

uint32_t Module::id() const {
  return state().id;
}

Kernel Module::kernel(std::string_view name) const {
  const KernelLookup found = find_kernel(kernel_names(), name, state().name);
  if (found.index == KernelLookup::kNotFound) throw Error(Status::NotFound, found.problem);
  return Kernel(state_, found.index);
}

std::vector<std::string> Module::kernel_names() const {
  std::vector<std::string> names;
  for (const KernelInfo& k : state().kernels) names.push_back(k.name);
  return names;
}

std::pair<DevicePtr, uint64_t> Module::global(std::string_view name) const {
  const ModuleState& s = state();
  for (const GlobalInfo& g : s.globals) {
    if (g.name == name) return {g.address, g.bytes};
  }
  std::vector<std::string> names;
  for (const GlobalInfo& g : s.globals) names.push_back(g.name);
  throw Error(Status::NotFound,
              fmt::format("module {} has no global {}; its globals: {}", s.name, name,
                          names.empty() ? "none" : fmt::to_string(fmt::join(names, ", "))));
}

void Module::bind_reference(std::string_view name, const TextureObject& object) {
  const auto [address, bytes] = global(name);
  if (bytes != 8) {
    throw Error(Status::InvalidValue,
                fmt::format("module {}: {} is not a .texref or .surfref ({} bytes)", state().name,
                            name, bytes));
  }
  const uint64_t handle = object.handle();
  ctx_->memcpy_htod(ctx_->channel(0), "stream 0 (default)", address, &handle, 8, true);
}

}  // namespace gpusoc::rt
