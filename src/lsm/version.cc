// Copyright 2026 The bloomgate Authors.

#include "src/lsm/version.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace bloomgate::lsm {

uint64_t Version::LevelBytes(int level) const {
  uint64_t bytes = 0;
  for (const TablePtr& t : levels[level]) {
    bytes += t->file_size() - std::min(t->file_size(), t->filter_bytes());
  }
  return bytes;
}

std::vector<TablePtr> Version::Overlapping(int level, std::string_view smallest,
                                           std::string_view largest) const {
  std::vector<TablePtr> out;
  for (const TablePtr& t : levels[level]) {
    if (t->largest() >= smallest && t->smallest() <= largest) out.push_back(t);
  }
  return out;
}

const TablePtr* Version::Candidate(int level, std::string_view key) const {
  const std::vector<TablePtr>& files = levels[level];
  auto it = std::lower_bound(
      files.begin(), files.end(), key,
      [](const TablePtr& t, std::string_view k) { return t->largest() < k; });
  return it == files.end() ? nullptr : &*it;
}

std::vector<FileMeta> Version::Files() const {
  std::vector<FileMeta> files;
  for (int level = 0; level < static_cast<int>(levels.size()); ++level) {
    for (const TablePtr& t : levels[level]) {
      FileMeta f;
      f.level = level;
      f.number = t->number();
      f.file_size = t->file_size();
      f.num_entries = t->properties().num_entries;
      f.smallest = t->smallest();
      f.largest = t->largest();
      files.push_back(std::move(f));
    }
  }
  return files;
}

std::shared_ptr<const Version> ApplyEdit(const Version& base,
                                         const std::vector<TablePtr>& removed,
                                         int level,
                                         const std::vector<TablePtr>& added) {
  std::set<uint64_t> gone;
  for (const TablePtr& t : removed) gone.insert(t->number());
  auto v = std::make_shared<Version>();
  v->levels.resize(base.levels.size());
  for (size_t l = 0; l < base.levels.size(); ++l) {
    for (const TablePtr& t : base.levels[l]) {
      if (!gone.count(t->number())) v->levels[l].push_back(t);
    }
  }
  std::vector<TablePtr>& dst = v->levels[level];
  dst.insert(dst.end(), added.begin(), added.end());
  if (level == 0) {
    std::sort(dst.begin(), dst.end(), [](const TablePtr& a, const TablePtr& b) {
      return a->number() > b->number();
    });
  } else {
    std::sort(dst.begin(), dst.end(), [](const TablePtr& a, const TablePtr& b) {
      return a->smallest() < b->smallest();
    });
  }
  return v;
}

std::vector<TablePtr> CompactionSpec::Inputs() const {
  std::vector<TablePtr> all;
  if (trivial_move) all.push_back(trivial_move);
  for (const auto& run : runs) all.insert(all.end(), run.begin(), run.end());
  return all;
}

namespace {

// Whether no table deeper than `level` overlaps [smallest, largest]: then
// a tombstone at `level` shadows nothing and can go.
bool IsBottommost(const Version& v, int level, std::string_view smallest,
                  std::string_view largest) {
  for (int l = level + 1; l < static_cast<int>(v.levels.size()); ++l) {
    if (!v.Overlapping(l, smallest, largest).empty()) return false;
  }
  return true;
}

}  // namespace

