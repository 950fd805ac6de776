// A timeline of a run in Chrome's trace-event format, which Perfetto's UI and chrome://tracing
// open (`--timeline FILE.json`). Blocks that have something to show ask for the active timeline
// (null unless one was asked for: a load and a branch) and add spans to named tracks, grouped
// as the viewer's process rows (host, command processor, copy engines, kernels, SMs), or
// counter samples. Events are kept in memory, compactly, up to a cap; those past it are counted
// and the file says how many were dropped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gpusoc {

class Timeline {
 public:
  explicit Timeline(uint64_t max_events);

  /// The timeline of this run, or null; set by the command line before the run.
  static Timeline* active() { return active_; }
  static void set_active(Timeline* timeline) { active_ = timeline; }

  /// A track `name` in the group `group` (made on first use); its id for span().
  uint32_t track(std::string_view group, std::string_view name);
  /// `name` on `track` from `start_ps` to `end_ps` (simulated time); `detail` shows in the
  /// viewer's details of the event.
  void span(uint32_t track, std::string_view name, uint64_t start_ps, uint64_t end_ps,
            std::string_view detail = {});
  /// `name` from `start_ps` to `end_ps` on the first of the tracks "`lanes` 0", "`lanes` 1", ...
  /// of `group` free by then: spans that overlap without nesting (the CTAs resident on one SM)
  /// each get a row, as the trace-event format wants. Spans must come in the order they end.
  void span_in_lane(std::string_view group, std::string_view lanes, std::string_view name,
                    uint64_t start_ps, uint64_t end_ps, std::string_view detail = {});
  /// One sample of the counter `name` of group `group` at `ps`.
  void counter(std::string_view group, std::string_view name, uint64_t ps, double value);

  uint64_t events() const { return events_.size(); }
  uint64_t dropped() const { return dropped_; }
  /// The trace-event JSON; Error when the file cannot be written.
  void write(const std::string& path) const;

 private:
  enum class Kind : uint8_t { Span, Counter };
  struct Event {
    uint64_t start_ps, end_ps;  // a counter's value in end_ps, as a double's bits
    uint32_t track, name, detail;
    Kind kind;
  };
  uint32_t intern(std::string_view text);
  uint32_t group(std::string_view name);
  bool room();

  static Timeline* active_;
  uint64_t max_events_;
  uint64_t dropped_ = 0;
  std::vector<Event> events_;
  std::vector<std::string> strings_;  // names and details, interned
  std::unordered_map<std::string, uint32_t> string_ids_;
  struct Track {
    uint32_t group, name;
  };
  std::vector<Track> tracks_;
  std::unordered_map<std::string, uint32_t> track_ids_;  // "group\nname"
  std::vector<uint32_t> groups_;                         // group names' string ids, by pid - 1
  std::vector<double> counter_last_;  // by track: a counter's last value (NaN: not a counter)
  std::unordered_map<std::string, std::vector<uint64_t>> lane_ends_;  // "group\nlanes": by lane
};

}  // namespace gpusoc
