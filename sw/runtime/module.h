// A loaded PTX module (cuModule) and its kernels (cuFunction). Module is move-only and unloads
// itself when destroyed; a Kernel stays a valid object after that, but launching it or asking for
// its info is Error(InvalidHandle).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sw/runtime/module_image.h"
#include "sw/runtime/texture.h"
#include "sw/runtime/types.h"

namespace gpusoc::rt {

class Context;
struct ModuleState;

class Kernel {
 public:
  Kernel() = default;
  /// Name, handle, parameter layout and resource use, as the GPU's loader reported them.
  const KernelInfo& info() const;
  const std::string& name() const { return info().name; }

 private:
  friend class Module;
  Kernel(std::shared_ptr<const ModuleState> module, size_t index)
      : module_(std::move(module)), index_(index) {}
  std::shared_ptr<const ModuleState> module_;
  size_t index_ = 0;
};

class Module {
 public:
  Module() = default;
  Module(std::shared_ptr<Context> ctx, std::shared_ptr<ModuleState> state);
  Module(Module&&) noexcept = default;
  Module& operator=(Module&& other) noexcept;
  ~Module();

  /// The kernel `name` names: mangled, demangled, with template arguments or plain where unique
  /// (models/common/kernel_names.h). Error(NotFound) naming the module and listing the
  /// candidates when the name is ambiguous, or every kernel when it names none.
  Kernel kernel(std::string_view name) const;
  std::vector<std::string> kernel_names() const;
  /// Address and size of a module-scope .global or .const variable (cuModuleGetGlobal); copies
  /// to and from it are allowed. Error(NotFound) when there is none of that name.
  std::pair<DevicePtr, uint64_t> global(std::string_view name) const;
  /// Binds the module's `.global .texref` (or `.surfref`) `name` to `object`, as
  /// cuTexRefSetAddress-style drivers did: kernels that name the reference then read through the
  /// object. Error(NotFound) when there is no such variable; synchronous.
  void bind_reference(std::string_view name, const TextureObject& object);
  const std::string& name() const;
  uint32_t id() const;
  bool valid() const;

  /// Unloads now (after outstanding work on every stream); the destructor does it otherwise.
  void unload();

 private:
  const ModuleState& state() const;
  std::shared_ptr<Context> ctx_;
  std::shared_ptr<ModuleState> state_;
};

}  // namespace gpusoc::rt
