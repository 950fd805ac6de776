// Device printf: nvcc lowers printf to vprintf(format, argument buffer), the arguments packed
// each at its own alignment (float promoted to double). Formatting happens here on the host.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "models/ptx/address_space.h"
#include "models/ptx/warp.h"

namespace gpusoc::ptx {
namespace {

constexpr size_t kMaxDeviceString = 1 << 16;

struct Conversion {
  std::string spec;  // the whole %... text, for snprintf
  char conv = 0;
  unsigned arg_size = 0;  // bytes the argument takes in the buffer
};

bool is_float_conversion(char c) { return c != 0 && std::strchr("fFeEgGaA", c) != nullptr; }

// Parses one conversion starting at fmt[i] == '%'; returns false at a malformed one.
bool parse_conversion(const std::string& fmt, size_t& i, Conversion& c) {
  const size_t start = i++;
  while (i < fmt.size() && std::strchr("-+ #0", fmt[i])) ++i;
  while (i < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[i]))) ++i;
  if (i < fmt.size() && fmt[i] == '.') {
    ++i;
    while (i < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[i]))) ++i;
  }
  bool wide = false;
  const size_t length_start = i;
  while (i < fmt.size() && std::strchr("hlLzjt", fmt[i])) {
    if (std::strchr("lLzjt", fmt[i])) wide = true;
    ++i;
  }
  if (i >= fmt.size()) return false;
  c.conv = fmt[i++];
  // Rebuild the spec with a host length modifier that matches how the value is passed here.
  std::string head = fmt.substr(start, length_start - start);
  if (is_float_conversion(c.conv)) {  // float arguments arrive promoted to double
    c.arg_size = 8;
    c.spec = head + c.conv;
    return true;
  }
  switch (c.conv) {
    case 'd':
    case 'i':
    case 'u':
    case 'x':
    case 'X':
    case 'o':
    case 'c':
      c.arg_size = wide ? 8 : 4;
      c.spec = head + (wide && c.conv != 'c' ? "ll" : "") + c.conv;
      return true;
    case 's':
    case 'p':
      c.arg_size = 8;
      c.spec = head + c.conv;
      return true;
    default:
      return false;
  }
}

template <typename... T>
std::string host_format(const std::string& spec, T... v) {
  char buf[512];
  const int n = std::snprintf(buf, sizeof(buf), spec.c_str(), v...);
  return n < 0 ? std::string() : std::string(buf, std::min<size_t>(size_t(n), sizeof(buf) - 1));
}

}  // namespace

std::string Warp::read_device_string(uint64_t addr, unsigned lane) {
  std::string s;
  if (addr == 0) return "(null)";
  const Inst* here = &fn_->code[simt_.back().pc < fn_->code.size() ? simt_.back().pc : 0];
  for (size_t i = 0; i < kMaxDeviceString; ++i) {
    const char c = char(*resolve(*here, StateSpace::None, addr + i, 1, lane, false));
    if (c == 0) return s;
    s.push_back(c);
  }
  return s;
}

void Warp::device_printf(const Inst& in, LaneMask exec) {
  const CallSite& site = fn_->call_sites[in.target];
  if (site.arg_offsets.size() != 2) fault(in, 0, "vprintf takes a format and an argument buffer");
  for (LaneMask m = exec; m; m &= m - 1) {
    const unsigned lane = unsigned(__builtin_ctz(m));
    uint64_t fmt_addr = 0, args = 0;
    std::memcpy(&fmt_addr, local(lane) + frame_base_ + site.arg_offsets[0], 8);
    std::memcpy(&args, local(lane) + frame_base_ + site.arg_offsets[1], 8);
    const std::string format = read_device_string(fmt_addr, lane);
    std::string out;
    uint64_t offset = 0;
    int32_t consumed = 0;
    for (size_t i = 0; i < format.size();) {
      if (format[i] != '%') {
        out.push_back(format[i++]);
        continue;
      }
      if (i + 1 < format.size() && format[i + 1] == '%') {
        out.push_back('%');
        i += 2;
        continue;
      }
      Conversion c;
      const size_t at = i;
      if (!parse_conversion(format, i, c)) {
        out += format.substr(at);
        break;
      }
      offset = (offset + c.arg_size - 1) / c.arg_size * c.arg_size;
      uint64_t bits = 0;
      std::memcpy(&bits, resolve(in, StateSpace::None, args + offset, c.arg_size, lane, false),
                  c.arg_size);
      offset += c.arg_size;
      ++consumed;
      if (is_float_conversion(c.conv)) {
        double d;
        std::memcpy(&d, &bits, 8);
        out += host_format(c.spec, d);
      } else if (c.conv == 's') {
        out += host_format(c.spec, read_device_string(bits, lane).c_str());
      } else if (c.conv == 'p') {
        out += host_format(c.spec, reinterpret_cast<void*>(bits));
      } else if (c.arg_size == 8) {
        out += host_format(c.spec, static_cast<long long>(bits));
      } else {
        out += host_format(c.spec, static_cast<int>(uint32_t(bits)));
      }
    }
    if (launch_->printf_sink) launch_->printf_sink(out);
    if (!site.ret_offsets.empty()) {
      std::memcpy(local(lane) + frame_base_ + site.ret_offsets[0], &consumed, 4);
    }
  }
}

}  // namespace gpusoc::ptx
