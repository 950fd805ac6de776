#include "models/gigathread/module_loader.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <utility>

#include <fmt/format.h>

#include "models/gigathread/sm_occupancy.h"
#include "models/ptx/decoder.h"
#include "models/ptx/inst.h"
#include "models/ptx/module_load.h"
#include "models/ptx/register_pressure.h"

namespace gpusoc::gigathread {
namespace {

// A result lists at most this many problems (a large garbage file would produce millions).
constexpr size_t kMaxDiagnostics = 200;

/// Owns a loaded program's firmware-heap blocks: they are freed when the last reference to the
/// program (the module table's, or a running grid's) is gone.
struct ModuleMemory {
  std::shared_ptr<FirmwareHeap> heap;
  std::vector<uint64_t> blocks;
  std::shared_ptr<ptx::Program> program;
  ~ModuleMemory() {
    for (uint64_t b : blocks) heap->free(b);
  }
};

/// Places module variables in the firmware heap. Initial values are kept until the module has
/// decoded without problems, then written to VRAM; a failed load frees what it took.
class HeapPlacement : public ptx::GlobalPlacement {
 public:
  explicit HeapPlacement(std::shared_ptr<FirmwareHeap> heap) : heap_(std::move(heap)) {}
  ~HeapPlacement() override {
    for (uint64_t b : blocks_) heap_->free(b);
  }

  // VRAM never starts at 0, so 0 marks a variable that found no room.
  uint64_t allocate(uint64_t bytes, uint64_t align) override {
    const auto address = heap_->allocate(bytes, align);
    if (!address) return 0;
    blocks_.push_back(*address);
    return *address;
  }
  void write(uint64_t address, const std::vector<uint8_t>& bytes) override {
    if (address != 0) writes_.emplace_back(address, bytes);
  }

  /// Writes the initial values; false with `problem` set on a refused VRAM write.
  bool flush(MemoryPort& vram, std::string& problem) const {
    for (const auto& [address, bytes] : writes_) {
      if (vram.write(address, bytes.data(), bytes.size()) != tlm::TLM_OK_RESPONSE) {
        problem = fmt::format(
            "writing the initial value of a module variable at device 0x{:x} "
            "({} bytes) was refused\n",
            address, bytes.size());
        return false;
      }
    }
    return true;
  }

  /// The program, now owning the blocks.
  std::shared_ptr<const ptx::Program> adopt(std::shared_ptr<ptx::Program> program) {
    auto memory = std::make_shared<ModuleMemory>();
    memory->heap = heap_;
    memory->blocks = std::exchange(blocks_, {});
    memory->program = std::move(program);
    return std::shared_ptr<const ptx::Program>(memory, memory->program.get());
  }

