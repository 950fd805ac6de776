// `gpusoc launch MODULE.ptx KERNEL [ARG...]`: runs one kernel of any PTX module, without writing
// C++, on the SoC under the configuration (or on the bare functional core with --functional).
// Arguments, in the kernel's parameter order:
//   i8:V u8:V i16:V u16:V i32:V u32:V i64:V u64:V f32:V f64:V   a scalar
//   in:FILE            a device buffer holding the file's bytes
//   zero:BYTES         a zeroed device buffer
//   rand:BYTES:SEED    a device buffer of seeded random bytes (std::mt19937_64)
//   tex:FORMAT:EXTENT:SOURCE[:MODE,...], surf:FORMAT:EXTENT:SOURCE
//                      a texture or surface object over a new array (launch_texture_args.h)
// and, anywhere among them, out:INDEX=FILE: after the launch, write argument INDEX's buffer (or
// array, packed) to FILE. Buffers pass their device address (a 64-bit parameter). The launch prints
// its simulated time and instructions; bad arguments name the argument and what the kernel expects.
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>

#include <fmt/format.h>

#include "models/common/error.h"
#include "models/common/kernel_names.h"
#include "models/common/progress.h"
#include "models/common/stats_report.h"
#include "models/common/text_file.h"
#include "platform/command.h"
#include "platform/gpu_soc.h"
#include "platform/launch_options.h"
#include "platform/launch_texture_args.h"
#include "platform/mem_trace_option.h"
#include "platform/run_summary.h"
#include "platform/soc_platform.h"
#include "platform/timeline_option.h"
#include "sw/apps/functional_app_device.h"
#include "sw/apps/soc_app_device.h"

