// Parsing the ModuleLoadResult the command processor writes: a buffer laid out here, part by
// part as docs/commands.md describes it (header, kernels, globals, parameters, names, text;
// 8-byte aligned).
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sw/runtime/module_image.h"
#include "sw/runtime/status.h"

namespace gpusoc::rt {
namespace {

struct ResultBuilder {
  cmd::ModuleLoadResult header;
  std::vector<cmd::KernelEntry> kernels;
  std::vector<cmd::GlobalEntry> globals;
  std::vector<cmd::ParamEntry> params;
  std::string strings;
  std::string text;

  uint32_t name(const std::string& n) {
    const uint32_t at = uint32_t(strings.size());
    strings += n;
    strings += '\0';
    return at;
  }
  std::vector<uint8_t> build(size_t capacity = 0) {
    header.num_kernels = uint32_t(kernels.size());
    header.num_globals = uint32_t(globals.size());
    header.num_params = uint32_t(params.size());
    header.strings_bytes = uint32_t(strings.size());
    header.diagnostics_bytes = text.empty() ? 0 : uint32_t(text.size() + 1);
    // 40 + 48 k + 24 g + 8 p, then the names padded to 8, then the text.
    const size_t names_at = 40 + 48 * kernels.size() + 24 * globals.size() + 8 * params.size();
    const size_t text_at = names_at + (strings.size() + 7) / 8 * 8;
    const size_t size = text_at + (header.diagnostics_bytes + 7) / 8 * 8;
    if (header.required_bytes == 0) header.required_bytes = size;
    std::vector<uint8_t> out(std::max(size, capacity), 0);
    size_t at = 0;
    auto put = [&](const void* p, size_t n) {
      std::memcpy(out.data() + at, p, n);
      at += n;
    };
    put(&header, 40);
    for (const auto& k : kernels) put(&k, 48);
    for (const auto& g : globals) put(&g, 24);
    for (const auto& p : params) put(&p, 8);
    put(strings.data(), strings.size());
    at = text_at;
    put(text.c_str(), header.diagnostics_bytes);
    return out;
  }

  cmd::KernelEntry kernel(const std::string& n, uint64_t handle, uint32_t first, uint32_t count,
                          uint32_t param_bytes) {
    cmd::KernelEntry e;
    e.name_offset = name(n);
    e.name_bytes = uint32_t(n.size());
    e.handle = handle;
    e.first_param = first;
    e.num_params = count;
    e.param_buffer_bytes = param_bytes;
    e.static_shared_bytes = 1024;
    e.registers_per_thread = 12;
    e.local_bytes_per_thread = 16;
    e.max_threads_per_cta = 512;
    e.register_source = uint32_t(cmd::RegisterSource::PtxasReport);
    return e;
  }
};

TEST(ModuleImageTest, ParsesKernelsParametersAndGlobals) {
  ResultBuilder b;
  b.header.module_id = 3;
  // A name of 300 bytes, as templated libraries produce.
  const std::string long_name = "_ZN4cuda3std" + std::string(288, 'x');
  b.kernels = {b.kernel("vector_add", 0x300000000, 0, 4, 28),
               b.kernel(long_name, 0x300000001, 4, 1, 4)};
  b.params = {{0, 8}, {8, 8}, {16, 8}, {24, 4}, {0, 4}};
  cmd::GlobalEntry g;
  g.name_offset = b.name("table");
  g.name_bytes = 5;
  g.address = 0x2'0800'0000;
  g.bytes = 256;
  b.globals = {g};
  const std::vector<uint8_t> buffer = b.build(4096);
  const ModuleLoadReport r = parse_module_load_result(buffer.data(), buffer.size());
  EXPECT_EQ(r.status, cmd::ErrorCode::None);
  EXPECT_EQ(r.module_id, 3u);
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].name, "vector_add");
  EXPECT_EQ(r.kernels[0].handle, 0x300000000u);
  ASSERT_EQ(r.kernels[0].params.size(), 4u);
  EXPECT_EQ(r.kernels[0].params[3].offset, 24u);
  EXPECT_EQ(r.kernels[0].params[3].bytes, 4u);
  EXPECT_EQ(r.kernels[0].param_buffer_bytes, 28u);
  EXPECT_EQ(r.kernels[0].static_shared_bytes, 1024u);
  EXPECT_EQ(r.kernels[0].registers_per_thread, 12u);
  EXPECT_EQ(r.kernels[0].local_bytes_per_thread, 16u);
  EXPECT_EQ(r.kernels[0].max_threads_per_cta, 512u);
  EXPECT_EQ(r.kernels[0].register_source, cmd::RegisterSource::PtxasReport);
  EXPECT_EQ(r.kernels[1].name, long_name);
  ASSERT_EQ(r.kernels[1].params.size(), 1u);
  EXPECT_EQ(r.kernels[1].params[0].bytes, 4u);
  ASSERT_EQ(r.globals.size(), 1u);
  EXPECT_EQ(r.globals[0].name, "table");
  EXPECT_EQ(r.globals[0].address, 0x2'0800'0000u);
  EXPECT_EQ(r.globals[0].bytes, 256u);
  EXPECT_TRUE(r.diagnostics.empty());
}

