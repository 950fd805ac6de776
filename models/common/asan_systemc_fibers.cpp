// asan_systemc_fibers.cpp -- keeps AddressSanitizer's idea of the current stack right while
// SystemC 2.3.4 (Debian's libsystemc, QuickThreads coroutines) switches between SC_THREAD stacks.
//
// For GPUSOC_SANITIZE builds only, linked into every executable that links SystemC (the static
// library holding it is pulled in by -Wl,--undefined=gpusoc_asan_systemc_fibers). Nothing calls
// it: its three extern "C" functions take the place of libsystemc's QuickThreads glue of the same
// names, which libsystemc reaches through its GOT, so the executable's definitions win.
//
// Why: libsystemc 2.3.4 announces coroutine switches to ASan (__sanitizer_start_switch_fiber in
// sc_cor_pkg_qt::yield, __sanitizer_finish_switch_fiber in sc_cor_qt_yieldhelp) with two gaps:
//  1. the main coroutine (the thread's own stack) is announced with bounds [0, 0), so once the
//     scheduler has switched back to it ASan no longer knows where that stack is;
//  2. sc_cor_pkg_qt::abort (a finished thread's coroutine switching to the next one) is not
//     announced at all, so ASan keeps the dead coroutine's bounds while another one runs.
// With wrong bounds, __asan_handle_no_return (run by ASan on every throw, and inserted by GCC
// before every noreturn call, _Unwind_Resume in cleanup code included) cannot unpoison the frames
// an exception unwinds ("WARNING: ASan is ignoring requested __asan_handle_no_return"); their
// stale redzone and out-of-scope poison then gives false stack-buffer-overflow or
// stack-use-after-scope reports, often before the exception even reaches its catch.
// Here every switch ends with ASan told the exact bounds of the stack it lands on:
//  - sc_cor_qt_wrapper (first code on a new coroutine): the coroutine's own stack, read from its
//    sc_cor_qt (m_stack, m_stack_size; checked against where we are). It also clears the shadow
//    of the still unused stack: a deleted simulation's coroutine stacks are unmapped with their
//    suspended frames' poison, which GCC 12's ASan keeps across munmap/mmap.
//  - sc_cor_qt_yieldhelp (end of every announced switch): the thread's own stack when the switch
//    landed there (SystemC announced [0, 0));
//  - sc_cor_qt_aborthelp (end of the unannounced switch out of a finished thread): whichever known
//    stack the switch landed on (a coroutine that has not run yet is set by sc_cor_qt_wrapper,
//    the next code on it).
// Nothing is suppressed: ASan checks every access as before; it only gets correct stack bounds.
//
// Assumes SystemC 2.3.4 with QuickThreads (checked at startup) and one simulating pthread.
// Not covered: ASAN_OPTIONS=detect_stack_use_after_return=1 (libsystemc drops a coroutine's fake
// stack at every switch; GCC 12 leaves it off by default).

#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sysc/kernel/sc_cor.h>
#include <sysc/kernel/sc_ver.h>

#include <dlfcn.h>
#include <pthread.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <typeinfo>

#if !defined(__SANITIZE_ADDRESS__)
#error "asan_systemc_fibers.cpp belongs only in -fsanitize=address builds"
#endif

#define GPUSOC_NO_ASAN __attribute__((no_sanitize("address"), noinline))

namespace {

// SystemC 2.3.4's sc_cor_qt (src/sysc/kernel/sc_cor_qt.h, not installed) is its sc_cor base (a
// vtable pointer only) followed by these members.
struct CorQtFields {
  std::size_t m_stack_size;
  void* m_stack;
  void* m_sp;
  void* m_pkg;
};
static_assert(sizeof(sc_core::sc_cor) == sizeof(void*), "sc_cor is more than a vtable pointer");

struct Range {
  std::uintptr_t lo, hi;
  bool contains(std::uintptr_t p) const { return lo <= p && p < hi; }
};

using QtHelper = void*(void*, void*, void*);
using QtWrapper = void(void*, void*, void*);

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "asan_systemc_fibers: %s\n", what);
  std::abort();
}

template <class F>
F* next_definition(const char* name) {
  void* p = dlsym(RTLD_NEXT, name);
  if (!p) die("libsystemc's QuickThreads glue not found (SystemC built without QuickThreads?)");
  return reinterpret_cast<F*>(p);
}

// libsystemc's own definitions, resolved before sc_main runs.
QtWrapper* const real_wrapper = next_definition<QtWrapper>("sc_cor_qt_wrapper");
QtHelper* const real_yieldhelp = next_definition<QtHelper>("sc_cor_qt_yieldhelp");
QtHelper* const real_aborthelp = next_definition<QtHelper>("sc_cor_qt_aborthelp");
[[maybe_unused]] const bool version_checked = [] {
  if (std::strcmp(sc_core::sc_release(), "2.3.4-Accellera") != 0)
    die("written for SystemC 2.3.4 (sc_cor_qt layout); check it against this version");
  return true;
}();