 private:
  std::shared_ptr<FirmwareHeap> heap_;
  std::vector<uint64_t> blocks_;
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> writes_;
};

std::string diagnostics_text(const std::vector<ptx::Diagnostic>& list) {
  std::string text;
  for (size_t i = 0; i < list.size() && i < kMaxDiagnostics; ++i)
    text += list[i].to_string() + "\n";
  if (list.size() > kMaxDiagnostics)
    text += fmt::format("... and {} more problems\n", list.size() - kMaxDiagnostics);
  return text;
}

// The ABI's register sources are the core's.
static_assert(uint32_t(cmd::RegisterSource::Estimate) == uint32_t(ptx::RegisterSource::Estimate) &&
              uint32_t(cmd::RegisterSource::LaunchBounds) ==
                  uint32_t(ptx::RegisterSource::LaunchBounds) &&
              uint32_t(cmd::RegisterSource::MaxNReg) == uint32_t(ptx::RegisterSource::MaxNReg) &&
              uint32_t(cmd::RegisterSource::PtxasReport) ==
                  uint32_t(ptx::RegisterSource::PtxasReport));

uint64_t threads(const uint32_t (&dims)[3]) {
  return uint64_t(std::max(1u, dims[0])) * std::max(1u, dims[1]) * std::max(1u, dims[2]);
}

}  // namespace

ModuleLoader::ModuleLoader(const GigaThreadConfig& config, MemoryPort& vram,
                           ptx::AllocationMap& checked)
    : config_(config),
      vram_(vram),
      checked_(checked),
      heap_(std::make_shared<FirmwareHeap>(config.heap_base(), config.firmware_heap_bytes)) {}

ModuleLoadOutcome ModuleLoader::failure(cmd::ErrorCode code, const ModuleLoadRequest& request,
                                        const std::string& problems, uint64_t required) const {
  ModuleLoadReport report;
  report.status = code;
  report.diagnostics = problems;
  ModuleLoadOutcome out;
  out.error = code;
  out.message = fmt::format("ModuleLoad of {} bytes of PTX at device 0x{:x} failed:\n{}",
                            request.text_bytes, request.text_address, problems);
  out.result = encode_module_load_result(report, request.buffer_bytes,
                                         required ? required : report.required_bytes());
  return out;
}

cmd::ErrorCode ModuleLoader::read_text(uint64_t address, uint64_t bytes, const char* what,
                                       const std::string& file, std::string& text,
                                       std::string& problem) {
  text.clear();
  if (bytes == 0) return cmd::ErrorCode::None;
  if (bytes > config_.max_module_bytes) {
    problem = fmt::format(
        "{}: error: {} bytes of {} exceed the limit of {} bytes "
        "(gigathread.max_module_bytes)\n",
        file, bytes, what, config_.max_module_bytes);
    return cmd::ErrorCode::ModuleLoadFailed;
  }
  const uint64_t vram_end = config_.vram_base + config_.vram_bytes;
  if (address < config_.vram_base || address > vram_end || vram_end - address < bytes) {
    problem = fmt::format(
        "{}: error: the {} [0x{:x}, 0x{:x}) is not inside VRAM "
        "[0x{:x}, 0x{:x})\n",
        file, what, address, address + bytes, config_.vram_base, vram_end);
    return cmd::ErrorCode::DeviceAccessFault;
  }
  text.assign(bytes, '\0');
  const tlm::tlm_response_status read = vram_.read(address, text.data(), bytes);
  if (read != tlm::TLM_OK_RESPONSE) {
    problem = fmt::format("{}: error: reading the {} from VRAM failed: {}\n", file, what,
                          response_text(read));
    return cmd::ErrorCode::DeviceAccessFault;
  }
  text.resize(std::strlen(text.c_str()));  // C strings arrive with their NUL
  return cmd::ErrorCode::None;
}

ModuleLoadOutcome ModuleLoader::load(const ModuleLoadRequest& request) {
  using cmd::ErrorCode;
  // Messages name the module as the driver named it, else by where its text lies.
  std::string file = fmt::format("ptx@0x{:x}", request.text_address);
  std::string report_file = fmt::format("ptxas@0x{:x}", request.report_address);
  if (request.name_address != 0) {
    std::string name, problem;
    const uint64_t vram_end = config_.vram_base + config_.vram_bytes;
    const uint64_t bytes = request.name_address < vram_end
                               ? std::min(cmd::kMaxModuleNameBytes, vram_end - request.name_address)
                               : cmd::kMaxModuleNameBytes;
    if (read_text(request.name_address, bytes, "module name", file, name, problem) !=
        cmd::ErrorCode::None)
      return failure(cmd::ErrorCode::DeviceAccessFault, request, problem);
    if (!name.empty()) {
      file = name;
      report_file = name + " (ptxas report)";
    }
  }
  auto fail = [&](ErrorCode code, const std::string& problems, uint64_t required = 0) {
    return failure(code, request, problems, required);
  };
  std::string text, report, problems;
  if (ErrorCode e =
          read_text(request.text_address, request.text_bytes, "PTX", file, text, problems);
      e != ErrorCode::None)
    return fail(e, problems);
  if (request.report_bytes != 0) {
    if (ErrorCode e = read_text(request.report_address, request.report_bytes, "ptxas report",
                                report_file, report, problems);
        e != ErrorCode::None)
      return fail(e, problems);
  }

  HeapPlacement placement(heap_);
  ptx::Diagnostics diags(file);
  std::shared_ptr<ptx::Program> program;
  try {
    const ptx::RegisterTarget target{config_.registers_per_sm, config_.max_threads_per_sm,
                                     config_.address_bits};
    program = ptx::load_program(ptx::ModuleSource{text, file, report, report_file, target},
                                placement, diags);
  } catch (const std::exception& e) {
    return fail(ErrorCode::ModuleLoadFailed,
                fmt::format("{}: error: the PTX core failed: {}\n", file, e.what()));
  }
  if (!program) return fail(ErrorCode::ModuleLoadFailed, diagnostics_text(diags.list()));
  for (const ptx::GlobalVariable& g : program->globals) {
    if (g.address != 0) continue;
    problems += fmt::format(
        "{}: error: no room for '{}' ({} bytes) in the firmware heap: "
        "gpu.firmware_heap_bytes = {}, {} bytes in use, largest free gap {} bytes\n",
        file, g.name, g.size, heap_->size(), heap_->used_bytes(), heap_->largest_free());
  }
  if (!problems.empty()) return fail(ErrorCode::ModuleLoadFailed, problems);

  // Writing the initializers waits on VRAM; another channel may load a module meanwhile, so the
  // module id is taken only after, with no wait between taking it and adding the module.
  if (!placement.flush(vram_, problems))
    return fail(ErrorCode::DeviceAccessFault, file + ": error: " + problems);
  LoadedModule module;
  const ModuleLoadReport result = describe(*program, table_.next_id(), module);
  const uint64_t required = result.required_bytes();
  if (required > request.buffer_bytes) {
    return fail(ErrorCode::ModuleLoadFailed,
                fmt::format("{}: error: the result buffer has {} bytes; this module's result "
                            "needs {} (required_bytes): nothing was loaded\n",
                            file, request.buffer_bytes, required),
                required);
  }
  module.program = placement.adopt(std::move(program));
  ModuleLoadOutcome out;
  ptx::add_module_variables(checked_, *module.program);
  out.module_id = table_.add(std::move(module));
  out.result = encode_module_load_result(result, request.buffer_bytes, required);
  return out;
}

cmd::ErrorCode ModuleLoader::unload(uint32_t id, std::string& why) {
  if (const auto program = table_.remove(id)) {
    ptx::release_module_variables(checked_, *program);
    return cmd::ErrorCode::None;
  }
  why = fmt::format("ModuleUnload: {}", table_.why_not_loaded(id));
  return cmd::ErrorCode::InvalidModule;
}

void ModuleLoader::unload_all() {
  std::string why;
  for (const uint32_t id : table_.ids()) unload(id, why);
}

uint32_t ModuleLoader::max_threads_per_cta(const ptx::Function& kernel, uint32_t registers) const {
  uint64_t limit = config_.max_threads_per_cta;
  if (kernel.reqntid[0]) {
    limit = std::min(limit, threads(kernel.reqntid));
  } else if (kernel.maxntid[0]) {
    limit = std::min(limit, threads(kernel.maxntid));
  }
  if (config_.registers_per_sm && registers) {
    const uint64_t warps =
        warps_for_registers(config_.registers_per_sm, registers, config_.register_allocation_unit,
                            config_.register_allocation_per_cta);
    limit = std::min<uint64_t>(limit, warps * ptx::kWarpSize);
  }
  return uint32_t(limit);
}

ModuleLoadReport ModuleLoader::describe(const ptx::Program& program, uint32_t module_id,
                                        LoadedModule& module) const {
  ModuleLoadReport report;
  report.module_id = module_id;
  for (const ptx::Function& f : program.functions) {
    if (!f.is_entry || !f.has_body) continue;
    cmd::KernelEntry e;
    e.name_offset = report.add_string(f.name);
    e.name_bytes = uint32_t(f.name.size());
    e.register_source = uint32_t(f.register_source);
    const uint32_t registers = ptx::registers_per_thread(program, f);
    e.handle = ModuleTable::handle(module_id, uint32_t(module.kernels.size()));
    e.first_param = uint32_t(report.params.size());
    e.num_params = uint32_t(f.params.size());
    e.param_buffer_bytes = f.param_buffer_bytes;
    e.static_shared_bytes = f.static_shared_bytes;
    e.registers_per_thread = registers;
    e.local_bytes_per_thread = f.depot_bytes + program.module_local_bytes;
    e.max_threads_per_cta = max_threads_per_cta(f, registers);
    for (const ptx::ParamSlot& p : f.params) report.params.push_back({p.offset, p.size});
    report.kernels.push_back(e);
    module.kernels.push_back({&f, registers});
  }
  for (const ptx::GlobalVariable& g : program.globals) {
    cmd::GlobalEntry e;
    e.name_offset = report.add_string(g.name);
    e.name_bytes = uint32_t(g.name.size());
    e.address = g.address;
    e.bytes = g.size;
    report.globals.push_back(e);
  }
  return report;
}

}  // namespace gpusoc::gigathread
