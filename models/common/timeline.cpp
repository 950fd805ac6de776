#include "models/common/timeline.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/common/error.h"

namespace gpusoc {

Timeline* Timeline::active_ = nullptr;

Timeline::Timeline(uint64_t max_events) : max_events_(max_events) {}

uint32_t Timeline::intern(std::string_view text) {
  const auto [it, added] = string_ids_.try_emplace(std::string(text), uint32_t(strings_.size()));
  if (added) strings_.emplace_back(text);
  return it->second;
}

uint32_t Timeline::group(std::string_view name) {
  const uint32_t id = intern(name);
  for (uint32_t g = 0; g < groups_.size(); ++g)
    if (groups_[g] == id) return g;
  groups_.push_back(id);
  return uint32_t(groups_.size() - 1);
}

uint32_t Timeline::track(std::string_view group_name, std::string_view name) {
  std::string key(group_name);
  key += '\n';
  key += name;
  const auto it = track_ids_.find(key);
  if (it != track_ids_.end()) return it->second;
  tracks_.push_back(Track{group(group_name), intern(name)});
  track_ids_.emplace(std::move(key), uint32_t(tracks_.size() - 1));
  return uint32_t(tracks_.size() - 1);
}

bool Timeline::room() {
  if (events_.size() < max_events_) return true;
  ++dropped_;
  return false;
}

void Timeline::span(uint32_t track, std::string_view name, uint64_t start_ps, uint64_t end_ps,
                    std::string_view detail) {
  if (!room()) return;
  events_.push_back(Event{start_ps, std::max(start_ps, end_ps), track, intern(name),
                          detail.empty() ? ~0u : intern(detail), Kind::Span});
}

void Timeline::span_in_lane(std::string_view group_name, std::string_view lanes,
                            std::string_view name, uint64_t start_ps, uint64_t end_ps,
                            std::string_view detail) {
  std::string key(group_name);
  key += '\n';
  key += lanes;
  std::vector<uint64_t>& ends = lane_ends_[key];
  size_t lane = 0;
  while (lane < ends.size() && ends[lane] > start_ps) ++lane;
  if (lane == ends.size()) ends.push_back(0);
  ends[lane] = std::max(end_ps, start_ps);
  span(track(group_name, std::string(lanes) + " " + std::to_string(lane)), name, start_ps, end_ps,
       detail);
}

void Timeline::counter(std::string_view group_name, std::string_view name, uint64_t ps,
                       double value) {
  // A counter holds its value until the next sample: one that has not changed is not repeated.
  const uint32_t id = track(group_name, name);
  if (counter_last_.size() <= id) counter_last_.resize(id + 1, std::nan(""));
  if (counter_last_[id] == value) return;
  if (!room()) return;
  counter_last_[id] = value;
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  events_.push_back(Event{ps, bits, id, intern(name), ~0u, Kind::Counter});
}

void Timeline::write(const std::string& path) const {
  std::ofstream out(path);
  if (!out) throw Error("--timeline '" + path + "': cannot write it");
  // Trace-event JSON: timestamps in microseconds; a process per group, a thread per track.
  out << "{\"displayTimeUnit\":\"ns\",\"otherData\":"
      << nlohmann::json{{"generator", "gpusoc"},
                        {"events", events_.size()},
                        {"dropped_events", dropped_},
                        {"max_events", max_events_}}
             .dump()
      << ",\"traceEvents\":[\n";
  bool first = true;
  const auto emit = [&](const nlohmann::json& e) {
    out << (first ? "" : ",\n") << e.dump();
    first = false;
  };
  // The groups from the host down to the DRAM, in whichever order they recorded first.
  static const char* const kOrder[] = {
      "host", "command processor", "copy engines", "kernels", "SMs", "L2", "DRAM GB/s"};
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    const std::string& name = strings_[groups_[g]];
    uint32_t order = 100 + g;
    for (uint32_t k = 0; k < std::size(kOrder); ++k)
      if (name == kOrder[k]) order = k;
    emit({{"ph", "M"}, {"name", "process_name"}, {"pid", g + 1}, {"args", {{"name", name}}}});
    emit({{"ph", "M"},
          {"name", "process_sort_index"},
          {"pid", g + 1},
          {"args", {{"sort_index", order}}}});
  }
  for (uint32_t t = 0; t < tracks_.size(); ++t) {
    if (t < counter_last_.size() && !std::isnan(counter_last_[t])) continue;  // a counter
    emit({{"ph", "M"},
          {"name", "thread_name"},
          {"pid", tracks_[t].group + 1},
          {"tid", t + 1},
          {"args", {{"name", strings_[tracks_[t].name]}}}});
  }
  for (const Event& e : events_) {
    const Track& track = tracks_[e.track];
    if (e.kind == Kind::Span) {
      nlohmann::json j{{"ph", "X"},
                       {"name", strings_[e.name]},
                       {"pid", track.group + 1},
                       {"tid", e.track + 1},
                       {"ts", double(e.start_ps) / 1e6},
                       {"dur", double(e.end_ps - e.start_ps) / 1e6}};
      if (e.detail != ~0u) j["args"] = {{"detail", strings_[e.detail]}};
      emit(j);
    } else {
      double value;
      std::memcpy(&value, &e.end_ps, sizeof value);
      emit({{"ph", "C"},
            {"name", strings_[e.name]},
            {"pid", track.group + 1},
            {"ts", double(e.start_ps) / 1e6},
            {"args", {{"value", value}}}});
    }
  }
  out << "\n]}\n";
  out.close();
  if (!out) throw Error("--timeline '" + path + "': writing it failed");
}

}  // namespace gpusoc
