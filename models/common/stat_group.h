// A node of the statistics tree. Each module owns a StatGroup, child of its parent
// module's group, so stats are named after the model tree: gpu.sm3.l1d.misses. The
// unnamed root is the statistics registry the platform dumps (stats_report.h).
//
// A module declares its stats as typed members of a group, gem5 ADD_STAT style:
//   struct L1Stats : StatGroup {
//     explicit L1Stats(StatGroup& parent) : StatGroup(parent, "l1d") {}
//     Counter hits{*this, "hits", "accesses", "accesses that hit"};
//     Counter misses{*this, "misses", "accesses", "accesses that missed"};
//     Formula miss_rate{*this, "miss_rate", "ratio", "misses per access", [this] {
//       return double(misses.value()) / double(hits.value() + misses.value()); }};
//   };
// and counts with `++stats_.misses`: a plain integer add, no lookup.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace gpusoc {

class Stat;

class StatGroup {
 public:
  StatGroup();  // the unnamed root
  StatGroup(StatGroup& parent, std::string name);
  ~StatGroup();

  StatGroup(const StatGroup&) = delete;
  StatGroup& operator=(const StatGroup&) = delete;

  const std::string& name() const { return name_; }
  std::string path() const;  // dotted from the root, "" for the root

  // In declaration order, which is the order of every dump.
  const std::vector<Stat*>& stats() const { return stats_; }
  const std::vector<StatGroup*>& children() const { return children_; }

  // Whether a stat or group anywhere below this group has been destroyed: a dump taken
  // now misses it. Lets the CLI refuse to write a statistics file with parts gone.
  bool lost_members() const { return lost_members_; }

  // A block that counts lazily (the crossbar charges waiting cycles when a wait ends) brings its
  // counts up to date here; every dump runs it before reading the group's stats.
  void set_refresh(std::function<void()> refresh) { refresh_ = std::move(refresh); }
  void refresh() const {
    if (refresh_) refresh_();
  }

 private:
  friend class Stat;
  void add(Stat& stat);
  void remove(const Stat& stat);
  void check_new_name(const std::string& name) const;
  void mark_lost();  // on this group and every ancestor

  StatGroup* parent_ = nullptr;
  std::string name_;
  std::vector<Stat*> stats_;
  std::vector<StatGroup*> children_;
  bool lost_members_ = false;
  std::function<void()> refresh_;
};

}  // namespace gpusoc
