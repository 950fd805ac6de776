// ModuleLoad and ModuleUnload through a channel: a real kernel from sw/kernels, the result
// layout, load failures, small buffers, the firmware heap, and handles after unload.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "models/ptx/device.h"
#include "models/ptx/register_pressure.h"
#include "tests/support/systemc_test.h"
#include "tests/unit/gigathread/testbench.h"
#include "tests/unit/gigathread/tiny_module.h"

namespace gpusoc::gigathread::testing {
namespace {

using cmd::ErrorCode;
using cmd::Opcode;
using ::testing::HasSubstr;

std::string read_kernel(const std::string& file) {
  std::ifstream in(std::string(GPUSOC_KERNEL_DIR) + "/" + file);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct ExpectedParam {
  uint32_t offset, bytes;
};

/// Each kernel's parameters as the PTX declares them: `.param [.align N] .type name[count]`,
/// laid out at their alignment (scalars: their size).
std::vector<std::pair<std::string, std::vector<ExpectedParam>>> kernels_in(const std::string& ptx) {
  std::vector<std::pair<std::string, std::vector<ExpectedParam>>> kernels;
  const std::regex entry(R"(\.entry\s+(\w+)\s*\(([^)]*)\))");
  const std::regex param(R"(\.param\s+(?:\.align\s+(\d+)\s+)?\.[a-z](\d+)\s+\w+(?:\[(\d+)\])?)");
  for (auto e = std::sregex_iterator(ptx.begin(), ptx.end(), entry); e != std::sregex_iterator();
       ++e) {
    std::vector<ExpectedParam> params;
    uint32_t offset = 0;
    const std::string list = (*e)[2];
    for (auto p = std::sregex_iterator(list.begin(), list.end(), param);
         p != std::sregex_iterator(); ++p) {
      const uint32_t element = uint32_t(std::stoul((*p)[2])) / 8;
      const uint32_t count = (*p)[3].matched ? uint32_t(std::stoul((*p)[3])) : 1;
      const uint32_t align = (*p)[1].matched ? uint32_t(std::stoul((*p)[1])) : element;
      offset = (offset + align - 1) / align * align;
      params.push_back({offset, element * count});
      offset += element * count;
    }
    kernels.emplace_back((*e)[1], params);
  }
  return kernels;
}

/// The bytes of `name`'s `{...}` initializer in the PTX text.
std::vector<uint8_t> initializer_of(const std::string& ptx, const std::string& name) {
  const std::regex decl(name + R"(\[\d+\]\s*=\s*\{([^}]*)\})");
  std::smatch m;
  if (!std::regex_search(ptx, m, decl)) return {};
  std::vector<uint8_t> bytes;
  std::stringstream list(m[1]);
  for (std::string item; std::getline(list, item, ',');) bytes.push_back(uint8_t(std::stoul(item)));
  return bytes;
}

TEST(ModuleLoad, LoadsARealKernelModule) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const std::string ptx = read_kernel("conv2d.ptx");
  const auto expected = kernels_in(ptx);
  ASSERT_EQ(expected.size(), 2u);
  Testbench::LoadResult r;
  tb.run([&] {
    tb.enable(0);
    r = tb.load_module(0, ptx);
    const std::vector<uint8_t> params(r.kernels.at(0).param_buffer_bytes, 0x5a);
    tb.push(0, launch(tb.descriptor(r.kernels.at(0).handle, {2, 3}, {16, 16}, params)));
    tb.submit(0);
  });
  ASSERT_EQ(r.header.status, uint32_t(ErrorCode::None)) << r.diagnostics;
  EXPECT_EQ(r.header.module_id, 1u);
  EXPECT_EQ(r.header.diagnostics_bytes, 0u);
  ASSERT_EQ(r.header.num_kernels, 2u);

  // The same text through the PTX core's own loader, for the same SM.
  ptx::DeviceOptions sm;
  sm.registers_per_sm = tb.options.config.registers_per_sm;
  sm.max_threads_per_sm = tb.options.config.max_threads_per_sm;
  ptx::FunctionalDevice reference(sm);
  const ptx::Module module = reference.load_module(ptx, "conv2d.ptx");
  uint32_t param_index = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    const cmd::KernelEntry& k = r.kernels[i];
    SCOPED_TRACE(expected[i].first);
    EXPECT_EQ(r.kernel_name(i), expected[i].first);
    EXPECT_NE(k.handle, 0u);
    EXPECT_EQ(k.first_param, param_index);
    ASSERT_EQ(k.num_params, expected[i].second.size());
    for (uint32_t p = 0; p < k.num_params; ++p) {
      EXPECT_EQ(r.params.at(k.first_param + p).offset, expected[i].second[p].offset) << p;
      EXPECT_EQ(r.params.at(k.first_param + p).bytes, expected[i].second[p].bytes) << p;
    }
    const ExpectedParam& last = expected[i].second.back();
    EXPECT_EQ(k.param_buffer_bytes, last.offset + last.bytes);
    param_index += k.num_params;
    const ptx::Function& f = module.kernel(expected[i].first).function();
    const uint32_t registers = ptx::registers_per_thread(module.program(), f);
    EXPECT_EQ(k.registers_per_thread, registers);
    EXPECT_EQ(k.static_shared_bytes, f.static_shared_bytes);
    const uint32_t warp_registers = (registers * 32 + 255) / 256 * 256;  // in units of 256
    const uint32_t by_registers = tb.options.config.registers_per_sm / warp_registers * 32;
    EXPECT_EQ(k.max_threads_per_cta, std::min(tb.options.config.max_threads_per_cta, by_registers));
  }
  EXPECT_NE(r.kernels[0].handle, r.kernels[1].handle);
  EXPECT_EQ(r.header.num_params, param_index);

