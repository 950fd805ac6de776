// Calls and faults: device functions, recursion and device printf (device_functions.cu,
// printf.cu), and kernels that fault (faults.cu) with the device still working after each.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <vector>

#include "sw/apps/app_util.h"
#include "sw/apps/reference/device_functions.h"
#include "sw/apps/reference/printf.h"

namespace gpusoc::apps::detail {
namespace {

// Device printf goes to the process's standard output on both backends (the SoC's CTA
// dispatcher and the functional device write it there by default). To compare it with the
// host's lines, file descriptor 1 points at a temporary file while the kernel runs.
class StdoutCapture {
 public:
  StdoutCapture() : file_(std::tmpfile()) {
    std::fflush(stdout);
    saved_ = file_ ? dup(1) : -1;
    if (saved_ < 0 || dup2(fileno(file_), 1) < 0) {
      release();
      throw std::runtime_error("device_calls: cannot capture standard output");
    }
  }
  ~StdoutCapture() { release(); }
  /// Restores standard output; returns what was written meanwhile.
  std::string finish() {
    restore();
    std::string text;
    std::rewind(file_);
    for (int c; (c = std::fgetc(file_)) != EOF;) text.push_back(char(c));
    return text;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stdout);
    dup2(saved_, 1);
    close(saved_);
    saved_ = -1;
  }
  void release() {
    restore();
    if (file_) std::fclose(file_);
    file_ = nullptr;
  }
  std::FILE* file_;
  int saved_ = -1;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t begin = 0, end; begin < text.size(); begin = end + 1) {
    end = std::min(text.find('\n', begin), text.size() - 1);
    lines.push_back(text.substr(begin, end - begin + 1));  // newline kept, as printf wrote it
  }
  return lines;
}

constexpr int kPrintingThreads = 4;  // of two blocks of 32: most threads print nothing

// device_calls checked word for word; printf_values's lines, captured, against host snprintf
// as a multiset (CUDA does not order the lines of different threads), then echoed.
AppResult device_calls(AppDevice& dev, uint64_t size) {
  dev.load("device_functions.ptx");
  dev.load("printf.ptx");
  const int n = int(size);
  const std::vector<int> in = reference::device_call_inputs(n, 47);
  const DevicePtr din = dev.upload(in), out_i = dev.malloc(size * 8 * 4),
                  out_d = dev.malloc(size * 8);
  const DevicePtr facts =
      dev.upload(std::vector<unsigned long long>(size * 21, reference::kUntouchedFactorial));
  dev.run("device_calls", {blocks_of(size, 32), 32}, din, n, out_i, out_d, facts);
  const auto ints = dev.download<int>(out_i, size * 8);
  const auto doubles = dev.download<double>(out_d, size);
  const auto fact = dev.download<unsigned long long>(facts, size * 21);
  Tally calls;
  for (int t = 0; t < n; ++t) {
    const auto want = reference::device_call_ints(in, t);
    for (int j = 0; j < 5; ++j) calls.exact(ints[t * 8 + j] == want[j]);
    calls.exact(reference::d2u(doubles[t]) == reference::d2u(reference::device_call_double(in, t)));
    for (int i = 0; i <= 20; ++i) calls.exact(fact[t * 21 + i] == reference::factorial_slot(t, i));
  }

  const float scale = 0.75f;
  const long long big = 123456789012LL;
  StdoutCapture capture;
  dev.run("printf_values", {2, 32}, int32_t(kPrintingThreads), scale, big);
  const std::string printed = capture.finish();
  std::fputs(printed.c_str(), stdout);
  std::vector<std::string> got = lines_of(printed),
                           want = reference::printf_expected_lines(kPrintingThreads, scale, big);
  // Thread 0 printed its line, then "hello", then the field widths: in that order.
  auto at = [&](const std::string& line) { return std::find(got.begin(), got.end(), line); };
  const bool in_order = at(want[0]) < at(want[kPrintingThreads]) &&
                        at(want[kPrintingThreads]) < at(want[kPrintingThreads + 1]);
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  const bool printed_ok = got == want && in_order;
  AppResult r;
  r.verified = calls.ok() && printed_ok;
  r.summary = fmt::format(
      "device_calls {} threads: results of calls, struct passing and recursion {}; "
      "printf_values: {} lines printed, {} host snprintf",
      n, calls.wrong_of(), got.size(), printed_ok ? "the same as" : "DIFFERENT from");
  return r;
}

struct FaultCase {
  const char* kernel;
  std::function<void(AppDevice&)> launch;
};

// Each faulting kernel must be reported (an exception naming the kernel); after each, a vector
// add on the same device must still compute the right answer.
AppResult faults(AppDevice& dev, uint64_t size) {
  dev.load("faults.ptx");
  dev.load("vector_add.ptx");
  const DevicePtr p = dev.malloc(64 * 4), out = dev.malloc(64 * 4);
  const long long far = 1LL << 36;  // ints: 256 GiB past a small allocation, unmapped anywhere
  const std::vector<FaultCase> cases = {
      {"fault_oob_store",
       [&](AppDevice& d) {
         d.run("fault_oob_store", {1, 32}, p, far);
       }},
      {"fault_oob_load",
       [&](AppDevice& d) {
         d.run("fault_oob_load", {1, 32}, p, far, out);
       }},
      {"fault_trap",
       [&](AppDevice& d) {
         d.run("fault_trap", {2, 32}, p);
       }},
      {"fault_misaligned",
       [&](AppDevice& d) {
         d.run("fault_misaligned", {1, 1}, p);
       }},
      {"fault_stack_overflow",
       [&](AppDevice& d) {
         d.run("fault_stack_overflow", {1, 1}, int32_t(100000), out);
       }},
  };
  const std::vector<float> a = reference::random_floats(size, -1, 1, 53),
                           b = reference::random_floats(size, -1, 1, 54), zeros(size, 0.0f);
  const DevicePtr da = dev.upload(a), db = dev.upload(b);
  int reported = 0;
  Tally after;
  AppResult r;
  for (const FaultCase& c : cases) {
    std::string message = "no error reported";
    try {
      c.launch(dev);
    } catch (const std::exception& e) {
      message = e.what();
      reported += message.find(c.kernel) != std::string::npos;
    }
    // The device's own words (the runtime wraps them in the launch and channel it failed on).
    const size_t own = message.rfind("kernel '");
    r.notes.push_back(
        fmt::format("{}: {}", c.kernel, own == std::string::npos ? message : message.substr(own)));
    const DevicePtr dc = dev.upload(zeros);
    dev.run("vector_add", {blocks_of(size, 256), 256}, da, db, dc, int32_t(size));
    const auto c_out = dev.download<float>(dc, size);
    for (uint64_t i = 0; i < size; ++i) after.exact(c_out[i] == a[i] + b[i]);
  }
  r.verified = reported == int(cases.size()) && after.ok();
  r.summary = fmt::format(
      "faults: {} of {} faulting kernels reported naming the kernel; vector_add n={} after each "
      "fault: elements {}",
      reported, cases.size(), size, after.wrong_of());
  return r;
}

}  // namespace

std::vector<App> call_apps() {
  return {
      {"device_calls",
       "device function calls, recursion, and device printf checked against snprintf", 1024,
       "threads", device_calls},
      {"faults", "faulting kernels, each reported by name and followed by a good vector add",
       1 << 14, "elements of the vector add", faults},
  };
}

}  // namespace gpusoc::apps::detail
