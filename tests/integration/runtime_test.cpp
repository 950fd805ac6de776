// The runtime end to end: a host program on the simulated host CPU drives the GPU SoC of
// configs/small.json through PCIe, exactly as a driver would. Expected values come from the
// configuration, from CPU references computed here, and from the ABI's own records. This file:
// opening, modules, launches and the errors of each; runtime_streams_test.cpp: streams, events,
// copies and fills.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/common/stats_report.h"
#include "models/pcie/bar0_map.h"
#include "tests/integration/soc_fixture.h"

namespace gpusoc::rt {
namespace {

using namespace testing;

TEST(RuntimeIntegrationTest, OpenReportsTheConfiguredDevice) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus& bus) {
    const DeviceProperties& p = dev.properties();
    EXPECT_EQ(p.vendor_id, soc.param<uint32_t>("pcie.vendor_id"));
    EXPECT_EQ(p.device_id, soc.param<uint32_t>("pcie.device_id"));
    EXPECT_EQ(p.class_code, soc.param<uint32_t>("pcie.class_code"));
    EXPECT_EQ(p.pcie_generation, soc.param<uint32_t>("pcie.generation"));
    EXPECT_EQ(p.pcie_lanes, soc.param<uint32_t>("pcie.lanes"));
    EXPECT_EQ(p.register_map_version, bar0::kVersion);
    EXPECT_EQ(p.vram_base, 0x2'0000'0000u);
    EXPECT_EQ(p.vram_bytes, soc.param<uint64_t>("memory.capacity_bytes") -
                                soc.param<uint64_t>("gpu.firmware_heap_bytes"));
    EXPECT_EQ(p.channels, soc.param<uint32_t>("gigathread.channels"));
    EXPECT_EQ(p.copy_engines, soc.param<uint32_t>("pcie.copy_engines"));
    EXPECT_EQ(p.bar0_bytes, bar0::kSize);
    EXPECT_EQ(p.bar1_bytes, soc.param<uint64_t>("pcie.bar1_bytes"));
    // Both BARs in the MMIO window, naturally aligned, not overlapping.
    const host::HostAddressMap& map = bus.address_map();
    for (const auto& [address, bytes] :
         {std::pair{p.bar0_address, p.bar0_bytes}, std::pair{p.bar1_address, p.bar1_bytes}}) {
      EXPECT_GE(address, map.mmio_base);
      EXPECT_LE(address + bytes, map.mmio_base + map.mmio_bytes);
      EXPECT_EQ(address % bytes, 0u);
    }
    EXPECT_TRUE(p.bar0_address + p.bar0_bytes <= p.bar1_address ||
                p.bar1_address + p.bar1_bytes <= p.bar0_address);
    const MemoryInfo info = dev.memory_info();
    EXPECT_EQ(info.total_bytes, p.vram_bytes);
    EXPECT_EQ(info.free_bytes, p.vram_bytes);
  });
}

TEST(RuntimeIntegrationTest, VectorAddMatchesTheCpu) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus&) {
    Module m = dev.load_module_file(kKernelDir + "/vector_add.ptx");
    EXPECT_EQ(m.kernel_names(),
              (std::vector<std::string>{"vector_add", "vector_add_i32_grid_stride"}));
    const KernelInfo& k = m.kernel("vector_add").info();
    ASSERT_EQ(k.params.size(), 4u);
    EXPECT_EQ(k.params[3].offset, 24u);
    EXPECT_EQ(k.register_source, cmd::RegisterSource::Estimate);
    run_vector_add(dev, m, 10000, 1);  // not a multiple of the block: the tail is guarded
    // With ptxas's report for the module, the GPU uses its counts.
    Module exact = dev.load_module_file(kKernelDir + "/vector_add.ptx",
                                        kKernelDir + "/vector_add.sm_80.ptxas");
    EXPECT_EQ(exact.kernel("vector_add").info().registers_per_thread, 12u);
    EXPECT_EQ(exact.kernel("vector_add").info().register_source, cmd::RegisterSource::PtxasReport);
  });
}

