// Per-module loggers. A module asks once for the logger named by its hierarchical
// name and keeps it:
//   log_ = gpusoc::logger("gpu.sm3");
//   log_->info("launching grid {}", id);            // always compiled in
//   GPUSOC_DEBUG(log_, "warp {} issues {}", w, op);  // compiled out of Release
// Each line reads "[<sim time>] [<module>] [<level>] <message>". The simulation time
// comes from the hook set_time_source(), which the SystemC platform sets; until then
// lines show "-". Levels per module come from LogLevels (log_levels.h).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <spdlog/logger.h>

#include "models/common/log_levels.h"

namespace gpusoc {

using Logger = std::shared_ptr<spdlog::logger>;

// The module's logger: created on first use, at the level the current LogLevels give.
Logger logger(const std::string& module);

// Applies to every logger, those already created and those to come.
void set_log_levels(const LogLevels& levels);

// What "[<sim time>]" shows; an empty function restores "-".
void set_time_source(std::function<std::string()> now);

// Where every logger writes (stderr by default); tests capture output with it.
void set_log_sink(spdlog::sink_ptr sink);

}  // namespace gpusoc

// Debug and trace statements cost nothing in Release: unless NDEBUG is undefined or
// GPUSOC_ENABLE_TRACE is defined, the condition is a constant false and the compiler
// drops the call. The arguments are still compiled, so they stay correct and
// variables used only in them draw no unused-variable warning.
#if defined(GPUSOC_ENABLE_TRACE) || !defined(NDEBUG)
#define GPUSOC_LOG_DEBUG_ENABLED 1
#else
#define GPUSOC_LOG_DEBUG_ENABLED 0
#endif

#define GPUSOC_LOG_AT_(logger, level, ...)                       \
  do {                                                           \
    if (GPUSOC_LOG_DEBUG_ENABLED && (logger)->should_log(level)) \
      (logger)->log(level, __VA_ARGS__);                         \
  } while (0)

#define GPUSOC_DEBUG(logger, ...) GPUSOC_LOG_AT_(logger, spdlog::level::debug, __VA_ARGS__)
#define GPUSOC_TRACE(logger, ...) GPUSOC_LOG_AT_(logger, spdlog::level::trace, __VA_ARGS__)