  ASSERT_EQ(r.header.num_globals, 1u);
  EXPECT_EQ(r.global_name(0), "c_filter");
  EXPECT_EQ(r.globals[0].bytes, 100u);
  const GigaThreadConfig& c = tb.options.config;
  EXPECT_GE(r.globals[0].address, c.vram_base + c.vram_bytes - c.firmware_heap_bytes);
  EXPECT_LE(r.globals[0].address + 100, c.vram_base + c.vram_bytes);
  const std::vector<uint8_t> init = initializer_of(ptx, "c_filter");
  ASSERT_EQ(init.size(), 100u);
  const uint8_t* vram = tb.vram.backdoor(r.globals[0].address, 100);
  EXPECT_EQ(std::vector<uint8_t>(vram, vram + 100), init);

  ASSERT_EQ(tb.grid.calls.size(), 1u);
  EXPECT_EQ(tb.grid.calls[0].kernel, "conv2d_5x5_const");
  EXPECT_EQ(tb.grid.calls[0].registers_per_thread, r.kernels[0].registers_per_thread);
  EXPECT_EQ(tb.grid.calls[0].params, std::vector<uint8_t>(24, 0x5a));
  EXPECT_EQ(tb.grid.calls[0].block.y, 16u);
  EXPECT_EQ(tb.cp.stats().errors.value(), 0u);
}

TEST(ModuleLoad, FailureListsEveryProblem) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  const std::string bad =
      ".version 7.0\n.target sm_80\n.address_size 64\n"
      ".visible .entry broken()\n{\n"
      "\t.reg .b32 %r<2>;\n"
      "\tmov.u32 %q1, 1;\n"      // line 7: undeclared register
      "\tfrobnicate.u32 %r1;\n"  // line 8: no such instruction
      "\tret;\n}\n";
  Testbench::LoadResult r;
  uint32_t error = 0;
  tb.run([&] {
    tb.enable(0);
    r = tb.load_module(0, bad);
    error = tb.reg(0, bar0::CH_ERROR);
  });
  EXPECT_EQ(r.header.status, uint32_t(ErrorCode::ModuleLoadFailed));
  EXPECT_EQ(r.header.module_id, 0u);
  EXPECT_EQ(r.header.num_kernels, 0u);
  EXPECT_EQ(r.header.diagnostics_bytes, r.diagnostics.size() + 1);
  EXPECT_THAT(r.diagnostics, HasSubstr("ptx@0x200000000:7:"));
  EXPECT_THAT(r.diagnostics, HasSubstr("ptx@0x200000000:8:"));
  EXPECT_EQ(error, uint32_t(ErrorCode::ModuleLoadFailed));
  const std::string log = tb.peek_string(tb.error_log(0));
  EXPECT_THAT(log, HasSubstr("ModuleLoad of"));
  EXPECT_THAT(log, HasSubstr(r.diagnostics));
  EXPECT_EQ(tb.cp.modules().modules().size(), 0u);
  EXPECT_EQ(tb.cp.modules().heap().used_bytes(), 0u);
}

