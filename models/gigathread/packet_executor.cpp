#include "models/gigathread/packet_executor.h"

#include <fmt/format.h>

#include "models/common/picoseconds.h"
#include "models/gigathread/memory_port.h"
#include "models/gigathread/packet_names.h"

namespace gpusoc::gigathread {
namespace {

// The longest SemAcquire poll interval: a second of simulated time (sc_time cannot hold the
// nanosecond counts near 2^64 a buggy driver may write).
constexpr uint64_t kMaxPollNs = 1'000'000'000;

using cmd::ErrorCode;

PacketResult failed(ErrorCode code, std::string message) {
  return PacketResult{code, std::move(message)};
}

const char* space_of_source(cmd::CopyDirection d) {
  return d == cmd::CopyDirection::HostToDevice ? "host" : "device";
}
const char* space_of_destination(cmd::CopyDirection d) {
  return d == cmd::CopyDirection::DeviceToHost ? "host" : "device";
}

PacketResult misaligned(const char* what, uint64_t address) {
  return failed(ErrorCode::InvalidPacket,
                fmt::format("{}: host address 0x{:x} is not 8-byte aligned", what, address));
}

uint64_t now_ps() {
  return Picoseconds().now();
}

}  // namespace

PacketExecutor::PacketExecutor(uint32_t channel, CommandServices& services, StatPair stats,
                               const uint64_t& epoch, const sc_core::sc_event& epoch_changed)
    : services_(services), stats_(stats), epoch_(epoch), epoch_changed_(epoch_changed) {
  request_.channel = channel;
}

uint32_t PacketExecutor::engine_for(cmd::CopyDirection direction, uint32_t engines) {
  switch (direction) {
    case cmd::CopyDirection::HostToDevice:
      return 0;
    case cmd::CopyDirection::DeviceToHost:
      return engines >= 2 ? 1 : 0;
    case cmd::CopyDirection::DeviceToDevice:
      break;
  }
  return engines - 1;
}

PacketResult PacketExecutor::execute(const cmd::Packet& p) {
  if (p.flags & ~cmd::kFlagInterrupt) {
    return failed(ErrorCode::InvalidPacket,
                  fmt::format("flags 0x{:x} has undefined bits (only kFlagInterrupt, 0x1, is "
                              "defined)",
                              p.flags));
  }
  switch (p.opcode) {
    case cmd::Opcode::Nop:
      return {};
    case cmd::Opcode::Launch:
      return launch(p);
    case cmd::Opcode::Copy:
      return copy(p);
    case cmd::Opcode::Memset:
      return memset(p);
    case cmd::Opcode::SemAcquire:
      return sem_acquire(p);
    case cmd::Opcode::SemRelease:
      return sem_release(p);
    case cmd::Opcode::Fence:
      return fence(p);
    case cmd::Opcode::ModuleLoad:
      return module_load(p);
    case cmd::Opcode::ModuleUnload:
      return module_unload(p);
  }
  return failed(ErrorCode::InvalidPacket, fmt::format("opcode {} is not a command (0 to {} are)",
                                                      uint32_t(p.opcode), kNumOpcodes - 1));
}

PacketResult PacketExecutor::host_write(uint64_t address, const void* data, uint64_t bytes,
                                        const char* what) {
  const tlm::tlm_response_status s = services_.host.write(address, data, bytes);
  if (s == tlm::TLM_OK_RESPONSE) return {};
  return failed(ErrorCode::HostAccessFault,
                fmt::format("writing {} ({} bytes) to host 0x{:x} failed: {}", what, bytes, address,
                            response_text(s)));
}

PacketResult PacketExecutor::launch(const cmd::Packet& p) {
  cmd::LaunchDescriptor d;
  const tlm::tlm_response_status s = services_.host.read(p.a[0], &d, sizeof d);
  if (s != tlm::TLM_OK_RESPONSE) {
    return failed(ErrorCode::HostAccessFault,
                  fmt::format("launch: reading the LaunchDescriptor at host 0x{:x} failed: {}",
                              p.a[0], response_text(s)));
  }
  sc_core::wait(services_.config.launch_time);
  const ModuleTable::Found found = services_.modules.modules().find(d.kernel);
  if (!found.kernel) {
    return failed(ErrorCode::InvalidKernel,
                  "launch: " + services_.modules.modules().why_not_found(d.kernel));
  }
  const ptx::Function& k = *found.kernel->function;
  auto what = [&] {  // only when something failed: a launch itself formats nothing
    return fmt::format(
        "launch of '{}' with grid ({},{},{}), block ({},{},{}), {} bytes of dynamic shared "
        "memory",
        k.name, d.grid[0], d.grid[1], d.grid[2], d.block[0], d.block[1], d.block[2],
        d.dynamic_shared_bytes);
  };
  if (d.param_bytes != k.param_buffer_bytes) {
    return failed(ErrorCode::InvalidLaunchParams,
                  fmt::format("{}: param_bytes is {}; the kernel's {} parameters take {} bytes",
                              what(), d.param_bytes, k.params.size(), k.param_buffer_bytes));
  }
  request_.params.resize(d.param_bytes);
  if (d.param_bytes) {
    const tlm::tlm_response_status ps =
        services_.host.read(d.param_address, request_.params.data(), d.param_bytes);
    if (ps != tlm::TLM_OK_RESPONSE) {
      return failed(ErrorCode::HostAccessFault,
                    fmt::format("{}: reading the parameter buffer at host 0x{:x} failed: {}",
                                what(), d.param_address, response_text(ps)));
    }
  }
  request_.program = found.module->program;
  request_.kernel = &k;
  request_.grid = ptx::Dim3(d.grid[0], d.grid[1], d.grid[2]);
  request_.block = ptx::Dim3(d.block[0], d.block[1], d.block[2]);
  request_.dynamic_shared_bytes = d.dynamic_shared_bytes;
  request_.registers_per_thread = found.kernel->registers_per_thread;
  request_.memcheck = services_.memcheck.active();
  request_.racecheck = services_.memcheck.racecheck();
  stats_.add(&CommandStats::launches);
  const GridResult r = services_.grid->run_grid(request_);
  request_.program.reset();  // an unloaded module must not live on in an idle channel
  if (d.stats_address) {
    PacketResult w = host_write(d.stats_address, &r.stats, sizeof r.stats, "the LaunchStatsRecord");
    if (w.error != ErrorCode::None && r.error == ErrorCode::None) {
      return failed(w.error, what() + ": " + w.message);
    }
  }
  if (r.error != ErrorCode::None) return failed(r.error, what() + ": " + r.message);
  return {};
}

PacketResult PacketExecutor::copy(const cmd::Packet& p) {
  if (p.a[3] > uint64_t(cmd::CopyDirection::DeviceToDevice)) {
    return failed(ErrorCode::InvalidPacket,
                  fmt::format("copy: direction {} is not HostToDevice (0), DeviceToHost (1) or "
                              "DeviceToDevice (2)",
                              p.a[3]));
  }
  pcie::CopyRequest request;
  request.source = p.a[0];
  request.destination = p.a[1];
  request.bytes = p.a[2];
  request.direction = cmd::CopyDirection(p.a[3]);
  request.raise_interrupt = (p.flags & cmd::kFlagInterrupt) != 0;  // the engine's COPY cause
  if (request.bytes == 0) return {};
  const uint32_t engines = uint32_t(services_.copy_engines.size());
  const uint32_t engine = engine_for(request.direction, engines);
  stats_.add(&CommandStats::copies);
  stats_.add(&CommandStats::bytes, request.bytes);
  const ErrorCode e = services_.copy_engines[engine]->copy(request);
  if (e == ErrorCode::None) return {};
  return failed(e, fmt::format("copy of {} bytes from {} 0x{:x} to {} 0x{:x} on copy engine {} "
                               "failed: {}",
                               request.bytes, space_of_source(request.direction), request.source,
                               space_of_destination(request.direction), request.destination, engine,
                               error_name(e)));
}

PacketResult PacketExecutor::memset(const cmd::Packet& p) {
  pcie::FillRequest request;
  request.destination = p.a[0];
  request.bytes = p.a[1];
  const uint64_t element = p.a[3];
  if (element != 1 && element != 2 && element != 4) {
    return failed(ErrorCode::InvalidPacket,
                  fmt::format("memset: element size {} is not 1, 2 or 4", element));
  }
  if (request.bytes % element != 0 || p.a[2] >> (8 * element) != 0) {
    return failed(ErrorCode::InvalidPacket,
                  fmt::format("memset: {} bytes of value 0x{:x} do not make whole {}-byte "
                              "elements",
                              request.bytes, p.a[2], element));
  }
  request.value = uint32_t(p.a[2]);
  request.element_bytes = uint32_t(element);
  request.raise_interrupt = (p.flags & cmd::kFlagInterrupt) != 0;
  if (request.bytes == 0) return {};
  const uint32_t engine =
      engine_for(cmd::CopyDirection::DeviceToDevice, uint32_t(services_.copy_engines.size()));
  stats_.add(&CommandStats::copies);
  stats_.add(&CommandStats::bytes, request.bytes);
  const ErrorCode e = services_.copy_engines[engine]->fill(request);
  if (e == ErrorCode::None) return {};
  return failed(e, fmt::format("memset of {} bytes at device 0x{:x} to 0x{:x} ({}-byte elements) "
                               "on copy engine {} failed: {}",
                               request.bytes, request.destination, request.value, element, engine,
                               error_name(e)));
}

PacketResult PacketExecutor::sem_acquire(const cmd::Packet& p) {
  if (p.a[0] % 8) return misaligned("SemAcquire", p.a[0]);
  if (p.a[2] > kMaxPollNs) {
    return failed(
        ErrorCode::InvalidPacket,
        fmt::format("SemAcquire: a poll interval of {} ns exceeds {} ns", p.a[2], kMaxPollNs));
  }
  const sc_core::sc_time poll = p.a[2] ? sc_core::sc_time(double(p.a[2]), sc_core::SC_NS)
                                       : sc_core::sc_time(1000, sc_core::SC_NS);
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  const uint64_t epoch = epoch_;
  for (;;) {
    uint64_t value = 0;
    const tlm::tlm_response_status s = services_.host.read(p.a[0], &value, sizeof value);
    if (s != tlm::TLM_OK_RESPONSE) {
      return failed(ErrorCode::HostAccessFault,
                    fmt::format("SemAcquire: reading the semaphore at host 0x{:x} failed: {}",
                                p.a[0], response_text(s)));
    }
    if (value >= p.a[1] || epoch_ != epoch) break;  // disabled during the read: no wait
    sc_core::wait(poll, epoch_changed_);
    if (epoch_ != epoch) break;  // the channel was disabled: stop waiting
  }
  stats_.add(&CommandStats::semaphore_wait_ps,
             Picoseconds().of(sc_core::sc_time_stamp() - start));
  return {};
}

PacketResult PacketExecutor::sem_release(const cmd::Packet& p) {
  if (p.a[0] % 8) return misaligned("SemRelease", p.a[0]);
  const cmd::SemaphoreRecord record{p.a[1], now_ps()};
  PacketResult r = host_write(p.a[0], &record, sizeof record, "the SemaphoreRecord");
  if (r.error != ErrorCode::None) r.message = "SemRelease: " + r.message;
  return r;
}

PacketResult PacketExecutor::fence(const cmd::Packet& p) {
  if (p.a[0] % 8) return misaligned("Fence", p.a[0]);
  PacketResult r = host_write(p.a[0], &p.a[1], sizeof p.a[1], "the fence value");
  if (r.error != ErrorCode::None) r.message = "Fence: " + r.message;
  return r;
}

PacketResult PacketExecutor::module_load(const cmd::Packet& p) {
  const uint64_t buffer = p.a[2], buffer_bytes = p.a[3];
  if (buffer_bytes < sizeof(cmd::ModuleLoadResult) || buffer % 8) {
    return failed(ErrorCode::InvalidPacket,
                  fmt::format("ModuleLoad: the result buffer at host 0x{:x} ({} bytes) must be "
                              "8-byte aligned and hold at least the {}-byte header",
                              buffer, buffer_bytes, sizeof(cmd::ModuleLoadResult)));
  }
  ModuleLoadOutcome out =
      services_.modules.load({p.a[0], p.a[1], p.a[4], p.a[5], p.a[6], buffer_bytes});
  PacketResult w = host_write(buffer, out.result.data(), out.result.size(), "the ModuleLoadResult");
  if (w.error != ErrorCode::None) {
    std::string ignored;  // the host cannot learn the module's id: do not keep it
    if (out.module_id) services_.modules.unload(out.module_id, ignored);
    return failed(w.error, "ModuleLoad: " + w.message);
  }
  return failed(out.error, std::move(out.message));
}

PacketResult PacketExecutor::module_unload(const cmd::Packet& p) {
  std::string why;
  const ErrorCode e = p.a[0] > 0xffff'ffffu ? ErrorCode::InvalidModule
                                            : services_.modules.unload(uint32_t(p.a[0]), why);
  if (e == ErrorCode::None) return {};
  if (why.empty()) why = fmt::format("ModuleUnload: module id {} is out of range", p.a[0]);
  return failed(e, why);
}

}  // namespace gpusoc::gigathread
