#include "models/common/stat_group.h"

#include <algorithm>
#include <stdexcept>

#include "models/common/stat.h"

namespace gpusoc {
namespace {

bool valid_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

template <typename T>
void erase_one(std::vector<T*>& items, const T* item) {
  items.erase(std::remove(items.begin(), items.end(), item), items.end());
}

}  // namespace

StatGroup::StatGroup() = default;

StatGroup::StatGroup(StatGroup& parent, std::string name)
    : parent_(&parent), name_(std::move(name)) {
  parent.check_new_name(name_);
  parent.children_.push_back(this);
}

StatGroup::~StatGroup() {
  // Members that outlive their group (declared before it) must not reach back into it.
  for (Stat* stat : stats_) stat->group_ = nullptr;
  for (StatGroup* child : children_) child->parent_ = nullptr;
  if (parent_ != nullptr) {
    erase_one(parent_->children_, this);
    parent_->mark_lost();
  }
}

std::string StatGroup::path() const {
  const std::string above = parent_ == nullptr ? "" : parent_->path();
  return above.empty() ? name_ : above + "." + name_;
}

void StatGroup::add(Stat& stat) {
  check_new_name(stat.name());
  stats_.push_back(&stat);
}

void StatGroup::remove(const Stat& stat) {
  erase_one(stats_, &stat);
  mark_lost();
}

void StatGroup::mark_lost() {
  for (StatGroup* group = this; group != nullptr; group = group->parent_)
    group->lost_members_ = true;
}

void StatGroup::check_new_name(const std::string& name) const {
  if (!valid_name(name)) {
    throw std::invalid_argument("statistic or group name '" + name +
                                "' must be letters, digits and '_'");
  }
  const auto same = [&name](const auto* item) { return item->name() == name; };
  if (std::any_of(stats_.begin(), stats_.end(), same) ||
      std::any_of(children_.begin(), children_.end(), same)) {
    throw std::invalid_argument("'" + name + "' is declared twice in statistics group '" + path() +
                                "'");
  }
}

}  // namespace gpusoc
