// AddressSanitizer and SystemC's coroutines (QuickThreads): exceptions thrown and caught on
// SC_THREAD stacks, on the main stack during and after sc_start, and coroutine stacks reused after
// a simulation context is deleted. Build with -fsanitize=address,undefined and
// models/common/asan_systemc_fibers.cpp linked in; run with one scenario name. Every scenario but
// the "bug_*" ones must exit 0 without an ASan report; each "bug_*" scenario holds a genuine
// stack-use-after-scope that ASan must still report. Without the shim, all but "report" fail:
// false stack-buffer-overflow / -underflow / stack-use-after-scope reports, ASan CHECK failures,
// or ASan's "ignoring requested __asan_handle_no_return" warning (tests/sanitize/CMakeLists.txt).
#include <systemc>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>

namespace {

struct Scoped {  // a local with a destructor: unwinding runs cleanup code for it
  char buf[64];
  std::string s;
  explicit Scoped(const char* n) : s(n) { std::memset(buf, 1, sizeof buf); }
};

// Throws from n + 1 frames down; every frame has redzones, an out-of-scope local and a cleanup.
__attribute__((noinline)) void deep(int n) {
  Scoped sc("a frame with a string long enough to be heap-allocated");
  char arr[128];
  std::snprintf(arr, sizeof arr, "level %d", n);
  if (n == 0) throw std::runtime_error(std::string("error at ") + arr);
  {
    char inner[32];
    std::memcpy(inner, arr, sizeof inner);
    deep(n - 1);
    asm volatile("" ::"r"(inner) : "memory");
  }
}

// Same without destructors: unwinding runs no code in these frames, so stale poison, if any,
// shows up only after the catch.
__attribute__((noinline)) void deep_plain(int n) {
  char arr[128];
  std::snprintf(arr, sizeof arr, "level %d", n);
  {
    char scoped[48];
    std::memcpy(scoped, arr, sizeof scoped);
    asm volatile("" ::"r"(scoped) : "memory");
  }
  if (n == 0) throw std::runtime_error("plain error");
  deep_plain(n - 1);
  asm volatile("" ::"r"(arr) : "memory");
}

// Uninstrumented libstdc++ code formats into its own stack buffers through vsnprintf, which ASan
// intercepts and checks: stale poison below the caller shows up here.
__attribute__((noinline)) std::string format_number(double d) {
  std::ostringstream os;
  os << d << ' ' << 12345678 << ' ' << 1.0 / 3.0;
  return os.str();
}
__attribute__((noinline)) std::size_t format_at_depth(int n) {
  volatile char pad[40];
  pad[0] = 0;
  if (n == 0) return format_number(3.25).size();
  return format_at_depth(n - 1) + pad[0];
}
void use_dead_stack() {
  std::size_t total = 0;
  for (int depth = 0; depth < 24; ++depth) total += format_at_depth(depth);
  if (total == 0) std::abort();
}

void throw_and_catch(const char* where) {
  try {
    deep(6);
  } catch (const std::exception& e) {
    std::printf("%s: caught \"%s\"\n", where, e.what());
  }
  try {
    deep_plain(6);
  } catch (const std::exception& e) {
    std::printf("%s: caught \"%s\"\n", where, e.what());
  }
  use_dead_stack();
}

// Genuine bug: reads a local after its scope ended.
__attribute__((noinline)) int use_after_scope() {
  volatile char* p;
  {
    char x[16];
    std::memset(x, 7, sizeof x);
    p = x;
  }
  return p[3];
}

std::string scenario;

// Two threads wake together; the first to run ends, so SystemC switches from its finished
// coroutine straight to the other (sc_cor_pkg_qt::abort), which then throws. Both orders, as which
// stack lies higher decides whether stale bounds happen to cover the other stack.
SC_MODULE(AbortIntoSuspended){SC_CTOR(AbortIntoSuspended){SC_THREAD(ender1);
SC_THREAD(thrower1);
SC_THREAD(thrower2);
SC_THREAD(ender2);
}  // namespace
void ender1() {
  wait(1, sc_core::SC_NS);
}
void thrower1() {
  wait(1, sc_core::SC_NS);
  throw_and_catch("thrower1");
}
void ender2() {
  wait(2, sc_core::SC_NS);
}
void thrower2() {
  wait(2, sc_core::SC_NS);
  throw_and_catch("thrower2");
  if (scenario == "bug_coroutine") std::printf("%d\n", use_after_scope());
}
}
;

// A thread ends at once; the next thread starts fresh from the aborted switch and throws.
SC_MODULE(AbortIntoFresh){SC_CTOR(AbortIntoFresh){SC_THREAD(ender);
SC_THREAD(thrower1);
SC_THREAD(thrower2);
SC_THREAD(ender2);
}
void ender() {}
void thrower1() {
  throw_and_catch("fresh thrower1");
}
void thrower2() {
  throw_and_catch("fresh thrower2");
}
void ender2() {}
}
;

// Threads that wait and end: afterwards sc_main runs on the main stack again.
SC_MODULE(Idle){SC_CTOR(Idle){SC_THREAD(t1);
SC_THREAD(t2);
}
void t1() {
  wait(1, sc_core::SC_NS);
}
void t2() {
  wait(2, sc_core::SC_NS);
}
}
;

// SC_METHODs run on the main stack inside sc_start.
SC_MODULE(MethodThrows) {
  SC_CTOR(MethodThrows) {
    SC_THREAD(tick);
    SC_METHOD(method);
    sensitive << ev;
    dont_initialize();
  }
  sc_core::sc_event ev;
  void tick() {
    wait(1, sc_core::SC_NS);
    ev.notify();
    wait(1, sc_core::SC_NS);
  }
  void method() {
    throw_and_catch("method");
  }
};

// An error escapes an SC_THREAD: SystemC catches it on the coroutine, ends the thread and
// rethrows it from sc_start on the main stack (gpusoc's error path).
SC_MODULE(EscapingError){SC_CTOR(EscapingError){SC_THREAD(thrower);
SC_THREAD(other);
}
void thrower() {
  wait(1, sc_core::SC_NS);
  deep(6);
}
void other() {
  wait(5, sc_core::SC_NS);
}
}
;

// A thread ends its simulation suspended deep in instrumented frames; the simulation context
// is deleted (its coroutine stacks unmapped) and the next simulation's stacks reuse the range.
__attribute__((noinline)) void deep_wait(int n) {
  char big[2048];
  std::memset(big, n, sizeof big);
  {
    char scoped[1024];
    std::memset(scoped, 1, sizeof scoped);
    asm volatile("" ::"r"(scoped) : "memory");
  }
  if (n == 0) {
    sc_core::wait(1, sc_core::SC_SEC);  // still waiting when the simulation is deleted
    return;
  }
  deep_wait(n - 1);
  asm volatile("" ::"r"(big) : "memory");
}
SC_MODULE(SuspendedDeep){SC_CTOR(SuspendedDeep){SC_THREAD(thread);
}
void thread() {
  deep_wait(20);
}
}
;
SC_MODULE(OnReusedStack){SC_CTOR(OnReusedStack){SC_THREAD(thread);
}
void thread() {
  use_dead_stack();
  if (scenario == "bug_reused_stack") std::printf("%d\n", use_after_scope());
}
}
;

// SC_REPORT_ERROR throws an sc_report from inside libsystemc; caught in the thread.
SC_MODULE(ReportError){SC_CTOR(ReportError){SC_THREAD(thread);
}
void thread() {
  wait(1, sc_core::SC_NS);
  try {
    Scoped sc("report");
    SC_REPORT_ERROR("fiber_test", "an sc_report error");
  } catch (const sc_core::sc_report& r) {
    std::printf("report: caught \"%s\"\n", r.get_msg());
  }
  use_dead_stack();
}
}
;

}  // namespace

