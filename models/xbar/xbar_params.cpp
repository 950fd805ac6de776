#include "models/xbar/xbar_params.h"

#include <string>

#include "models/common/error.h"
#include "models/common/param.h"
#include "models/xbar/crossbar.h"

namespace gpusoc::xbar {
namespace {

using U32 = uint32_t;
const CrossbarConfig kDefaults;

const Param<U32> kWidth{"xbar.width_bytes", kDefaults.width_bytes, "bytes",
                        "bytes each crossbar port moves per crossbar cycle; a packet occupies its "
                        "input and output for ceil(wire bytes / width) cycles",
                        Range{1, 4096}};
const Param<U32> kLatency{"xbar.latency", kDefaults.latency, "cycles",
                          "crossbar cycles from a packet's last cycle on the switch to its "
                          "output buffer",
                          Range{1, 1024}};
const Param<U32> kInputBuffer{"xbar.input_buffer", kDefaults.input_buffer, "packets",
                              "packets each crossbar input buffers; a full input refuses pushes",
                              Range{1, 4096}};
const Param<U32> kOutputBuffer{"xbar.output_buffer", kDefaults.output_buffer, "packets",
                               "packets each crossbar output buffers, counting those on the way; "
                               "a full output gets no grants",
                               Range{1, 4096}};
const Param<U32> kHeader{"xbar.header_bytes", kDefaults.header_bytes, "bytes",
                         "header bytes of every packet on the wire; data follows in the "
                         "direction that carries it",
                         Range{0, 1024}};
const Param<std::string> kArbiter{"xbar.arbiter", kDefaults.arbiter.name, "",
                                  "switch allocation: " + crossbar_arbiters().describe(),
                                  crossbar_arbiters().choices()};

}  // namespace

CrossbarConfig crossbar_config_from(const Config& config) {
  CrossbarConfig c;
  c.width_bytes = kWidth.get(config);
  c.latency = kLatency.get(config);
  c.input_buffer = kInputBuffer.get(config);
  c.output_buffer = kOutputBuffer.get(config);
  c.header_bytes = kHeader.get(config);
  c.arbiter = crossbar_arbiters().choose(config);
  if (const std::string why = c.problem("xbar"); !why.empty()) throw ConfigError(why);
  return c;
}

}  // namespace gpusoc::xbar