namespace {

// The steps of PickCompaction, as LevelDB's VersionSet takes them: score
// the levels, choose the files of the one to compact, then the files they
// overlap one level down (SetupOtherInputs).

// The level most over its target, if any is: level 0 by file count, deeper
// levels by bytes.
std::optional<int> MostUrgentLevel(const Version& v, const LevelShape& shape) {
  int best_level = -1;
  double best_score = 1.0;
  const double l0_score =
      static_cast<double>(v.levels[0].size()) / shape.level0_trigger;
  if (l0_score >= best_score) {
    best_level = 0;
    best_score = l0_score;
  }
  double max_bytes = static_cast<double>(shape.max_bytes_for_level_base);
  for (int level = 1; level + 1 < shape.num_levels; ++level) {
    const double score = static_cast<double>(v.LevelBytes(level)) / max_bytes;
    if (score > best_score) {
      best_level = level;
      best_score = score;
    }
    max_bytes *= shape.max_bytes_for_level_multiplier;
  }
  if (best_level < 0) return std::nullopt;
  return best_level;
}

// The files of `level` to compact: all of level 0, newest first; one file
// of a deeper level, the first past the level's compact pointer (round
// robin), which moves on to it.
std::vector<TablePtr> PickLevelInputs(
    const Version& v, int level, std::vector<std::string>* compact_pointers) {
  if (level == 0) return v.levels[0];
  const std::vector<TablePtr>& files = v.levels[level];
  const std::string& pointer = (*compact_pointers)[level];
  TablePtr pick = files.front();
  for (const TablePtr& t : files) {
    if (t->smallest() > pointer) {
      pick = t;
      break;
    }
  }
  (*compact_pointers)[level] = pick->largest();
  return {pick};
}

// The compaction of `upper` (from `level`) into the files of the level
// below that it overlaps: a trivial move when a deeper file overlaps
// nothing there.
CompactionSpec SetupCompaction(const Version& v, int level,
                               const std::vector<TablePtr>& upper) {
  CompactionSpec spec;
  spec.output_level = level + 1;
  std::string smallest, largest;
  KeyRange(upper, &smallest, &largest);
  std::vector<TablePtr> lower =
      v.Overlapping(spec.output_level, smallest, largest);
  if (level > 0 && lower.empty()) {
    spec.trivial_move = upper.front();
    return spec;
  }
  if (level == 0) {
    for (const TablePtr& t : upper) spec.runs.push_back({t});
  } else {
    spec.runs.push_back(upper);
  }
  if (!lower.empty()) {
    spec.runs.push_back(lower);
    std::string s2, l2;
    KeyRange(lower, &s2, &l2);
    smallest = std::min(smallest, s2);
    largest = std::max(largest, l2);
  }
  spec.drop_tombstones = IsBottommost(v, spec.output_level, smallest, largest);
  return spec;
}

}  // namespace

std::optional<CompactionSpec> PickCompaction(
    const Version& v, const LevelShape& shape,
    std::vector<std::string>* compact_pointers) {
  const std::optional<int> level = MostUrgentLevel(v, shape);
  if (!level.has_value()) return std::nullopt;
  return SetupCompaction(v, *level,
                         PickLevelInputs(v, *level, compact_pointers));
}

std::optional<CompactionSpec> PickFullCompaction(const Version& v) {
  CompactionSpec spec;
  int deepest = 0;
  for (int level = 0; level < static_cast<int>(v.levels.size()); ++level) {
    if (v.levels[level].empty()) continue;
    deepest = level;
    if (level == 0) {
      for (const TablePtr& t : v.levels[0]) spec.runs.push_back({t});
    } else {
      spec.runs.push_back(v.levels[level]);
    }
  }
  if (spec.runs.empty()) return std::nullopt;
  spec.output_level = std::max(deepest, 1);
  spec.drop_tombstones = true;
  return spec;
}

std::optional<CompactionSpec> PickLevel0Compaction(const Version& v,
                                                   int output_level) {
  if (v.levels[0].empty()) return std::nullopt;
  CompactionSpec spec;
  for (const TablePtr& t : v.levels[0]) spec.runs.push_back({t});
  if (!v.levels[output_level].empty()) {
    spec.runs.push_back(v.levels[output_level]);
  }
  spec.output_level = output_level;
  spec.drop_tombstones = true;
  for (size_t level = output_level + 1; level < v.levels.size(); ++level) {
    if (!v.levels[level].empty()) spec.drop_tombstones = false;
  }
  return spec;
}

void KeyRange(const std::vector<TablePtr>& tables, std::string* smallest,
              std::string* largest) {
  for (size_t i = 0; i < tables.size(); ++i) {
    if (i == 0 || tables[i]->smallest() < *smallest) {
      smallest->assign(tables[i]->smallest());
    }
    if (i == 0 || tables[i]->largest() > *largest) {
      largest->assign(tables[i]->largest());
    }
  }
}

}  // namespace bloomgate::lsm
