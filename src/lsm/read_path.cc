// Copyright 2026 The bloomgate Authors.
//
// Store::Impl's read path: Get and MultiGet, from the memtables to each
// candidate file's filter and its one data-block read
// (docs/lsm-design.md: "MultiGet", "One memory wait for many files").

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "bloomgate/hash.h"
#include "bloomgate/lsm/store.h"
#include "src/lsm/status_macros.h"
#include "src/lsm/store_impl.h"

namespace bloomgate::lsm {
namespace {

// The rest of a table probe once the key is known to be in the table's
// range: the filter's answer (`may_match`, asked by the caller, alone or
// in a batch), then the one data-block read. True when the search is over
// (found, deleted or an error). A "no" is told to `sampler` if there is one
// (a pooled store measuring where its absent lookups go).
bool FinishProbe(const Table& t, std::string_view key, bool may_match,
                 LookupSampler* sampler, GetTally* tally, Table::Lookup* result,
                 std::string* value, absl::Status* error) {
  if (t.has_filter()) {
    ++tally->filter_checks;
    if (!may_match) {
      ++tally->filter_negatives;
      tally->predicted_false_positives += t.predicted_fp_rate();
      if (sampler != nullptr) sampler->Note(key);
      return false;
    }
    ++tally->filter_positives;
  }
  ReadCost cost;
  *error = t.Find(key, result, value, &cost);
  tally->data_block_reads += cost.syscalls;
  tally->data_block_bytes += cost.bytes;
  tally->data_block_read_nanos += cost.nanos;
  if (!error->ok()) return true;
  if (*result == Table::Lookup::kNotFound) {
    if (t.has_filter()) {
      ++tally->false_positives;
      tally->predicted_false_positives += t.predicted_fp_rate();
    }
    return false;
  }
  return true;
}

// One key of a MultiGet while the files are searched.
struct PendingLookup {
  size_t index = 0;  // into the keys and the results
  std::string_view key;
  uint64_t hash = 0;
  bool done = false;
  int touched = 0;  // levels reached, as Get counts them
  Table::Lookup result = Table::Lookup::kNotFound;
  std::string value;
  absl::Status error;
  GetTally tallies[kMaxLevels];
};

// The file search of a MultiGet: the keys walk the levels together, newest
// data first, so that every key meets the files in Get's order and stops
// where Get would. Keeps its buffers from one call of Search to the next.
class MultiGetSearch {
 public:
  MultiGetSearch(const Version& v, LookupSampler* sampler)
      : v_(v), sampler_(sampler) {}

  // Looks up keys[i] for each i of `indices` in the files: *lookups gets one
  // PendingLookup per key, with its result, value, error and tallies.
  void Search(absl::Span<const std::string_view> keys,
              absl::Span<const size_t> indices,
              std::vector<PendingLookup>* lookups);

 private:
  // Level 0: every file, newest first, until no key is left.
  void SearchLevel0(const std::vector<TablePtr>& files);
  // A deeper level: at most one file may hold a key, so the keys are
  // grouped by that file and each group searches it once.
  void SearchLevel(int level);
  // Searches `t` (at `level`) for each of `lookups`, in order: key range,
  // then one batched filter query for the keys in range, then their reads.
  void SearchTable(const Table& t, int level,
                   const std::vector<PendingLookup*>& lookups);