TEST(ModuleLoad, TooSmallBufferTellsTheSizeAndLoadsNothing) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  // Header, 2 kernels, 1 global, 2 parameters (add_one's), the names ("add_one", "empty" and
  // "counter", NUL-terminated: 22 bytes, padded to 24), no diagnostics.
  const uint64_t needed = 40 + 2 * 48 + 24 + 2 * 8 + 24;
  Testbench::LoadResult small, exact;
  tb.run([&] {
    tb.enable(0);
    small = tb.load_module(0, kTinyModule, 64);
    exact = tb.load_module(0, kTinyModule, needed);
  });
  EXPECT_EQ(small.header.status, uint32_t(ErrorCode::ModuleLoadFailed));
  EXPECT_EQ(small.header.required_bytes, needed);
  EXPECT_EQ(small.header.num_kernels, 0u);
  EXPECT_EQ(small.header.diagnostics_bytes, 24u);  // what fits: 23 characters and the NUL
  EXPECT_EQ(small.diagnostics, "ptx@0x200000000: error:");
  EXPECT_EQ(exact.header.status, uint32_t(ErrorCode::None));
  EXPECT_EQ(exact.header.required_bytes, needed);
  EXPECT_EQ(exact.header.module_id, 1u);  // the refused load kept nothing
  EXPECT_EQ(tb.cp.modules().modules().size(), 1u);
}

TEST(ModuleLoad, UnloadedKernelsCannotBeLaunchedAndHandlesAreNotReused) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  Testbench::LoadResult first, second;
  uint32_t launch_error = 0, unload_error = 0;
  std::string launch_log, unload_log;
  tb.run([&] {
    tb.enable(0);
    first = tb.load_module(0, kTinyModule);
    const uint64_t done = tb.alloc(8);
    tb.push(0, packet(Opcode::ModuleUnload, {first.header.module_id}));
    tb.push(0, launch(tb.descriptor(first.kernels.at(1).handle, {1}, {1}, {})));
    tb.push(0, fence(done, 1));
    tb.submit(0);
    tb.wait_value(done, 1);
    launch_error = tb.reg(0, bar0::CH_ERROR);
    launch_log = tb.peek_string(tb.error_log(0));
    tb.clear_error(0);
    second = tb.load_module(0, kTinyModule);
    tb.push(0, packet(Opcode::ModuleUnload, {first.header.module_id}));
    tb.push(0, fence(done, 2));
    tb.submit(0);
    tb.wait_value(done, 2);
    unload_error = tb.reg(0, bar0::CH_ERROR);
    unload_log = tb.peek_string(tb.error_log(0));
  });
  EXPECT_EQ(launch_error, uint32_t(ErrorCode::InvalidKernel));
  EXPECT_THAT(launch_log, HasSubstr("module 1 was unloaded"));
  EXPECT_TRUE(tb.grid.calls.empty());
  EXPECT_EQ(second.header.module_id, 2u);
  for (const cmd::KernelEntry& a : first.kernels) {
    for (const cmd::KernelEntry& b : second.kernels) EXPECT_NE(a.handle, b.handle);
  }
  EXPECT_EQ(unload_error, uint32_t(ErrorCode::InvalidModule));
  EXPECT_THAT(unload_log, HasSubstr("ModuleUnload: module 1 was unloaded"));
}

