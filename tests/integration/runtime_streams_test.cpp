// The runtime end to end, continued: streams, events and their timestamps, queued work on a
// small ring, copies and fills (see runtime_test.cpp).
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/integration/soc_fixture.h"

namespace gpusoc::rt {
namespace {

using namespace testing;

TEST(RuntimeIntegrationTest, EventsBracketTheKernelsOwnStatistics) {
  Soc soc;
  const double launch_ns = soc.param<double>("gigathread.launch_ns");
  const double packet_ns = soc.param<double>("gigathread.packet_ns");
  const double link_ns = soc.param<double>("pcie.latency_ns");
  soc.run([&](Device& dev, host::HostBus&) {
    Module m = dev.load_module_file(kKernelDir + "/vector_add.ptx");
    const size_t n = 8192;
    auto a = dev.alloc<float>(n), c = dev.alloc<float>(n);
    dev.memset_d32(a.ptr(), 0x3F800000u, n);  // 1.0f
    LaunchStats r;
    Event start = dev.create_event(), end = dev.create_event();
    Stream& s = dev.default_stream();
    EXPECT_TRUE(end.query());  // never recorded: nothing to wait for, as cudaEventQuery
    s.record(start);
    s.launch(m.kernel("vector_add"), {blocks_for(n, 256), 256, 0, &r}, a, a, c, int32_t(n));
    s.record(end);
    end.synchronize();
    EXPECT_TRUE(start.query());
    EXPECT_TRUE(end.query());
    // Filled once the stream was synchronized (through the event).
    EXPECT_EQ(r.ctas, blocks_for(n, 256));
    EXPECT_EQ(r.warps, r.ctas * 256 / 32);
    EXPECT_GT(r.warp_instructions, 0u);
    EXPECT_GT(r.achieved_occupancy(), 0.0);
    EXPECT_LE(r.achieved_occupancy(), 1.0);
    // The kernel ran between the two events...
    EXPECT_LE(double(start.timestamp_ps()) / 1000, r.start_ns);
    EXPECT_LT(r.start_ns, r.end_ns);
    EXPECT_LE(r.end_ns, double(end.timestamp_ps()) / 1000);
    // ...and the events add only the launch's fixed costs: the launch time, a few packets, and
    // PCIe round trips for the descriptor and the parameters.
    const double kernel_ms = r.kernel_ns() / 1e6;
    const double overhead_ns = (Event::elapsed_ms(start, end) - kernel_ms) * 1e6;
    EXPECT_GT(overhead_ns, launch_ns);
    EXPECT_LT(overhead_ns, launch_ns + 8 * packet_ns + 8 * 2 * link_ns + 1000);
    expect_error(Status::InvalidHandle, "never recorded",
                 [&] { dev.create_event().timestamp_ps(); });
  });
}

TEST(RuntimeIntegrationTest, TwoStreamsOverlapACopyAndAKernel) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus&) {
    Module m = dev.load_module_file(kKernelDir + "/vector_add.ptx");
    const size_t copy_bytes = 8 << 20, n = 1 << 16;
    auto host = dev.alloc_host<uint8_t>(copy_bytes);
    std::fill(host.begin(), host.end(), uint8_t(0x5A));
    auto dst = dev.alloc<uint8_t>(copy_bytes);
    auto a = dev.alloc<float>(n), c = dev.alloc<float>(n);
    dev.memset_d32(a.ptr(), 0x40000000u, n);  // 2.0f
    Stream copies = dev.create_stream(), kernels = dev.create_stream();
    EXPECT_NE(copies.channel(), kernels.channel());
    Event c0 = dev.create_event(), c1 = dev.create_event();
    Event k0 = dev.create_event(), k1 = dev.create_event();
    copies.record(c0);
    copies.memcpy_htod(dst.ptr(), host.data(), copy_bytes);
    copies.record(c1);
    kernels.record(k0);
    kernels.launch(m.kernel("vector_add"), {blocks_for(n, 256), 256}, a, a, c, int32_t(n));
    kernels.record(k1);
    copies.synchronize();
    kernels.synchronize();
    const uint64_t copy_start = c0.timestamp_ps(), copy_end = c1.timestamp_ps();
    const uint64_t kernel_start = k0.timestamp_ps(), kernel_end = k1.timestamp_ps();
    EXPECT_LT(std::max(copy_start, kernel_start), std::min(copy_end, kernel_end))
        << "copy [" << copy_start << ", " << copy_end << "] kernel [" << kernel_start << ", "
        << kernel_end << "] ps";
    // Together they took less than one after the other.
    const uint64_t span = std::max(copy_end, kernel_end) - std::min(copy_start, kernel_start);
    EXPECT_LT(span, (copy_end - copy_start) + (kernel_end - kernel_start));
    const std::vector<uint8_t> back = dst.download();
    EXPECT_EQ(std::count(back.begin(), back.end(), uint8_t(0x5A)), ptrdiff_t(copy_bytes));
    const std::vector<float> sums = c.download();
    EXPECT_EQ(std::count(sums.begin(), sums.end(), 4.0f), ptrdiff_t(n));
  });
}