TEST(ModuleImageTest, FailedLoadCarriesDiagnostics) {
  ResultBuilder b;
  b.header.status = uint32_t(cmd::ErrorCode::ModuleLoadFailed);
  b.text = "ptx@0x200000000:3:1: error: unknown directive '.bogus'\n";
  const std::vector<uint8_t> buffer = b.build(1024);
  const ModuleLoadReport r = parse_module_load_result(buffer.data(), buffer.size());
  EXPECT_EQ(r.status, cmd::ErrorCode::ModuleLoadFailed);
  EXPECT_EQ(r.diagnostics, b.text);
  EXPECT_TRUE(r.kernels.empty());
}

TEST(ModuleImageTest, TooSmallBufferYieldsTheHeaderWithTheRequiredSize) {
  ResultBuilder b;
  b.header.status = uint32_t(cmd::ErrorCode::ModuleLoadFailed);
  b.header.required_bytes = 5000;
  b.header.num_kernels = 20;  // describes the module that did not fit; no entries follow
  std::vector<uint8_t> buffer(64, 0);
  std::memcpy(buffer.data(), &b.header, sizeof b.header);
  const ModuleLoadReport r = parse_module_load_result(buffer.data(), buffer.size());
  EXPECT_EQ(r.required_bytes, 5000u);
  EXPECT_TRUE(r.kernels.empty());
}

void expect_malformed(const std::vector<uint8_t>& buffer, const std::string& fragment) {
  try {
    parse_module_load_result(buffer.data(), buffer.size());
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), Status::DeviceError);
    EXPECT_NE(e.message().find(fragment), std::string::npos) << e.message();
  }
}

TEST(ModuleImageTest, InconsistentResultsAreDeviceErrors) {
  ResultBuilder names;
  names.kernels = {names.kernel("k", 1, 0, 0, 0)};
  names.kernels[0].name_bytes = 2;  // runs past the table's end
  expect_malformed(names.build(), "kernel 0 names [0, +2) of a 2-byte string table");
  ResultBuilder unterminated;
  unterminated.kernels = {unterminated.kernel("kernel", 1, 0, 0, 0)};
  unterminated.kernels[0].name_bytes = 3;  // "ker", followed by 'n' rather than a NUL
  expect_malformed(unterminated.build(), "kernel 0 names [0, +3) of a 7-byte string table");

  ResultBuilder params;
  params.kernels = {params.kernel("k", 1, 1, 2, 16)};
  params.params = {{0, 8}, {8, 8}};
  expect_malformed(params.build(), "kernel k lists parameters 1..3 of 2");

  ResultBuilder outside;
  outside.kernels = {outside.kernel("k", 1, 0, 1, 4)};
  outside.params = {{0, 8}};
  expect_malformed(outside.build(), "parameter 0 of kernel k ([0, +8)) lies outside");

  ResultBuilder counts;
  counts.kernels = {counts.kernel("k", 1, 0, 0, 0)};
  std::vector<uint8_t> cut = counts.build();  // 40 + 48 + 8 (the name, padded)
  cut.resize(60);
  expect_malformed(cut, "need 96 bytes, the buffer has 60");
  expect_malformed(std::vector<uint8_t>(16, 0), "smaller than its header");
}

TEST(ModuleImageTest, EstimateCoversWhatVectorAddNeeds) {
  std::ifstream in(std::string(GPUSOC_KERNEL_DIR) + "/vector_add.ptx");
  ASSERT_TRUE(in);
  std::stringstream text;
  text << in.rdbuf();
  // vector_add.ptx: 2 kernels (vector_add, vector_add_i32_grid_stride), 8 parameters, no
  // globals; and room for 4 KiB of diagnostics.
  const size_t names = (11 + 27 + 7) / 8 * 8;
  EXPECT_GE(estimate_module_result_bytes(text.str()), 40u + 2 * 48 + 8 * 8 + names + 4096);
}

}  // namespace
}  // namespace gpusoc::rt