namespace gpusoc::platform {
namespace {

constexpr uint64_t kMaxBufferBytes = uint64_t(1) << 36;  // 64 GiB: beyond any configuration

struct Argument {
  std::string text;             // as given, for messages
  std::vector<uint8_t> scalar;  // a scalar's bytes; empty for a buffer
  std::vector<uint8_t> buffer;  // a buffer's initial contents
  bool is_buffer = false;
  std::optional<TextureArgument> object;  // a texture or surface over an array
  std::string output;                     // a buffer's (or object's array's) output file, or ""
};

[[noreturn]] void bad(size_t index, const std::string& text, const std::string& why) {
  throw UsageError(fmt::format("argument {} '{}': {}", index, text, why));
}

template <typename T>
std::vector<uint8_t> bytes_of(T v) {
  std::vector<uint8_t> b(sizeof v);
  std::memcpy(b.data(), &v, sizeof v);
  return b;
}

// A scalar of `type` from `value`, or nothing when the type is not a scalar type.
std::optional<std::vector<uint8_t>> scalar(size_t index, const std::string& text,
                                           const std::string& type, const std::string& value) {
  auto whole = [&](auto parse) {
    size_t used = 0;
    try {
      const auto v = parse(value, &used);
      if (used == value.size() && !value.empty()) return v;
    } catch (const std::exception&) {
    }
    bad(index, text, "'" + value + "' is not a " + type + " value");
  };
  auto integer = [&](auto tag, bool is_signed) {
    using T = decltype(tag);
    if (is_signed) {
      const long long v =
          whole([](const std::string& s, size_t* n) { return std::stoll(s, n, 0); });
      if (v < (long long)std::numeric_limits<T>::min() ||
          v > (long long)std::numeric_limits<T>::max())
        bad(index, text, fmt::format("{} is out of the range of {}", v, type));
      return bytes_of(T(v));
    }
    if (value.find('-') != std::string::npos) bad(index, text, type + " cannot be negative");
    const unsigned long long v =
        whole([](const std::string& s, size_t* n) { return std::stoull(s, n, 0); });
    if (v > std::numeric_limits<T>::max())
      bad(index, text, fmt::format("{} is out of the range of {}", v, type));
    return bytes_of(T(v));
  };
  if (type == "i8") return integer(int8_t{}, true);
  if (type == "u8") return integer(uint8_t{}, false);
  if (type == "i16") return integer(int16_t{}, true);
  if (type == "u16") return integer(uint16_t{}, false);
  if (type == "i32") return integer(int32_t{}, true);
  if (type == "u32") return integer(uint32_t{}, false);
  if (type == "i64") return integer(int64_t{}, true);
  if (type == "u64") return integer(uint64_t{}, false);
  if (type == "f32")
    return bytes_of(whole([](const std::string& s, size_t* n) { return std::stof(s, n); }));
  if (type == "f64")
    return bytes_of(whole([](const std::string& s, size_t* n) { return std::stod(s, n); }));
  return std::nullopt;
}

uint64_t buffer_bytes(size_t index, const std::string& text, const std::string& value) {
  uint64_t v = 0;
  try {
    size_t used = 0;
    v = std::stoull(value, &used);
    if (used != value.size() || value.find('-') != std::string::npos)
      throw std::invalid_argument("");
  } catch (const std::exception&) {
    bad(index, text, "'" + value + "' is not a number of bytes");
  }
  if (v == 0 || v > kMaxBufferBytes)
    bad(index, text, fmt::format("a buffer has 1 to {} bytes", kMaxBufferBytes));
  return v;
}

// The kernel arguments, with the outputs attached to their buffers.
std::vector<Argument> parse_arguments(const std::vector<std::string>& texts) {
  std::vector<Argument> args;
  std::vector<std::pair<std::string, std::string>> outputs;  // (index text, file)
  for (const std::string& text : texts) {
    const size_t colon = text.find(':');
    const std::string kind = text.substr(0, colon),
                      value = colon == std::string::npos ? "" : text.substr(colon + 1);
    const size_t index = args.size();
    if (colon == std::string::npos) {
      bad(index, text,
          "expected TYPE:VALUE (i32:5, f32:1.5, ...), in:FILE, zero:BYTES, "
          "rand:BYTES:SEED, tex:..., surf:... or out:INDEX=FILE");
    }
    if (kind == "out") {
      const size_t eq = value.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == value.size())
        throw UsageError(fmt::format("'{}': expected out:INDEX=FILE", text));
      outputs.emplace_back(value.substr(0, eq), value.substr(eq + 1));
      continue;
    }
    Argument a;
    a.text = text;
    if (kind == "in") {
      const auto data = read_text_file(value);
      if (!data) bad(index, text, "cannot read '" + value + "'");
      if (data->empty()) bad(index, text, "'" + value + "' is empty");
      a.buffer.assign(data->begin(), data->end());
      a.is_buffer = true;
    } else if (kind == "zero") {
      a.buffer.assign(buffer_bytes(index, text, value), 0);
      a.is_buffer = true;
    } else if (kind == "rand") {
      const size_t second = value.find(':');
      if (second == std::string::npos) bad(index, text, "expected rand:BYTES:SEED");
      const uint64_t n = buffer_bytes(index, text, value.substr(0, second));
      const std::optional<std::vector<uint8_t>> seed =
          scalar(index, text, "u64", value.substr(second + 1));
      uint64_t s = 0;
      std::memcpy(&s, seed->data(), sizeof s);
      std::mt19937_64 rng(s);
      a.buffer.resize(n);
      for (uint64_t i = 0; i < n; i += 8) {
        const uint64_t word = rng();
        std::memcpy(a.buffer.data() + i, &word, std::min<uint64_t>(8, n - i));
      }
      a.is_buffer = true;
    } else if (auto object = parse_texture_argument(index, text, kind, value)) {
      a.object = std::move(object);
    } else if (auto bytes = scalar(index, text, kind, value)) {
      a.scalar = std::move(*bytes);
    } else {
      bad(index, text, "unknown kind '" + kind + "'");
    }
    args.push_back(std::move(a));
  }
  for (const auto& [index_text, file] : outputs) {
    size_t used = 0, index = 0;
    try {
      index = std::stoul(index_text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != index_text.size() || index >= args.size())
      throw UsageError(fmt::format("out:{}={}: no argument {} (there are {})", index_text, file,
                                   index_text, args.size()));
    if (!args[index].is_buffer && !args[index].object)
      throw UsageError(fmt::format("out:{}={}: argument {} '{}' is not a buffer or an array",
                                   index_text, file, index, args[index].text));
    args[index].output = file;
  }
  return args;
}

// Every argument against the kernel's parameters: the count, then each one's size.
void check_arguments(const std::string& kernel, const std::vector<Argument>& args,
                     const std::vector<uint32_t>& sizes) {
  if (args.size() != sizes.size()) {
    throw UsageError(
        fmt::format("kernel '{}' takes {} parameter{} ({} bytes), {} argument{} "
                    "given",
                    kernel, sizes.size(), sizes.size() == 1 ? "" : "s", fmt::join(sizes, ", "),
                    args.size(), args.size() == 1 ? "" : "s"));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const bool handle = args[i].is_buffer || args[i].object;
    const size_t bytes = handle ? sizeof(uint64_t) : args[i].scalar.size();
    if (bytes != sizes[i]) {
      bad(i, args[i].text,
          fmt::format("passes {} bytes{}; parameter {} of kernel '{}' has {}", bytes,
                      args[i].is_buffer ? " (a device address)"
                      : args[i].object  ? " (an object handle)"
                                        : "",
                      i, kernel, sizes[i]));
    }
  }
}

void write_file(const std::string& file, const std::vector<uint8_t>& bytes) {
  std::ofstream out(file, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  out.close();
  if (!out) throw Error("cannot write '" + file + "'");
}

// Loads, checks, uploads, launches, downloads, prints: the same on either device.
// Returns the launch's simulated time (ns; 0 on the functional core).
double launch_on(apps::AppDevice& device, const CommandContext& ctx, const LaunchConfig& config,
                 std::vector<Argument>& args) {
  device.load_file(ctx.args[0], ctx.options.get("resources").value_or(""));
  const std::string kernel = device.kernel_name(ctx.args[1]);
  check_arguments(kernel, args, device.param_sizes(kernel));
  KernelArgs kernel_args;
  std::vector<uint64_t> addresses(args.size(), 0);
  std::vector<tex::Resource> arrays(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    if (const auto& o = args[i].object) {
      arrays[i] = device.create_array(o->array);
      device.upload_array(arrays[i], o->texels.data());
      kernel_args.push(o->surface ? device.create_surface(arrays[i])
                                  : device.create_texture(arrays[i], o->sampler));
      continue;
    }
    if (!args[i].is_buffer) {
      kernel_args.push_bytes(args[i].scalar.data(), args[i].scalar.size());
      continue;
    }
    addresses[i] = device.upload(args[i].buffer);
    kernel_args.push(addresses[i]);
  }
  LaunchStats stats;
  LaunchConfig c = config;
  c.stats = &stats;
  device.launch(kernel, c, kernel_args);
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].output.empty()) continue;
    if (args[i].object) {
      std::vector<uint8_t> texels(args[i].object->texels.size());
      device.download_array(arrays[i], texels.data());
      write_file(args[i].output, texels);
      continue;
    }
    write_file(args[i].output, device.download<uint8_t>(addresses[i], args[i].buffer.size()));
  }
  progress_clear();  // printed from the host program, while the simulation runs
  const std::string signature = demangle(kernel);
  std::cout << fmt::format(
      "{}{}: grid ({},{},{}), block ({},{},{}), {} bytes of dynamic shared "
      "memory\n",
      kernel, signature != kernel ? " (" + signature + ")" : "", config.grid.x, config.grid.y,
      config.grid.z, config.block.x, config.block.y, config.block.z, config.dynamic_shared_bytes);
  if (std::string(device.backend()) == "soc") {
    std::cout << fmt::format("  {:.3f} us simulated, achieved occupancy {:.1f}%\n",
                             stats.kernel_ns() / 1e3, 100 * stats.achieved_occupancy());
  } else {
    std::cout << "  no simulated time on the functional core\n";
  }
  std::cout << fmt::format("  {} CTAs, {} warps, {} warp instructions ({} thread instructions)\n",
                           stats.ctas, stats.warps, stats.warp_instructions,
                           stats.thread_instructions);
  for (const Argument& a : args)
    if (!a.output.empty())
      std::cout << fmt::format("  wrote {} bytes of '{}' to {}\n",
                               a.object ? a.object->texels.size() : a.buffer.size(), a.text,
                               a.output);
  return stats.kernel_ns();
}

