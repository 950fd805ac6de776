#include "tests/fuzz/fuzz_support.h"

#include <cxxabi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <typeinfo>

namespace gpusoc::fuzz {
namespace {

std::string demangle(const char* name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name, nullptr, nullptr, &status),
                                              std::free);
  return status == 0 && text ? text.get() : name;
}

}  // namespace

bool verbose() {
  static const bool on = std::getenv("GPUSOC_FUZZ_VERBOSE") != nullptr;
  return on;
}

void expected_error(const char* target, const std::exception& e) {
  if (verbose()) std::fprintf(stderr, "%s: expected error: %s\n", target, e.what());
}

void unexpected_exception(const char* target) {
  std::string type = "an exception not derived from std::exception", what;
  try {
    throw;
  } catch (const std::exception& e) {
    type = demangle(typeid(e).name());
    what = e.what();
  } catch (...) {
  }
  std::fprintf(stderr, "==gpusoc-fuzz== %s: unexpected exception %s: %s\n", target, type.c_str(),
               what.c_str());
  std::fflush(stderr);
  std::abort();
}

void finding(const char* target, const std::string& what) {
  std::fprintf(stderr, "==gpusoc-fuzz== %s: %s\n", target, what.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace gpusoc::fuzz

// libsystemc's own main() calls sc_main; the fuzz and replay programs have their own main and
// never call it, but the symbol must exist wherever SystemC is linked.
extern "C" int sc_main(int, char**) {
  return 0;
}