int sc_main(int argc, char* argv[]) {
  if (argc != 2) {
    std::fprintf(stderr,
                 "usage: %s abort_suspended|abort_fresh|main_after_start|method|escaping|report|"
                 "stack_reuse|bug_coroutine|bug_main|bug_reused_stack\n",
                 argv[0]);
    return 2;
  }
  scenario = argv[1];
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW);
  if (scenario == "abort_suspended" || scenario == "bug_coroutine") {
    AbortIntoSuspended top("top");
    sc_core::sc_start();
  } else if (scenario == "abort_fresh") {
    AbortIntoFresh top("top");
    sc_core::sc_start();
  } else if (scenario == "main_after_start" || scenario == "bug_main") {
    Idle top("top");
    sc_core::sc_start();
    throw_and_catch("main");
    if (scenario == "bug_main") std::printf("%d\n", use_after_scope());
  } else if (scenario == "method") {
    MethodThrows top("top");
    sc_core::sc_start();
  } else if (scenario == "escaping") {
    EscapingError top("top");
    try {
      sc_core::sc_start();
      std::printf("no error?\n");
      return 1;
    } catch (const std::exception& e) {
      std::printf("sc_start threw \"%s\"\n", e.what());
    }
    use_dead_stack();
  } else if (scenario == "report") {
    ReportError top("top");
    sc_core::sc_start();
  } else if (scenario == "stack_reuse" || scenario == "bug_reused_stack") {
    auto* first = new SuspendedDeep("first");
    sc_core::sc_start(10, sc_core::SC_MS);
    delete first;
    delete sc_core::sc_curr_simcontext;
    sc_core::sc_curr_simcontext = new sc_core::sc_simcontext();
    sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
    OnReusedStack second("second");
    sc_core::sc_start();
    std::printf("%s: done\n", argv[1]);
    std::fflush(stdout);
    std::_Exit(0);  // libsystemc's static events would reach into the deleted first context
  } else {
    std::fprintf(stderr, "unknown scenario %s\n", argv[1]);
    return 2;
  }
  std::printf("%s: done\n", argv[1]);
  return 0;
}
