#include "models/common/logging.h"

#include <map>
#include <mutex>

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

namespace gpusoc {
namespace {

// Owns the loggers, so levels and sink changes reach loggers created earlier.
class LogHub {
 public:
  static LogHub& instance() {
    static LogHub hub;
    return hub;
  }

  Logger get(const std::string& module) {
    std::lock_guard lock(mutex_);
    auto& slot = loggers_[module];
    if (!slot) {
      slot = std::make_shared<spdlog::logger>(module, sink_);
      slot->set_level(levels_.level_for(module));
    }
    return slot;
  }

  void set_levels(const LogLevels& levels) {
    std::lock_guard lock(mutex_);
    levels_ = levels;
    for (auto& [module, log] : loggers_) log->set_level(levels_.level_for(module));
  }

  void set_sink(spdlog::sink_ptr sink) {
    std::lock_guard lock(mutex_);
    sink_ = std::move(sink);
    sink_->set_formatter(make_formatter());
    for (auto& [module, log] : loggers_) log->sinks() = {sink_};
  }

  void set_time_source(std::function<std::string()> now) {
    std::lock_guard lock(mutex_);
    now_ = std::move(now);
  }

  std::string now() {
    std::function<std::string()> source;
    {
      std::lock_guard lock(mutex_);
      source = now_;
    }
    return source ? source() : "-";
  }

 private:
  class SimTimeFlag : public spdlog::custom_flag_formatter {
   public:
    void format(const spdlog::details::log_msg&, const std::tm&,
                spdlog::memory_buf_t& dest) override {
      const std::string text = LogHub::instance().now();
      dest.append(text.data(), text.data() + text.size());
    }
    std::unique_ptr<custom_flag_formatter> clone() const override {
      return std::make_unique<SimTimeFlag>();
    }
  };

  static std::unique_ptr<spdlog::formatter> make_formatter() {
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    formatter->add_flag<SimTimeFlag>('*').set_pattern("[%*] [%n] [%l] %v");
    return formatter;
  }

  LogHub() : sink_(std::make_shared<spdlog::sinks::stderr_sink_mt>()) {
    sink_->set_formatter(make_formatter());
  }

  std::mutex mutex_;
  spdlog::sink_ptr sink_;
  LogLevels levels_;
  std::function<std::string()> now_;
  std::map<std::string, Logger> loggers_;
};

}  // namespace

Logger logger(const std::string& module) {
  return LogHub::instance().get(module);
}

void set_log_levels(const LogLevels& levels) {
  LogHub::instance().set_levels(levels);
}

void set_time_source(std::function<std::string()> now) {
  LogHub::instance().set_time_source(std::move(now));
}

void set_log_sink(spdlog::sink_ptr sink) {
  LogHub::instance().set_sink(std::move(sink));
}

}  // namespace gpusoc