TEST(RuntimeIntegrationTest, AStreamWaitsForAnotherStreamsEvent) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus&) {
    Module m = dev.load_module_file(kKernelDir + "/vector_add.ptx");
    const size_t n = 1 << 15;
    auto a = dev.alloc<float>(n), c = dev.alloc<float>(n);
    dev.memset_d32(a.ptr(), 0x3FC00000u, n);  // 1.5f
    dev.memset_d32(c.ptr(), 0xFFFFFFFFu, n);  // NaN until the kernel writes 3.0f
    Stream producer = dev.create_stream(), consumer = dev.create_stream();
    Event done = dev.create_event();
    auto result = dev.alloc_host<float>(n);
    producer.launch(m.kernel("vector_add"), {blocks_for(n, 256), 256}, a, a, c, int32_t(n));
    producer.record(done);
    consumer.wait(done);
    consumer.memcpy_dtoh(result.data(), c.ptr(), n * sizeof(float));
    EXPECT_FALSE(consumer.query());  // the copy waits for the kernel on the GPU, not here
    consumer.synchronize();
    EXPECT_EQ(std::count(result.begin(), result.end(), 3.0f), ptrdiff_t(n));
  });
}

// A ring of 8 packets wraps many times and fills up: operations queue behind the GPU's GET, and
// every launch's descriptor and parameters stay intact until the GPU has read them.
TEST(RuntimeIntegrationTest, ManyQueuedOperationsWrapASmallRing) {
  Soc soc;
  RuntimeOptions options;
  options.ring_bytes = 512;
  soc.run(
      [&](Device& dev, host::HostBus&) {
        Module m = dev.load_module_file(kKernelDir + "/vector_add.ptx");
        const size_t n = 1000;
        const int launches = 20, fills = 40;
        auto a = dev.alloc<float>(n), c = dev.alloc<float>(n);
        auto words = dev.alloc<uint32_t>(fills);
        Stream s = dev.create_stream();
        s.memset_d32(a.ptr(), 0x3F800000u, n);  // 1.0f
        s.memset_d32(c.ptr(), 0, n);
        for (int i = 0; i < launches; ++i) {  // c += a, in order
          s.launch(m.kernel("vector_add"), {blocks_for(n, 256), 256}, a, c, c, int32_t(n));
        }
        for (int i = 0; i < fills; ++i) s.memset_d32(words.ptr() + 4 * i, uint32_t(i * 3), 1);
        s.synchronize();
        const std::vector<float> sums = c.download();
        EXPECT_EQ(std::count(sums.begin(), sums.end(), float(launches)), ptrdiff_t(n));
        const std::vector<uint32_t> w = words.download();
        for (int i = 0; i < fills; ++i) EXPECT_EQ(w[i], uint32_t(i * 3)) << i;
      },
      options);
}