// Coroutine stacks seen so far, by their upper end. A newer stack replaces overlapping old ones
// (SystemC unmaps a finished thread's stack; the address range may come back for a new one).
std::map<std::uintptr_t, std::uintptr_t>& coroutine_stacks() {
  static std::map<std::uintptr_t, std::uintptr_t> stacks;  // hi -> lo
  return stacks;
}

void remember(Range r) {
  auto& s = coroutine_stacks();
  for (auto it = s.upper_bound(r.lo); it != s.end() && it->second < r.hi;) it = s.erase(it);
  s.emplace(r.hi, r.lo);
}

Range known_coroutine_stack(std::uintptr_t p) {
  auto& s = coroutine_stacks();
  auto it = s.upper_bound(p);
  if (it != s.end() && it->second <= p) return {it->second, it->first};
  return {0, 0};
}

// The pthread's own stack: SystemC's main coroutine.
Range thread_stack() {
  thread_local Range r{0, 0};
  if (r.hi == 0) {
    pthread_attr_t attr;
    void* addr = nullptr;
    std::size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) != 0 ||
        pthread_attr_getstack(&attr, &addr, &size) != 0)
      die("pthread_getattr_np failed");
    pthread_attr_destroy(&attr);
    r.lo = reinterpret_cast<std::uintptr_t>(addr);
    r.hi = r.lo + size;
  }
  return r;
}

// Work it out for the main thread before any switch.
[[maybe_unused]] const Range main_thread_stack = thread_stack();

GPUSOC_NO_ASAN std::uintptr_t stack_pointer() {
  return reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
}

// Tell ASan the current stack is r, without switching: a start/finish pair that keeps the
// current fake stack (detect_stack_use_after_return).
GPUSOC_NO_ASAN void set_current_stack(Range r) {
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
}

}  // namespace

extern "C" {

// First code run on a new coroutine stack (jumped to by QuickThreads' start frame, which
// libsystemc's sc_cor_pkg_qt::create fills from its GOT): (arg, cor, fn); never returns.
__attribute__((visibility("default"))) GPUSOC_NO_ASAN void sc_cor_qt_wrapper(void* arg, void* cor,
                                                                             void* fn) {
  auto* base = static_cast<sc_core::sc_cor*>(cor);
  if (std::strcmp(typeid(*base).name(), "N7sc_core9sc_cor_qtE") != 0)
    die("coroutine is not an sc_cor_qt");
  // Plain loads (no memcpy, which ASan checks) while this stack may still hold stale poison.
  const auto* fields =
      reinterpret_cast<const CorQtFields*>(static_cast<const char*>(cor) + sizeof(sc_core::sc_cor));
  const auto lo = reinterpret_cast<std::uintptr_t>(fields->m_stack);
  const Range r{lo, lo + fields->m_stack_size};
  if (!r.contains(stack_pointer())) die("sc_cor_qt layout mismatch: not running on its stack");
  set_current_stack(r);
  // Nothing lives below this frame yet; the range may hold stale poison of a coroutine that was
  // deleted while suspended (its stack unmapped, and GCC 12's ASan keeps shadow across munmap).
  const std::uintptr_t here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  __asan_unpoison_memory_region(reinterpret_cast<void*>(r.lo), (here & ~std::uintptr_t(7)) - r.lo);
  remember(r);
  real_wrapper(arg, cor, fn);
  __builtin_unreachable();
}

// Runs on the new stack at the end of sc_cor_pkg_qt::yield (an annotated switch).
__attribute__((visibility("default"))) GPUSOC_NO_ASAN void* sc_cor_qt_yieldhelp(void* sp,
                                                                                void* old_cor,
                                                                                void* unused) {
  void* result = real_yieldhelp(sp, old_cor, unused);  // saves old_cor's sp, finishes the switch
  Range t = thread_stack();
  if (t.contains(stack_pointer())) set_current_stack(t);  // SystemC said [0, 0)
  return result;
}

// Runs on the new stack at the end of sc_cor_pkg_qt::abort (a finished thread's coroutine
// switching to the next one), which SystemC does not announce to ASan.
__attribute__((visibility("default"))) GPUSOC_NO_ASAN void* sc_cor_qt_aborthelp(void* sp,
                                                                                void* old_cor,
                                                                                void* unused) {
  const std::uintptr_t here = stack_pointer();
  Range t = thread_stack();
  Range r = t.contains(here) ? t : known_coroutine_stack(here);
  // The old coroutine is gone for good: nullptr drops its fake stack. For a coroutine that has
  // never run, r is empty until sc_cor_qt_wrapper, the next code on that stack, sets it.
  __sanitizer_start_switch_fiber(nullptr, reinterpret_cast<const void*>(r.lo), r.hi - r.lo);
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
  return real_aborthelp(sp, old_cor, unused);
}

// Named by -Wl,--undefined so that executables take this file from its static library.
__attribute__((visibility("default"))) extern const int gpusoc_asan_systemc_fibers = 1;

}  // extern "C"