// Where a program keeps its kernels does not change its run: the module's name (its path, for
// the GPU's messages) crosses the link in a field of fixed size. It once took its own length, so
// a checkout in a longer directory shifted every later event and kernel times by up to 8%.
TEST(RuntimeIntegrationTest, AModuleRunsTheSameFromAnyDirectory) {
  auto run_from = [](const std::string& path, std::string& statistics) {
    Soc soc;
    const sc_core::sc_time t = soc.run([&](Device& dev, host::HostBus&) {
      Module m = dev.load_module_file(path);
      run_vector_add(dev, m, 5000, 4);
    });
    statistics = stats_to_json(soc.stats()).dump();
    return t;
  };
  std::string near, far;
  const sc_core::sc_time t_near = run_from(kKernelDir + "/vector_add.ptx", near);
  const sc_core::sc_time t_far =
      run_from(kKernelDir + "/../kernels/./../kernels/vector_add.ptx", far);
  EXPECT_EQ(t_near, t_far);
  EXPECT_EQ(near, far);
}

// Templated libraries name kernels and variables with hundreds of bytes; a ptxas report for
// them travels with the module.
TEST(RuntimeIntegrationTest, LongNamesAndPtxasReportsReachTheGpu) {
  const std::string kernel = "_ZN6thrust8cuda_cub4core13_kernel_agent" + std::string(300, 'X');
  const std::string global = "_ZN3cub6detail5table" + std::string(200, 'Y');
  const std::string ptx = ".version 9.0\n.target sm_80\n.address_size 64\n"
                          ".global .align 4 .u32 " + global + "[4] = {1, 2, 3, 4};\n"
                          ".visible .entry " + kernel + "(.param .u64 p)\n{\n"
                          "  .reg .b32 %r<3>;\n  .reg .b64 %rd<3>;\n"
                          "  ld.param.u64 %rd1, [p];\n  mov.u64 %rd2, " + global + ";\n"
                          "  ld.global.u32 %r1, [%rd2+8];\n  st.global.u32 [%rd1], %r1;\n"
                          "  ret;\n}\n";
  const std::string report = "ptxas info    : Compiling entry function '" + kernel +
                             "' for 'sm_80'\nptxas info    : Used 37 registers, 0 bytes smem\n";
  Soc soc;
  soc.run([&](Device& dev, host::HostBus&) {
    Module m = dev.load_module(ptx, "long.ptx", report);
    EXPECT_EQ(m.kernel_names(), std::vector<std::string>{kernel});
    const Kernel k = m.kernel(kernel);
    EXPECT_EQ(k.info().registers_per_thread, 37u);
    EXPECT_EQ(k.info().register_source, cmd::RegisterSource::PtxasReport);
    EXPECT_EQ(m.global(global).second, 16u);
    auto out = dev.alloc<uint32_t>(1);
    dev.launch(k, LaunchConfig{Dim3(1), Dim3(1)}, out);
    dev.synchronize();
    EXPECT_EQ(out.download(), std::vector<uint32_t>{3});
    // Without the report the GPU estimates.
    Module estimated = dev.load_module(ptx, "long.ptx");
    EXPECT_EQ(estimated.kernel(kernel).info().register_source, cmd::RegisterSource::Estimate);
    // A report for another module fails the load and says why.
    expect_error(Status::InvalidImage, "kernel 'other' is not in module",
                 [&] {
                   dev.load_module(ptx, "long.ptx",
                                   "ptxas info    : Compiling entry function 'other' for "
                                   "'sm_80'\nptxas info    : Used 8 registers\n");
                 });
  });
}

TEST(RuntimeIntegrationTest, ModuleLoadErrorsCarryTheLoadersText) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus&) {
    const std::string broken =
        ".version 9.0\n.target sm_80\n.address_size 64\n\n"
        ".visible .entry broken(.param .u64 p)\n{\n\tfrobnicate.u32 %r1;\n\tret;\n}\n";
    expect_error(Status::InvalidImage, ":7:2: error: unsupported instruction 'frobnicate'",
                 [&] { dev.load_module(broken, "broken.ptx"); });
    expect_error(Status::FileNotFound, "no_such.ptx",
                 [&] { dev.load_module_file(kKernelDir + "/no_such.ptx"); });
    EXPECT_EQ(dev.memory_info().free_bytes, dev.properties().vram_bytes);  // text was freed
    // The channel is fine afterwards.
    Module m = dev.load_module_file(kKernelDir + "/vector_add.ptx");
    run_vector_add(dev, m, 512, 3);
  });
}

TEST(RuntimeIntegrationTest, ATooSmallResultBufferIsGrownAndTheLoadRetried) {
  Soc soc;
  RuntimeOptions options;
  options.module_result_bytes = 64;  // the header and little else
  soc.run(
      [&](Device& dev, host::HostBus&) {
        Module m = dev.load_module_file(kKernelDir + "/vector_add.ptx");
        EXPECT_EQ(m.kernel_names().size(), 2u);
        run_vector_add(dev, m, 300, 9);
      },
      options);
}

