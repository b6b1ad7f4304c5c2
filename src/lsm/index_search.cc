// Copyright 2026 The bloomgate Authors.

#include "src/lsm/index_search.h"

#include <algorithm>

namespace bloomgate::lsm {

IndexSearch::IndexSearch(const std::vector<IndexEntry>& index) {
  if (index.empty()) return;
  // The keys are sorted, so what the first and last share, all share.
  const std::string& first = index.front().last_key;
  const std::string& last = index.back().last_key;
  const auto [mismatch, unused] =
      std::mismatch(first.begin(), first.end(), last.begin(), last.end());
  shared_prefix_.assign(first.begin(), mismatch);

  numbers_.reserve(index.size());
  for (const IndexEntry& entry : index) {
    numbers_.push_back(Number(entry.last_key));
  }
  group_last_.reserve((index.size() + kGroup - 1) / kGroup);
  for (size_t end = kGroup; end - kGroup < index.size(); end += kGroup) {
    group_last_.push_back(numbers_[std::min(end, index.size()) - 1]);
  }
}

uint64_t IndexSearch::Number(std::string_view key) const {
  key.remove_prefix(shared_prefix_.size());
  uint64_t number = 0;
  for (size_t i = 0; i < 8; ++i) {
    const uint8_t byte = i < key.size() ? static_cast<uint8_t>(key[i]) : 0;
    number = (number << 8) | byte;
  }
  return number;
}

size_t IndexSearch::LowerBound(const std::vector<IndexEntry>& index,
                               std::string_view key) const {
  // A key that does not start with the shared prefix sorts before every
  // last key or after all of them.
  const std::string_view head = key.substr(0, shared_prefix_.size());
  if (head != shared_prefix_) {
    return head < shared_prefix_ ? 0 : index.size();
  }
  const uint64_t number = Number(key);

  // First group whose last number is >= number; before it, every last key
  // is < key.
  const size_t group = static_cast<size_t>(
      std::lower_bound(group_last_.begin(), group_last_.end(), number) -
      group_last_.begin());
  if (group == group_last_.size()) return index.size();

  // Within the group, count the numbers below: a pass with no branch on the
  // data, whose loads all go out at once.
  const size_t begin = group * kGroup;
  const size_t end = std::min(begin + kGroup, numbers_.size());
  size_t first = begin;
  for (size_t i = begin; i < end; ++i) first += numbers_[i] < number;

  // Entries whose number equals the key's may still be below it; the first
  // one with a larger number is not.
  if (first == numbers_.size() || numbers_[first] != number) return first;
  const size_t ties_end = static_cast<size_t>(
      std::upper_bound(numbers_.begin() + first, numbers_.end(), number) -
      numbers_.begin());
  return static_cast<size_t>(
      std::lower_bound(index.begin() + first, index.begin() + ties_end, key,
                       [](const IndexEntry& e, std::string_view k) {
                         return e.last_key < k;
                       }) -
      index.begin());
}

}  // namespace bloomgate::lsm
