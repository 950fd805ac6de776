// Host reference for sw/kernels/printf.cu (tests/kernels/printf_test.cpp, the device_calls app):
// each expected line formatted on the host with snprintf from the same format string and the
// same argument values (the format strings here must match printf.cu).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace gpusoc::apps::reference {

template <typename... Args>
std::string printf_format(const char* fmt, Args... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

/// The lines printf_values(count, scale, big) prints: one per thread tid < count in tid order,
/// then thread 0's two extra lines. CUDA does not order the output of different threads, so the
/// device's lines match these as a multiset; one thread's own lines keep program order.
inline std::vector<std::string> printf_expected_lines(int count, float scale, long long big) {
  std::vector<std::string> lines;
  for (int tid = 0; tid < count; ++tid) {
    float f = scale * static_cast<float>(tid);
    lines.push_back(printf_format("tid=%d u=%u f=%f s=%s x=%x ll=%lld\n", tid,
                                  1000u + unsigned(tid), double(f), (tid & 1) ? "odd" : "even",
                                  0xC0FFEEu + unsigned(tid), big * tid - 7));
  }
  if (count > 0) {
    lines.push_back("hello from the device\n");
    lines.push_back(printf_format("[%5d|%-4u|%08.3f|%c|%.2e]\n", -42, 7u, double(3.14159f), 'Z',
                                  6.02214076e23));
  }
  return lines;
}

}  // namespace gpusoc::apps::reference