  const Version& v_;
  LookupSampler* const sampler_;
  std::vector<PendingLookup*> active_;  // not done at the current level
  std::vector<PendingLookup*> group_;   // the keys of one file
  std::vector<std::pair<const Table*, PendingLookup*>> by_table_;
  std::vector<PendingLookup*> in_range_;
  std::vector<uint64_t> hashes_;
  std::unique_ptr<bool[]> may_match_;
  size_t may_match_size_ = 0;
};

void MultiGetSearch::Search(absl::Span<const std::string_view> keys,
                            absl::Span<const size_t> indices,
                            std::vector<PendingLookup>* lookups) {
  lookups->clear();
  lookups->resize(indices.size());
  for (size_t j = 0; j < indices.size(); ++j) {
    PendingLookup& p = (*lookups)[j];
    p.index = indices[j];
    p.key = keys[p.index];
    p.hash = HashKey(p.key);
  }
  const int num_levels = static_cast<int>(v_.levels.size());
  for (int level = 0; level < num_levels; ++level) {
    const std::vector<TablePtr>& files = v_.levels[level];
    if (files.empty()) continue;
    active_.clear();
    for (PendingLookup& p : *lookups) {
      if (p.done) continue;
      p.touched = level + 1;
      active_.push_back(&p);
    }
    if (active_.empty()) break;
    if (level == 0) {
      SearchLevel0(files);
    } else {
      SearchLevel(level);
    }
  }
}

void MultiGetSearch::SearchLevel0(const std::vector<TablePtr>& files) {
  for (const TablePtr& t : files) {
    SearchTable(*t, 0, active_);
    std::erase_if(active_, [](const PendingLookup* p) { return p->done; });
    if (active_.empty()) break;
  }
}

void MultiGetSearch::SearchLevel(int level) {
  by_table_.clear();
  for (PendingLookup* p : active_) {
    const TablePtr* t = v_.Candidate(level, p->key);
    if (t == nullptr) {
      // Past the level's last key: considered, and skipped by range.
      ++p->tallies[level].files_considered;
      ++p->tallies[level].skipped_by_range;
    } else {
      by_table_.emplace_back(t->get(), p);
    }
  }
  std::stable_sort(by_table_.begin(), by_table_.end(),
                   [](const auto& a, const auto& b) {
                     return std::less<const Table*>()(a.first, b.first);
                   });
  for (size_t g = 0; g < by_table_.size();) {
    const Table* t = by_table_[g].first;
    group_.clear();
    for (; g < by_table_.size() && by_table_[g].first == t; ++g) {
      group_.push_back(by_table_[g].second);
    }
    SearchTable(*t, level, group_);
  }
}

void MultiGetSearch::SearchTable(const Table& t, int level,
                                 const std::vector<PendingLookup*>& lookups) {
  in_range_.clear();
  hashes_.clear();
  for (PendingLookup* p : lookups) {
    GetTally& tally = p->tallies[level];
    ++tally.files_considered;
    if (!t.InRange(p->key)) {
      ++tally.skipped_by_range;
      continue;
    }
    in_range_.push_back(p);
    hashes_.push_back(p->hash);
  }
  if (in_range_.empty()) return;
  if (may_match_size_ < in_range_.size()) {
    may_match_size_ = in_range_.size();
    may_match_ = std::make_unique<bool[]>(may_match_size_);
  }
  bool* may = may_match_.get();
  if (t.has_filter()) {
    t.filter().HashMayMatchBatch(hashes_,
                                 absl::Span<bool>(may, in_range_.size()));
  } else {
    std::fill(may, may + in_range_.size(), true);
  }
  for (size_t i = 0; i < in_range_.size(); ++i) {
    PendingLookup* p = in_range_[i];
    p->done = FinishProbe(t, p->key, may[i], sampler_, &p->tallies[level],
                          &p->result, &p->value, &p->error);
  }
}

}  // namespace

std::optional<std::optional<std::string>> Store::Impl::FromMemtables(
    const ReadView& view, std::string_view key, std::string* value) {
  for (const MemTable* mem :
       {static_cast<const MemTable*>(view.mem.get()), view.imm.get()}) {
    if (mem == nullptr) continue;
    const MemTable::Lookup r = mem->Get(key, value);
    if (r == MemTable::Lookup::kNotPresent) continue;
    const bool hit = r == MemTable::Lookup::kFound;
    stats_.RecordGet(nullptr, 0, hit, /*memtable=*/true);
    if (hit) return std::optional<std::string>(std::move(*value));
    return std::optional<std::string>();
  }
  return std::nullopt;
}

namespace {

// A file a Get may find its key in, and whether the key is in its range.
struct Candidate {
  const Table* table;  // nullptr: past the level's last key
  int level;
  bool in_range;
};
using Candidates = absl::InlinedVector<Candidate, 32>;

// The files `key` may be in, newest first: every level-0 file, then at most
// one per deeper level. Each file's key range is compared once, here, for
// the prefetch and the probes both: comparing it twice showed in the
// profile of absent keys past many level-0 files (docs/lsm-design.md, "One
// memory wait for many files").
Candidates GetCandidates(const Version& v, std::string_view key) {
  Candidates candidates;
  auto add_candidate = [&](const Table* t, int level) {
    candidates.push_back({t, level, t != nullptr && t->InRange(key)});
  };
  for (int level = 0; level < static_cast<int>(v.levels.size()); ++level) {
    const std::vector<TablePtr>& files = v.levels[level];
    if (files.empty()) continue;
    if (level == 0) {
      for (const TablePtr& t : files) add_candidate(t.get(), 0);
    } else {
      const TablePtr* t = v.Candidate(level, key);
      add_candidate(t != nullptr ? t->get() : nullptr, level);
    }
  }
  return candidates;
}

// Asks for every candidate's filter line before any is probed, so that an
// absent key waits for memory about once, not once per file. The probes
// then run in the same order, and count the same, as without.
void PrefetchFilters(const Candidates& candidates, uint64_t hash) {
  for (const Candidate& c : candidates) {
    if (c.in_range && c.table->has_filter()) {
      c.table->filter().Prefetch(hash);
    }
  }
}

}  // namespace

absl::StatusOr<std::optional<std::string>> Store::Impl::Get(
    std::string_view key) {
  if (closed_.load(std::memory_order_relaxed)) {
    return absl::FailedPreconditionError("store is closed");
  }
  std::shared_ptr<const ReadView> view = View();
  std::string value;
  if (std::optional<std::optional<std::string>> answer =
          FromMemtables(*view, key, &value)) {
    return *std::move(answer);
  }

  GetTally tallies[kMaxLevels];
  const uint64_t hash = HashKey(key);
  int touched = 0;
  Table::Lookup result = Table::Lookup::kNotFound;
  absl::Status error;
  const Candidates candidates = GetCandidates(*view->version, key);
  if (options_.prefetch_filters) PrefetchFilters(candidates, hash);

  // Key range, then filter, then one data-block read, until the search is
  // over (found, deleted or an error).
  for (const Candidate& c : candidates) {
    GetTally& tally = tallies[c.level];
    touched = c.level + 1;
    ++tally.files_considered;
    if (!c.in_range) {
      ++tally.skipped_by_range;
      continue;
    }
    const Table& t = *c.table;
    const bool may_match = !t.has_filter() || t.HashMayMatch(hash);
    if (FinishProbe(t, key, may_match, sampler_.get(), &tally, &result, &value,
                    &error)) {
      break;
    }
  }
  const bool hit = error.ok() && result == Table::Lookup::kFound;
  stats_.RecordGet(tallies, touched, hit, /*memtable=*/false);
  if (!error.ok()) return error;
  if (hit) return std::optional<std::string>(std::move(value));
  return std::optional<std::string>();
}

std::vector<absl::StatusOr<std::optional<std::string>>> Store::Impl::MultiGet(
    absl::Span<const std::string_view> keys) {
  using Result = absl::StatusOr<std::optional<std::string>>;
  if (closed_.load(std::memory_order_relaxed)) {
    return std::vector<Result>(
        keys.size(), absl::FailedPreconditionError("store is closed"));
  }
  std::vector<Result> results(keys.size(), std::optional<std::string>());
  std::shared_ptr<const ReadView> view = View();

  // Memtables first, as Get; the rest search the files together.
  std::vector<size_t> to_search;
  std::string value;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (std::optional<std::optional<std::string>> answer =
            FromMemtables(*view, keys[i], &value)) {
      results[i] = *std::move(answer);
    } else {
      to_search.push_back(i);
    }
  }

  // A few hundred keys at a time bound the tallies' memory.
  constexpr size_t kChunk = 256;
  MultiGetSearch search(*view->version, sampler_.get());
  std::vector<PendingLookup> chunk;
  for (size_t begin = 0; begin < to_search.size(); begin += kChunk) {
    search.Search(keys,
                  absl::MakeConstSpan(to_search).subspan(
                      begin, std::min(kChunk, to_search.size() - begin)),
                  &chunk);
    for (PendingLookup& p : chunk) {
      const bool hit = p.error.ok() && p.result == Table::Lookup::kFound;
      stats_.RecordGet(p.tallies, p.touched, hit, /*memtable=*/false);
      if (!p.error.ok()) {
        results[p.index] = p.error;
      } else if (hit) {
        results[p.index] = std::optional<std::string>(std::move(p.value));
      }
    }
  }
  return results;
}

}  // namespace bloomgate::lsm
