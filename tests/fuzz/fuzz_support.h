// What the fuzz targets share: reading structured values from the fuzzer's bytes, and the line
// between an expected error and a finding. A target catches the exceptions its entry point
// documents (the gpusoc::Error hierarchy, PTX load errors) and hands anything else to
// unexpected_exception(); a broken documented invariant goes to finding(). Both abort, which
// libFuzzer reports as a crash (with the input saved) and replay_main as a failed test.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <type_traits>

namespace gpusoc::fuzz {

/// Takes fixed-size little-endian values from the front of the input; zeros once it runs out,
/// so that every input, however short, decodes to something.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool empty() const { return size_ == 0; }
  size_t remaining() const { return size_; }

  template <typename T>
  T take() {
    static_assert(std::is_integral_v<T>, "integers only");
    T value{};
    const size_t n = size_ < sizeof(T) ? size_ : sizeof(T);
    if (n) std::memcpy(&value, data_, n);
    data_ += n;
    size_ -= n;
    return value;
  }

  /// Up to `bytes` of what is left, consumed.
  std::string_view bytes(size_t bytes) {
    const size_t n = size_ < bytes ? size_ : bytes;
    std::string_view out(reinterpret_cast<const char*>(data_), n);
    data_ += n;
    size_ -= n;
    return out;
  }

 private:
  const uint8_t* data_;
  size_t size_;
};

/// Whether the environment sets GPUSOC_FUZZ_VERBOSE: targets then say what each input reached.
bool verbose();

/// An expected error, ignored; printed when the environment sets GPUSOC_FUZZ_VERBOSE (to see
/// what a seed reaches).
void expected_error(const char* target, const std::exception& e);

/// Call from a catch handler: prints which target, the exception's type and message, and
/// aborts.
[[noreturn]] void unexpected_exception(const char* target);

/// A documented property that the code under test broke: prints it and aborts.
[[noreturn]] void finding(const char* target, const std::string& what);

}  // namespace gpusoc::fuzz