int launch(const CommandContext& ctx) {
  LaunchConfig config;
  if (auto g = ctx.options.get("grid")) config.grid = parse_dim3("grid", *g, kMaxGrid);
  if (auto b = ctx.options.get("block")) config.block = parse_dim3("block", *b, kMaxBlock);
  config.dynamic_shared_bytes =
      uint32_t(parse_bytes("shared", ctx.options.get("shared").value_or("0"), 1u << 30));
  std::vector<Argument> args =
      parse_arguments(std::vector<std::string>(ctx.args.begin() + 2, ctx.args.end()));
  if (ctx.options.has("functional")) {
    std::cout << "on the functional PTX core\n";
    apps::FunctionalAppDevice device(
        with_checking(functional_device_options(ctx.config), ctx.options));
    launch_on(device, ctx, config, args);
    ctx.write_stats();
    return 0;
  }
  std::cout << "on the SoC; SMs " << sm_summary(ctx.config) << "\n";
  SocPlatform soc(ctx.config, ctx.stats);
  const auto trace = start_mem_trace(ctx, soc.gpu());
  TimelineRecording timeline(ctx);
  double kernel_ns = 0;
  soc.run([&](host::HostBus& bus) {
    rt::Device runtime(bus, with_checking(rt::RuntimeOptions{}, ctx.options));
    apps::SocAppDevice device(runtime);
    kernel_ns = launch_on(device, ctx, config, args);
  });
  finish_mem_trace(soc.gpu(), trace.get());
  timeline.finish();
  std::cout << run_summary(stats_values_json(ctx.stats),
                           {kernel_ns, GpuSpec::from_config(ctx.config).peak_dram_gbytes_per_s()});
  ctx.write_stats();
  return 0;
}

const CommandRegistration kLaunch{with_checking_options(
    Command("launch",
            "run one kernel of a PTX module with arguments from the command line, on the SoC "
            "(or --functional) under the configuration: i32:5 f32:1.5 in:FILE zero:BYTES "
            "rand:BYTES:SEED tex:FORMAT:EXTENT:SOURCE[:MODES] surf:FORMAT:EXTENT:SOURCE "
            "out:INDEX=FILE",
            launch)
        .args("MODULE.ptx KERNEL [ARG...]", 2)
        .option({"grid", "X[,Y,Z]", "grid dimensions (default 1)"})
        .option({"block", "X[,Y,Z]", "block dimensions (default 1)"})
        .option({"shared", "BYTES", "dynamic shared memory per CTA (default 0)"})
        .option({"resources", "FILE",
                 "ptxas -v output for the module (default: NAME.ptxas "
                 "beside it, when there is one)"})
        .option({"functional", "", "run on the bare functional PTX core instead of the SoC"})
        .option(mem_trace_option())
        .option(timeline_option()))};

}  // namespace
}  // namespace gpusoc::platform