// Staging overlaps the CPU's memcpy of one chunk with the copy engine's DMA of the other, so a
// pageable copy takes the pinned copy's time plus one chunk of CPU copying and a few
// microseconds per chunk for its fence and interrupt.
TEST(RuntimeIntegrationTest, PageableCopiesPipelineAtTheDmaRate) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus& bus) {
    const RuntimeOptions options;
    const size_t bytes = 16 << 20, chunks = bytes / options.staging_chunk_bytes;
    const sc_core::sc_time chunk_cpu(
        double(options.staging_chunk_bytes) / options.host_copy_gbytes_per_s, sc_core::SC_NS);
    const sc_core::sc_time per_chunk(5, sc_core::SC_US);
    std::vector<uint8_t> pageable(bytes, 7);
    auto pinned = dev.alloc_host<uint8_t>(bytes);
    auto d = dev.alloc<uint8_t>(bytes);
    const auto timed = [&](const std::function<void()>& copy) {
      const sc_core::sc_time start = bus.now();
      copy();
      return bus.now() - start;
    };
    const sc_core::sc_time h2d_pinned =
        timed([&] { dev.memcpy_htod(d.ptr(), pinned.data(), bytes); });
    const sc_core::sc_time h2d_pageable =
        timed([&] { dev.memcpy_htod(d.ptr(), pageable.data(), bytes); });
    const sc_core::sc_time d2h_pinned =
        timed([&] { dev.memcpy_dtoh(pinned.data(), d.ptr(), bytes); });
    const sc_core::sc_time d2h_pageable =
        timed([&] { dev.memcpy_dtoh(pageable.data(), d.ptr(), bytes); });
    EXPECT_LT(h2d_pageable, h2d_pinned + chunk_cpu + per_chunk * double(chunks));
    EXPECT_LT(d2h_pageable, d2h_pinned + chunk_cpu + per_chunk * double(chunks));
    // And neither is faster than the DMA alone.
    EXPECT_GT(h2d_pageable, h2d_pinned);
    EXPECT_GT(d2h_pageable, d2h_pinned);
    EXPECT_EQ(std::count(pinned.begin(), pinned.end(), uint8_t(7)), ptrdiff_t(bytes));
  });
}

TEST(RuntimeIntegrationTest, MemsetAndDeviceToDeviceCopies) {
  Soc soc;
  soc.run([&](Device& dev, host::HostBus&) {
    const size_t n = 4096;
    auto buf = dev.alloc<uint32_t>(n);
    const DevicePtr p = buf.ptr();
    dev.memset_d32(p, 0xDEADBEEFu, n);
    dev.memset_d16(p + 1024, 0x1234, 8);      // bytes 1024..1039
    dev.memset_d8(p + 2049, 0x7F, 3);         // bytes 2049..2051
    dev.memcpy_dtod(p + 8192, p + 1024, 64);  // words 2048.. from words 256..
    std::vector<uint32_t> expected(n, 0xDEADBEEFu);
    for (size_t w = 256; w < 260; ++w) expected[w] = 0x12341234u;
    expected[512] = 0x7F7F7FEFu;  // little endian: byte 2048 keeps 0xEF
    for (size_t w = 0; w < 16; ++w) expected[2048 + w] = expected[256 + w];
    EXPECT_EQ(buf.download(), expected);

    auto other = dev.alloc<uint32_t>(n);
    Stream s = dev.create_stream();
    s.memcpy_dtod(other.ptr(), p, n * 4);
    s.synchronize();
    EXPECT_EQ(other.download(), expected);
    // A stream copy from pageable memory has finished reading it when it returns.
    std::vector<uint32_t> pageable(n, 0x600DF00Du);
    s.memcpy_htod(other.ptr(), pageable.data(), n * 4);
    std::fill(pageable.begin(), pageable.end(), 0u);
    EXPECT_EQ(other.download(), std::vector<uint32_t>(n, 0x600DF00Du));

    // Pageable round trip over several staging chunks (the last one partial).
    const size_t big = (7 << 20) / 2 + 12;
    std::vector<uint8_t> pattern(big);
    for (size_t i = 0; i < big; ++i) pattern[i] = uint8_t(i * 31 + (i >> 12));
    auto large = dev.alloc<uint8_t>(big);
    large.upload(pattern);
    EXPECT_EQ(large.download(), pattern);

    expect_error(Status::InvalidValue, "runs past the end of its allocation",
                 [&] { dev.memcpy_dtod(p + 8, other.ptr(), n * 4); });
    expect_error(Status::InvalidValue, "is not 4-byte aligned",
                 [&] { dev.memset_d32(p + 2, 0, 4); });
    const DevicePtr top = dev.properties().vram_base + dev.properties().vram_bytes - 256;
    expect_error(Status::InvalidValue, "is not in any allocation",
                 [&] { dev.memset_d8(top, 0, 1); });
  });
}

}  // namespace
}  // namespace gpusoc::rt