TEST(RuntimeIntegrationTest, InvalidLaunchesAreRefusedAndTheNextLaunchWorks) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus&) {
    Module m = dev.load_module_file(kKernelDir + "/vector_add.ptx");
    const Kernel k = m.kernel("vector_add");
    auto buf = dev.alloc<float>(1024);
    const DevicePtr p = buf.ptr();
    // Refused by the runtime before anything reaches the GPU.
    expect_error(Status::InvalidConfiguration, "the limits are block (1024,1024,64)", [&] {
      dev.launch(k, {1, 2048}, p, p, p, int32_t(4));
    });
    expect_error(Status::InvalidConfiguration, "threads per block; the kernel allows at most", [&] {
      dev.launch(k, {1, Dim3(32, 32)}, p, p, p, int32_t(4));
    });
    expect_error(Status::InvalidConfiguration, "a grid or block dimension is zero", [&] {
      dev.launch(k, {0, 256}, p, p, p, int32_t(4));
    });
    expect_error(Status::InvalidValue, "argument 3 is 8 bytes, its parameter is 4 bytes", [&] {
      dev.launch(k, {1, 256}, p, p, p, int64_t(4));
    });
    expect_error(Status::InvalidValue, "takes 4 parameters, the launch passes 3", [&] {
      dev.launch(k, {1, 256}, p, p, p);
    });
    expect_error(Status::NotFound,
                 "has no kernel 'vector_sub'; its kernels:\n  vector_add\n  "
                 "vector_add_i32_grid_stride",
                 [&] { m.kernel("vector_sub"); });
    EXPECT_EQ(m.kernel("vector_add_i32_grid_stride").name(), "vector_add_i32_grid_stride");
    // Refused by the GPU: the error surfaces at the next synchronizing call, with its text.
    LaunchConfig big_shared{1, 256, 64 * 1024};
    dev.launch(k, big_shared, p, p, p, int32_t(4));
    expect_error(Status::LaunchOutOfResources, "bytes of shared memory",
                 [&] { dev.synchronize(); });
    dev.synchronize();  // reported once, then cleared
    run_vector_add(dev, m, 2048, 5);
  });
}

TEST(RuntimeIntegrationTest, AFaultingKernelSurfacesLaunchFailedNamingIt) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus&) {
    Module faults = dev.load_module_file(kKernelDir + "/faults.ptx");
    auto buf = dev.alloc<int32_t>(64);
    // Thread 0 stores 4 GiB past the buffer: outside VRAM.
    dev.launch(faults.kernel("fault_oob_store"), {1, 32}, buf, int64_t(1) << 30);
    expect_error(Status::LaunchFailed, "fault_oob_store", [&] { dev.synchronize(); });
    Module m = dev.load_module_file(kKernelDir + "/vector_add.ptx");
    run_vector_add(dev, m, 1000, 7);
  });
}

TEST(RuntimeIntegrationTest, ModuleGlobalsCanBeReadAndWritten) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus&) {
    Module m = dev.load_module_file(kKernelDir + "/conv2d.ptx");
    const auto [address, bytes] = m.global("c_filter");
    EXPECT_EQ(bytes, 100u);
    EXPECT_GE(address, dev.properties().vram_base + dev.properties().vram_bytes);  // firmware heap
    // conv2d.ptx: .const .align 4 .b8 c_filter[100] = {0, 0, 160, 190, 0, 0, 0, 62, ...}
    std::vector<uint8_t> filter(100);
    dev.memcpy_dtoh(filter.data(), address, 100);
    EXPECT_EQ(std::vector<uint8_t>(filter.begin(), filter.begin() + 8),
              (std::vector<uint8_t>{0, 0, 160, 190, 0, 0, 0, 62}));
    const std::vector<uint8_t> ones(100, 1);
    dev.memcpy_htod(address, ones.data(), 100);
    dev.memcpy_dtoh(filter.data(), address, 100);
    EXPECT_EQ(filter, ones);
    expect_error(Status::InvalidValue, "runs past the end of its global",
                 [&] { dev.memcpy_dtoh(filter.data(), address + 4, 100); });
    expect_error(Status::NotFound, "has no global nope; its globals: c_filter",
                 [&] { m.global("nope"); });
  });
}

