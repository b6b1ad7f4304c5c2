// Copyright 2026 The bloomgate Authors.
//
// Model-based test: random puts, deletes, batches, flushes, compactions and
// reopens, checked against a std::map on every Get and in a final sweep.

#include <map>
#include <memory>
#include <random>
#include <string>

#include "bloomgate/lsm/store.h"
#include "gtest/gtest.h"
#include "tests/lsm/test_util.h"

namespace bloomgate::lsm {
namespace {

using testing::Key;
using testing::TempDir;

struct ModelParam {
  uint32_t seed;
  bool filter;
  bool auto_compactions;
};

class ModelTest : public ::testing::TestWithParam<ModelParam> {};

// Small write buffers, so that the workload makes many files.
StoreOptions OptionsFor(const ModelParam& p) {
  StoreOptions o = testing::SmallOptions();
  o.write_buffer_size = 8 << 10;
  o.disable_auto_compactions = !p.auto_compactions;
  if (!p.filter) o.filter = kNoFilter;
  return o;
}

TEST_P(ModelTest, AgreesWithStdMap) {
  const ModelParam p = GetParam();
  TempDir dir;
  StoreOptions o = OptionsFor(p);
  std::mt19937_64 rng(p.seed);
  std::map<std::string, std::string> model;
  auto store = Store::Open(dir.path(), o);
  ASSERT_TRUE(store.ok()) << store.status();
  constexpr int kKeySpace = 3000;
  auto random_key = [&] { return Key(rng() % kKeySpace); };
  auto check = [&](const std::string& key) {
    auto got = (*store)->Get(key);
    ASSERT_TRUE(got.ok()) << got.status();
    auto it = model.find(key);
    if (it == model.end()) {
      ASSERT_FALSE(got->has_value()) << key;
    } else {
      ASSERT_TRUE(got->has_value()) << key;
      ASSERT_EQ(**got, it->second) << key;
    }
  };
  constexpr int kOps = 12000;
  for (int op = 0; op < kOps; ++op) {
    const int r = static_cast<int>(rng() % 1000);
    if (r < 450) {
      const std::string key = random_key();
      const std::string value =
          std::string(rng() % 64, 'a' + static_cast<char>(op % 26)) +
          std::to_string(op);
      ASSERT_OK((*store)->Put(key, value));
      model[key] = value;
    } else if (r < 600) {
      const std::string key = random_key();
      ASSERT_OK((*store)->Delete(key));
      model.erase(key);
    } else if (r < 650) {
      WriteBatch batch;
      for (int i = 0, n = 1 + static_cast<int>(rng() % 8); i < n; ++i) {
        const std::string key = random_key();
        if (rng() % 3 == 0) {
          batch.Delete(key);
          model.erase(key);
        } else {
          batch.Put(key, "batch" + std::to_string(op));
          model[key] = "batch" + std::to_string(op);
        }
      }
      ASSERT_OK((*store)->Write(batch));
    } else if (r < 990) {
      check(random_key());
    } else if (r < 994) {
      ASSERT_OK((*store)->Flush());
    } else if (r < 996) {
      ASSERT_OK((*store)->Compact());
    } else {
      if (rng() % 2) ASSERT_OK((*store)->Close());
      store->reset();
      store = Store::Open(dir.path(), o);
      ASSERT_TRUE(store.ok()) << store.status();
    }
    if (HasFatalFailure()) return;
  }
  for (int i = 0; i < kKeySpace; ++i) {
    check(Key(i));
    if (HasFatalFailure()) return;
  }
  ASSERT_OK((*store)->Close());
  store->reset();
  store = Store::Open(dir.path(), o);
  ASSERT_TRUE(store.ok());
  for (int i = 0; i < kKeySpace; ++i) {
    check(Key(i));
    if (HasFatalFailure()) return;
  }
}

// The same operations on a store that prefetches every candidate file's
// filter line before a Get probes any and on one that does not: the same
// answers, and the same statistics, counter by counter, at every level.
TEST_P(ModelTest, FilterPrefetchChangesNoAnswerAndNoCount) {
  const ModelParam p = GetParam();
  TempDir dir;
  StoreOptions o = OptionsFor(p);
  StoreOptions without = o;
  without.prefetch_filters = false;
  ASSERT_TRUE(o.prefetch_filters);
  auto a = Store::Open(dir.Sub("a"), o);
  auto b = Store::Open(dir.Sub("b"), without);
  ASSERT_TRUE(a.ok() && b.ok());
  std::mt19937_64 rng(p.seed);
  std::map<std::string, std::string> model;
  constexpr int kKeySpace = 3000;
  for (int op = 0; op < 8000; ++op) {
    const int r = static_cast<int>(rng() % 1000);
    const std::string key = Key(rng() % kKeySpace);
    if (r < 450) {
      const std::string value = "v" + std::to_string(op);
      ASSERT_OK((*a)->Put(key, value));
      ASSERT_OK((*b)->Put(key, value));
      model[key] = value;
    } else if (r < 600) {
      ASSERT_OK((*a)->Delete(key));
      ASSERT_OK((*b)->Delete(key));
      model.erase(key);
    } else if (r < 990) {
      // Absent keys too: every file in range is probed.
      const std::string probe = rng() % 2 ? key : key + "~";
      auto from_a = (*a)->Get(probe);
      auto from_b = (*b)->Get(probe);
      ASSERT_TRUE(from_a.ok() && from_b.ok());
      ASSERT_EQ(*from_a, *from_b) << probe;
      auto it = model.find(probe);
      ASSERT_EQ(from_a->has_value(), it != model.end()) << probe;
      if (it != model.end()) {
        ASSERT_EQ(**from_a, it->second);
      }
    } else if (r < 996) {
      ASSERT_OK((*a)->Flush());
      ASSERT_OK((*b)->Flush());
    } else {
      ASSERT_OK((*a)->Compact());
      ASSERT_OK((*b)->Compact());
    }
  }
  const IoStats sa = (*a)->GetStats();
  const IoStats sb = (*b)->GetStats();
  ASSERT_EQ(sa.levels.size(), sb.levels.size());
  EXPECT_GT(sa.total.files_considered, 0u);
  for (const auto& field : kLevelLookupStatFields) {
    if (field.name == "data_block_read_nanos") continue;  // a time
    for (size_t l = 0; l < sa.levels.size(); ++l) {
      EXPECT_EQ(field.Value(sa.levels[l]), field.Value(sb.levels[l]))
          << field.name << " L" << l;
    }
    EXPECT_EQ(field.Value(sa.total), field.Value(sb.total)) << field.name;
  }
  for (const auto& field : kStoreStatFields) {
    EXPECT_EQ(field.Value(sa), field.Value(sb)) << field.name;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Seeds, ModelTest,
    ::testing::Values(ModelParam{1, true, true}, ModelParam{2, true, false},
                      ModelParam{3, false, true}, ModelParam{4, true, true}),
    [](const ::testing::TestParamInfo<ModelParam>& info) {
      return "seed" + std::to_string(info.param.seed) +
             (info.param.filter ? "_filter" : "_nofilter") +
             (info.param.auto_compactions ? "_auto" : "_manual");
    });

}  // namespace
}  // namespace bloomgate::lsm
