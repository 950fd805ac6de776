#include "tests/unit/gigathread/testbench.h"

#include <algorithm>

#include "models/common/error.h"

namespace gpusoc::gigathread::testing {

GridResult GridDouble::run_grid(const GridRequest& request) {
  const size_t index = calls.size();
  GridCall call;
  call.kernel = request.kernel->name;
  call.grid = request.grid;
  call.block = request.block;
  call.dynamic_shared_bytes = request.dynamic_shared_bytes;
  call.params = request.params;
  call.registers_per_thread = request.registers_per_thread;
  call.channel = request.channel;
  call.start = sc_core::sc_time_stamp();
  calls.push_back(call);
  const std::shared_ptr<const ptx::Program> keep = request.program;
  const ptx::Function* kernel = request.kernel;
  sc_core::wait(duration);
  calls[index].end = sc_core::sc_time_stamp();
  calls[index].kernel_at_end = kernel->name;
  GridResult result;
  if (!scripted.empty()) {
    result = scripted.front();
    scripted.pop_front();
  }
  result.stats.start_ps = uint64_t(call.start / sc_time(1, sc_core::SC_PS));
  result.stats.end_ps = uint64_t(calls[index].end / sc_time(1, sc_core::SC_PS));
  result.stats.ctas = request.grid.count();
  return result;
}

uint8_t* CopyDouble::locate(uint64_t address, uint64_t bytes, bool host, cmd::ErrorCode& error) {
  try {
    return (host ? host_ : vram_).backdoor(address, bytes);
  } catch (const ModelError&) {
    error = host ? cmd::ErrorCode::HostAccessFault : cmd::ErrorCode::DeviceAccessFault;
    return nullptr;
  }
}

cmd::ErrorCode CopyDouble::copy(const pcie::CopyRequest& request) {
  CopyCall call;
  call.engine = index_;
  call.copy = request;
  call.start = sc_core::sc_time_stamp();
  sc_core::wait(duration_);
  call.end = sc_core::sc_time_stamp();
  log_.push_back(call);
  cmd::ErrorCode error = cmd::ErrorCode::None;
  const bool from_host = request.direction == cmd::CopyDirection::HostToDevice;
  const bool to_host = request.direction == cmd::CopyDirection::DeviceToHost;
  uint8_t* src = locate(request.source, request.bytes, from_host, error);
  uint8_t* dst = locate(request.destination, request.bytes, to_host, error);
  if (error != cmd::ErrorCode::None) return error;
  std::memmove(dst, src, request.bytes);
  return cmd::ErrorCode::None;
}

cmd::ErrorCode CopyDouble::fill(const pcie::FillRequest& request) {
  CopyCall call;
  call.engine = index_;
  call.fill = true;
  call.fill_request = request;
  call.start = sc_core::sc_time_stamp();
  sc_core::wait(duration_);
  call.end = sc_core::sc_time_stamp();
  log_.push_back(call);
  cmd::ErrorCode error = cmd::ErrorCode::None;
  uint8_t* dst = locate(request.destination, request.bytes, false, error);
  if (error != cmd::ErrorCode::None) return error;
  for (uint64_t i = 0; i < request.bytes; i += request.element_bytes)
    std::memcpy(dst + i, &request.value, request.element_bytes);
  return cmd::ErrorCode::None;
}

HostDriver::HostDriver(sc_core::sc_module_name name)
    : sc_module(name), mmio("mmio"), memcheck_mmio("memcheck_mmio") {
  SC_HAS_PROCESS(HostDriver);
  SC_THREAD(run);
}

void HostDriver::run() {
  if (program) program();
}

tlm::tlm_response_status HostDriver::access(tlm::tlm_command cmd, uint64_t address, void* data,
                                            unsigned bytes) {
  tlm::tlm_generic_payload tx;
  tx.set_command(cmd);
  tx.set_address(address);
  tx.set_data_ptr(static_cast<unsigned char*>(data));
  tx.set_data_length(bytes);
  tx.set_streaming_width(bytes);
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = sc_core::SC_ZERO_TIME;
  mmio->b_transport(tx, delay);
  sc_core::wait(delay);
  return tx.get_response_status();
}

void HostDriver::write_reg(uint32_t channel, uint32_t reg, uint32_t value) {
  const uint64_t address = uint64_t(channel) * bar0::kChannelStride + reg;
  if (access(tlm::TLM_WRITE_COMMAND, address, &value, 4) != tlm::TLM_OK_RESPONSE)
    throw ModelError(name(), "register write refused");
}

uint32_t HostDriver::read_reg(uint32_t channel, uint32_t reg) {
  uint32_t value = 0;
  const uint64_t address = uint64_t(channel) * bar0::kChannelStride + reg;
  if (access(tlm::TLM_READ_COMMAND, address, &value, 4) != tlm::TLM_OK_RESPONSE)
    throw ModelError(name(), "register read refused");
  return value;
}

GigaThreadConfig TestbenchOptions::default_config() {
  GigaThreadConfig c;
  c.channels = 4;
  c.packet_time = sc_time(50, SC_NS);
  c.launch_time = sc_time(1000, SC_NS);
  c.fetch_batch_packets = 16;
  c.vram_base = Testbench::kVramBase;
  c.vram_bytes = Testbench::kVramBytes;
  return c;
}

namespace {

MemoryTargetConfig memory(uint64_t base, uint64_t bytes, sc_time latency) {
  MemoryTargetConfig c;
  c.base = base;
  c.size = bytes;
  c.latency = latency;
  return c;
}

}  // namespace

Testbench::Testbench(const TestbenchOptions& opts)
    : options(opts),
      host("host", memory(kHostBase, kHostBytes, opts.host_latency), stats),
      vram("vram", memory(kVramBase, kVramBytes, opts.vram_latency), stats),
      cp("gigathread", opts.config, stats),
      driver("driver"),
      put_(opts.config.channels, 0),
      ring_bytes_(opts.config.channels, 0) {
  for (uint32_t i = 0; i < opts.copy_engines; ++i) {
    engines.push_back(std::make_unique<CopyDouble>(i, host, vram, opts.copy_time, copy_log));
    cp.copy_engines.bind(*engines.back());
  }
  cp.dma_initiator.bind(host.target);
  cp.vram_initiator.bind(vram.target);
  cp.grid_out.bind(grid);
  cp.interrupt_out.bind(irq);
  driver.mmio.bind(cp.mmio_target);
  driver.memcheck_mmio.bind(cp.memcheck_target);
}

void Testbench::run(std::function<void()> program) {
  driver.program = std::move(program);
  sc_core::sc_start();
}

std::string Testbench::peek_string(uint64_t address, uint64_t max_bytes) {
  const char* p = reinterpret_cast<const char*>(host.backdoor(address, max_bytes));
  return std::string(p, strnlen(p, max_bytes));
}

uint64_t Testbench::alloc(uint64_t bytes) {
  const uint64_t address = next_scratch_;
  next_scratch_ += (bytes + 63) & ~uint64_t{63};
  std::memset(host.backdoor(address, bytes), 0, bytes);
  return address;
}

void Testbench::enable(uint32_t ch, uint32_t ring_bytes) {
  const uint64_t base = ring_base(ch);
  driver.write_reg(ch, bar0::CH_RING_BASE_LO, uint32_t(base));
  driver.write_reg(ch, bar0::CH_RING_BASE_HI, uint32_t(base >> 32));
  driver.write_reg(ch, bar0::CH_RING_SIZE, ring_bytes);
  driver.write_reg(ch, bar0::CH_PUT, 0);
  driver.write_reg(ch, bar0::CH_ERROR_LOG_LO, uint32_t(error_log(ch)));
  driver.write_reg(ch, bar0::CH_ERROR_LOG_HI, uint32_t(error_log(ch) >> 32));
  driver.write_reg(ch, bar0::CH_ERROR_LOG_SIZE, kErrorLogBytes);
  driver.write_reg(ch, bar0::CH_CONTROL, 1);
  put_[ch] = 0;
  ring_bytes_[ch] = ring_bytes;
}

void Testbench::push(uint32_t ch, const cmd::Packet& p) {
  poke(ring_base(ch) + put_[ch], p);
  put_[ch] = (put_[ch] + uint32_t(sizeof(cmd::Packet))) % ring_bytes_[ch];
}

void Testbench::submit(uint32_t ch) {
  driver.write_reg(ch, bar0::CH_PUT, put_[ch]);
  driver.write_reg(ch, bar0::CH_DOORBELL, 1);
}

void Testbench::wait_value(uint64_t address, uint64_t value) {
  const sc_time limit = sc_core::sc_time_stamp() + sc_time(1, sc_core::SC_SEC);
  while (peek<uint64_t>(address) < value) {
    if (sc_core::sc_time_stamp() > limit) throw ModelError("testbench", "wait_value timed out");
    sc_core::wait(sc_time(1, SC_US));
  }
}

Testbench::LoadResult Testbench::load_module(uint32_t ch, const std::string& text,
                                             uint64_t buffer_bytes,
                                             const std::string& ptxas_report) {
  auto place = [&](const std::string& t) {
    const uint64_t address = next_text_;
    next_text_ += (t.size() + 1 + 255) & ~uint64_t{255};
    std::memcpy(vram.backdoor(address, t.size() + 1), t.c_str(), t.size() + 1);
    return address;
  };
  const uint64_t text_address = place(text);
  const uint64_t report_address = ptxas_report.empty() ? 0 : place(ptxas_report);
  const uint64_t result = alloc(buffer_bytes);
  const uint64_t done = alloc(8);
  const uint64_t value = next_fence_value_++;
  push(ch, packet(cmd::Opcode::ModuleLoad, {text_address, text.size() + 1, result, buffer_bytes,
                                            report_address, ptxas_report.size()}));
  push(ch, fence(done, value));
  submit(ch);
  wait_value(done, value);
  return read_result(result);
}

Testbench::LoadResult Testbench::read_result(uint64_t address) {
  auto align8 = [](uint64_t v) { return (v + 7) / 8 * 8; };
  LoadResult r;
  r.header = peek<cmd::ModuleLoadResult>(address);
  uint64_t offset = align8(sizeof(cmd::ModuleLoadResult));
  for (uint32_t i = 0; i < r.header.num_kernels; ++i, offset += sizeof(cmd::KernelEntry))
    r.kernels.push_back(peek<cmd::KernelEntry>(address + offset));
  offset = align8(offset);
  for (uint32_t i = 0; i < r.header.num_globals; ++i, offset += sizeof(cmd::GlobalEntry))
    r.globals.push_back(peek<cmd::GlobalEntry>(address + offset));
  offset = align8(offset);
  for (uint32_t i = 0; i < r.header.num_params; ++i, offset += sizeof(cmd::ParamEntry))
    r.params.push_back(peek<cmd::ParamEntry>(address + offset));
  offset = align8(offset);
  if (r.header.strings_bytes) {
    r.strings.resize(r.header.strings_bytes);
    for (uint32_t i = 0; i < r.header.strings_bytes; ++i)
      r.strings[i] = char(peek<uint8_t>(address + offset + i));
  }
  offset = align8(offset + r.header.strings_bytes);
  if (r.header.diagnostics_bytes)
    r.diagnostics = peek_string(address + offset, r.header.diagnostics_bytes);
  return r;
}

uint64_t Testbench::descriptor(uint64_t kernel, ptx::Dim3 grid, ptx::Dim3 block,
                               const std::vector<uint8_t>& params, uint32_t param_bytes_field,
                               uint64_t stats_address) {
  cmd::LaunchDescriptor d;
  d.kernel = kernel;
  d.grid[0] = grid.x, d.grid[1] = grid.y, d.grid[2] = grid.z;
  d.block[0] = block.x, d.block[1] = block.y, d.block[2] = block.z;
  d.param_bytes = param_bytes_field == ~0u ? uint32_t(params.size()) : param_bytes_field;
  d.param_address = alloc(std::max<size_t>(params.size(), 1));
  if (!params.empty())
    std::memcpy(host.backdoor(d.param_address, params.size()), params.data(), params.size());
  d.stats_address = stats_address;
  const uint64_t address = alloc(sizeof d);
  poke(address, d);
  return address;
}

cmd::Packet packet(cmd::Opcode op, std::initializer_list<uint64_t> args, uint32_t flags) {
  cmd::Packet p;
  p.opcode = op;
  p.flags = flags;
  std::copy(args.begin(), args.end(), p.a);
  return p;
}

cmd::Packet fence(uint64_t address, uint64_t value, uint32_t flags) {
  return packet(cmd::Opcode::Fence, {address, value}, flags);
}

cmd::Packet sem_release(uint64_t address, uint64_t value, uint32_t flags) {
  return packet(cmd::Opcode::SemRelease, {address, value}, flags);
}

cmd::Packet sem_acquire(uint64_t address, uint64_t value, uint64_t poll_ns) {
  return packet(cmd::Opcode::SemAcquire, {address, value, poll_ns});
}

cmd::Packet launch(uint64_t descriptor) {
  return packet(cmd::Opcode::Launch, {descriptor});
}

}  // namespace gpusoc::gigathread::testing