TEST(ModuleLoad, RunningGridKeepsItsModuleAndItsVariablesUntilItEnds) {
  gpusoc::testing::fresh_systemc();
  Testbench tb;
  tb.grid.duration = sc_time(50, SC_US);
  uint64_t a = 0, b = 0, c = 0;
  tb.run([&] {
    tb.enable(0);
    tb.enable(1);
    const Testbench::LoadResult m1 = tb.load_module(0, kTinyModule);
    a = m1.globals.at(0).address;
    tb.push(0, launch(tb.descriptor(m1.kernels.at(1).handle, {1}, {1}, {})));
    tb.submit(0);
    sc_core::wait(sc_time(5, SC_US));  // the grid runs
    tb.push(1, packet(Opcode::ModuleUnload, {m1.header.module_id}));
    const Testbench::LoadResult m2 = tb.load_module(1, kTinyModule);
    b = m2.globals.at(0).address;
    sc_core::wait(sc_time(60, SC_US));  // the grid has ended
    tb.push(1, packet(Opcode::ModuleUnload, {m2.header.module_id}));
    c = tb.load_module(1, kTinyModule).globals.at(0).address;
  });
  ASSERT_EQ(tb.grid.calls.size(), 1u);
  EXPECT_EQ(tb.grid.calls[0].kernel_at_end, "empty");
  EXPECT_NE(b, a);  // a's block was still held by the running grid
  EXPECT_EQ(c, a);  // and freed when it ended
}

TEST(ModuleLoad, FirmwareHeapExhaustionNamesTheVariable) {
  gpusoc::testing::fresh_systemc();
  TestbenchOptions options;
  options.config.firmware_heap_bytes = 4;
  Testbench tb(options);
  Testbench::LoadResult r;
  tb.run([&] {
    tb.enable(0);
    r = tb.load_module(0, kTinyModule);
  });
  EXPECT_EQ(r.header.status, uint32_t(ErrorCode::ModuleLoadFailed));
  EXPECT_THAT(r.diagnostics, HasSubstr("no room for 'counter' (8 bytes) in the firmware heap: "
                                       "gpu.firmware_heap_bytes = 4"));
}

TEST(ModuleLoad, TextOutsideVramOrTooLargeIsRefused) {
  gpusoc::testing::fresh_systemc();
  TestbenchOptions options;
  options.config.max_module_bytes = 1000;
  Testbench tb(options);
  uint64_t outside = 0, large = 0;
  tb.run([&] {
    tb.enable(0);
    outside = tb.alloc(256);
    large = tb.alloc(256);
    const uint64_t done = tb.alloc(8);
    tb.push(0, packet(Opcode::ModuleLoad, {0x1000, 100, outside, 256}));
    tb.push(0, packet(Opcode::ModuleLoad, {Testbench::kVramBase, 1001, large, 256}));
    tb.push(0, packet(Opcode::ModuleLoad, {Testbench::kVramBase, 100, large, 16}));
    tb.push(0, fence(done, 1));
    tb.submit(0);
    tb.wait_value(done, 1);
  });
  const Testbench::LoadResult o = tb.read_result(outside);
  EXPECT_EQ(o.header.status, uint32_t(ErrorCode::DeviceAccessFault));
  EXPECT_THAT(o.diagnostics, HasSubstr("[0x1000, 0x1064) is not inside VRAM"));
  const Testbench::LoadResult l = tb.read_result(large);
  EXPECT_EQ(l.header.status, uint32_t(ErrorCode::ModuleLoadFailed));
  EXPECT_THAT(l.diagnostics, HasSubstr("1001 bytes of PTX exceed the limit of 1000 bytes"));
  EXPECT_EQ(tb.cp.stats().errors.value(), 3u);  // the third: a buffer below the header's size
  EXPECT_EQ(tb.cp.channel(0).registers().read(bar0::CH_ERROR),
            uint32_t(ErrorCode::DeviceAccessFault));
}

}  // namespace
}  // namespace gpusoc::gigathread::testing