TEST(RuntimeIntegrationTest, HandlesAndPointersAreChecked) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus&) {
    const uint64_t vram = dev.properties().vram_bytes;
    expect_error(Status::OutOfMemory, "cannot allocate " + std::to_string(vram + 256) + " bytes",
                 [&] { dev.malloc(vram + 256); });
    const DevicePtr p = dev.malloc(1000);
    expect_error(Status::InvalidValue, "points inside the allocation", [&] { dev.free(p + 4); });
    dev.free(p);
    expect_error(Status::InvalidValue, "already freed", [&] { dev.free(p); });
    std::vector<uint8_t> host(16);
    expect_error(Status::InvalidValue, "is not in any allocation",
                 [&] { dev.memcpy_htod(p, host.data(), 16); });

    auto buf = dev.alloc<float>(16);
    DeviceBuffer<float> moved = std::move(buf);
    expect_error(Status::InvalidHandle, "empty handle", [&] { buf.ptr(); });
    moved.reset();
    expect_error(Status::InvalidHandle, "empty handle", [&] { moved.download(); });

    Kernel k;
    {
      Module m = dev.load_module_file(kKernelDir + "/vector_add.ptx");
      k = m.kernel("vector_add");
    }
    expect_error(Status::InvalidHandle, "has been unloaded", [&] {
      dev.launch(k, {1, 32}, DevicePtr(0), DevicePtr(0), DevicePtr(0), 0);
    });
    Stream empty;
    expect_error(Status::InvalidHandle, "stream: empty handle", [&] { empty.synchronize(); });
    expect_error(Status::InvalidValue, "host pointer is null",
                 [&] { dev.memcpy_dtoh(nullptr, dev.alloc<float>(4).ptr(), 16); });
  });
  Device unopened;
  expect_error(Status::NotInitialized, "not opened", [&] { unopened.properties(); });
}

// Two Devices opened on one GPU share its context: one allocator (no address handed out twice),
// and what one writes the other reads.
TEST(RuntimeIntegrationTest, TwoDevicesOnOneGpuShareItsContext) {
  Soc soc;
  soc.run([&](Device& first, host::HostBus& bus) {
    Device second(bus);
    auto a = first.alloc<uint32_t>(1024);
    auto b = second.alloc<uint32_t>(1024);
    EXPECT_NE(a.ptr(), b.ptr());
    EXPECT_TRUE(b.ptr() >= a.ptr() + 4096 || b.ptr() + 4096 <= a.ptr()) << "overlapping";
    std::vector<uint32_t> data(1024);
    for (uint32_t i = 0; i < 1024; ++i) data[i] = i * 7;
    a.upload(data);
    std::vector<uint32_t> back(1024);
    second.memcpy_dtoh(back.data(), a.ptr(), 4096);
    EXPECT_EQ(back, data);
    EXPECT_EQ(second.memory_info().free_bytes, first.memory_info().free_bytes);
    // Other runtime options are refused: they could not both hold.
    RuntimeOptions other;
    other.ring_bytes = 4096;
    expect_error(Status::InvalidValue, "the GPU is open already, with other runtime options",
                 [&] { Device third(bus, other); });
  });
}

// One platform runs host programs one after the other: each opens the GPU afresh, the
// simulation goes on from where the last one paused, and the statistics add up.
TEST(RuntimeIntegrationTest, SeveralHostProgramsRunOnOnePlatformInSequence) {
  gpusoc::testing::fresh_systemc();
  Config config;
  config.load_file(std::string(GPUSOC_CONFIG_DIR) + "/small.json");
  StatGroup stats;
  platform::SocPlatform soc(config, stats);
  auto program = [&](host::HostBus& bus) {
    Device dev(bus);
    Module m = dev.load_module_file(kKernelDir + "/vector_add.ptx");
    run_vector_add(dev, m, 1000, 5);
  };
  const sc_core::sc_time first = soc.run(program);
  const sc_core::sc_time second = soc.run(program);
  EXPECT_GT(second, first);
  EXPECT_GT(sc_core::sc_time_stamp(), first);
  // A second platform in the same process is refused at once, and says what to do instead.
  try {
    StatGroup more;
    platform::SocPlatform again(config, more);
    ADD_FAILURE() << "a second platform was built";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("a process builds one SocPlatform"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("SocPlatform::run"), std::string::npos);
  }
}

}  // namespace
}  // namespace gpusoc::rt
