// Copyright 2026 The bloomgate Authors.
//
// The process-wide pool in the spec layer: its name in a spec, one pool per
// name and size, the sampler that measures where absent lookups go, and the
// allocation that follows them: bits move toward the key range and the tree
// that take the lookups, the pool's size holds over every tree, and with
// nothing measured the allocation is the one without a pool.

#include "bloomgate/filter_memory_pool.h"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bloomgate/filter_builder.h"
#include "bloomgate/filter_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/spec/live_tree_allocation.h"
#include "src/spec/lookup_sampler.h"
#include "src/spec/pool_members.h"

namespace bloomgate {
namespace {

using ::testing::HasSubstr;

// --- The pool's name in a spec. ---

TEST(PoolSpecTest, NamesRoundTrip) {
  for (const char* name :
       {"bloomgate:256MiB:blocked:monkey:pool:app",
        "bloomgate:256MiB:blocked:monkey:mixed:pool:app",
        "bloomgate:1GiB:standard:monkey:8:pool:kafka-streams.1",
        "bloomgate:64MiB:blocked:monkey:mixed:2:pool:p:reach:on",
        "bloomgate:64MiB:blocked:monkey:pool:p_2:reach:4096"}) {
    absl::StatusOr<FilterSpec> spec = FilterSpec::Parse(name);
    ASSERT_TRUE(spec.ok()) << name << ": " << spec.status();
    EXPECT_EQ(spec->Name(), name);
    EXPECT_EQ(FilterSpec::Parse(spec->Name()).value(), *spec);
  }
  // Written with '=', as a hand-typed name may be, it reads the same.
  EXPECT_EQ(
      FilterSpec::Parse("bloomgate:64MiB:monkey:pool=p:reach=4096")->Name(),
      "bloomgate:64MiB:blocked:monkey:pool:p:reach:4096");
  const FilterSpec spec =
      FilterSpec::Parse("bloomgate:256MiB:monkey:mixed:pool:app").value();
  EXPECT_EQ(spec.pool.view(), "app");
  EXPECT_EQ(spec.memory_budget_bytes, uint64_t{256} << 20);
  EXPECT_EQ(spec.reach_half_life, 0u);  // not measured unless named
  EXPECT_EQ(FilterSpec::Parse("bloomgate:64MiB:monkey:pool:p:reach:on")
                ->reach_half_life,
            kDefaultReachHalfLife);
  EXPECT_EQ(
      FilterSpec::Parse("bloomgate:64MiB:monkey:pool:p:reach:off")->Name(),
      "bloomgate:64MiB:blocked:monkey:pool:p");
}

TEST(PoolSpecTest, RefusesWhatAPoolCannotBe) {
  const std::string long_name(PoolName::kMaxLength + 1, 'p');
  const struct {
    std::string name;
    std::string error;
  } cases[] = {
      {"bloomgate:10:monkey:pool:app", "needs its size"},
      {"bloomgate:64MiB:pool:app", "needs monkey"},
      {"bloomgate:64MiB:monkey:pool:a/b", "letters, digits"},
      {"bloomgate:64MiB:monkey:pool=", "letters, digits"},
      {"bloomgate:64MiB:monkey:pool", "pool needs a value"},
      {"bloomgate:64MiB:monkey:pool:" + long_name, "must be 1 to 64"},
      {"bloomgate:64MiB:monkey:reach:on", "reach needs pool"},
      {"bloomgate:64MiB:monkey:pool:p:reach:0", "neither on, off nor"},
      {"bloomgate:64MiB:monkey:pool:p:reach:soon", "neither on, off nor"},
      {"bloomgate:64MiB:monkey:pool:p:mixed", "unexpected \"mixed\""},
  };
  for (const auto& c : cases) {
    absl::StatusOr<FilterSpec> spec = FilterSpec::Parse(c.name);
    ASSERT_FALSE(spec.ok()) << c.name;
    EXPECT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(spec.status().message(), HasSubstr(c.error)) << c.name;
  }
  FilterSpec rocksdb{.family = FilterFamily::kRocksDBBloom};
  rocksdb.pool = "app";
  EXPECT_FALSE(rocksdb.Validate().ok());
}

// --- One pool per name. ---

TEST(FilterMemoryPoolTest, OneNameIsOnePoolOfOneSize) {
  absl::StatusOr<std::shared_ptr<FilterMemoryPool>> a =
      FilterMemoryPool::Named("one", 1 << 20, "first");
  ASSERT_TRUE(a.ok()) << a.status();
  absl::StatusOr<std::shared_ptr<FilterMemoryPool>> b =
      FilterMemoryPool::Named("one", 1 << 20, "second");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(a->get(), b->get());
  EXPECT_EQ((*a)->name(), "one");
  EXPECT_EQ((*a)->size_bytes(), 1u << 20);
  EXPECT_EQ(FilterMemoryPool::Find("one"), *a);

  absl::StatusOr<std::shared_ptr<FilterMemoryPool>> other =
      FilterMemoryPool::Named("one", 2 << 20, "bloomgate:2MiB:pool:one");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(other.status().message(), HasSubstr("\"one\" is 1MiB"));
  EXPECT_THAT(other.status().message(), HasSubstr("first made it"));
  EXPECT_THAT(other.status().message(),
              HasSubstr("bloomgate:2MiB:pool:one asks for 2MiB"));

  // Gone with its last holder: the name is free for another size.
  a->reset();
  b->reset();
  EXPECT_EQ(FilterMemoryPool::Find("one"), nullptr);
  EXPECT_TRUE(FilterMemoryPool::Named("one", 2 << 20).ok());
}

// --- The sampler. ---

TEST(LookupSamplerTest, KeepsAboutOneCallInTheMeanGap) {
  LookupSampler sampler(uint64_t{1} << 30);  // no fading to speak of
  constexpr int kCalls = 1 << 20;
  for (int i = 0; i < kCalls; ++i) sampler.Note("k");
  const std::vector<LookupSampler::Sample> samples = sampler.Samples();
  // Gaps uniform in [1, 2047]: mean 1024, standard deviation 591. The
  // count of a renewal process over n calls has a standard deviation of
  // about sqrt(n * var / mean^3) = 18.5 samples; six of them either side.
  const double expected = static_cast<double>(kCalls) / kMeanSampleGap;
  EXPECT_NEAR(static_cast<double>(samples.size()), expected, 6 * 18.5);
  for (const auto& s : samples) {
    EXPECT_EQ(s.key, "k");
    EXPECT_GT(s.weight, 0.99);
    EXPECT_LE(s.weight, 1.0);
  }
}

TEST(LookupSamplerTest, WeightsFadeByHalfOverTheHalfLife) {
  constexpr uint64_t kHalfLife = uint64_t{1} << 20;
  LookupSampler sampler(kHalfLife);
  for (uint64_t i = 0; i < kHalfLife; ++i) sampler.Note("old");
  for (uint64_t i = 0; i < kHalfLife; ++i) sampler.Note("new");
  double old_weight = 0, new_weight = 0;
  int old_count = 0, new_count = 0;
  for (const auto& s : sampler.Samples()) {
    if (s.key == "old") {
      old_weight += s.weight;
      ++old_count;
    } else {
      new_weight += s.weight;
      ++new_count;
    }
  }
  ASSERT_GT(old_count, 0);
  ASSERT_GT(new_count, 0);
  // Ages spread evenly over one half-life: the mean weight is
  // (1 - 1/2) / ln 2 = 0.721 for the new ones, half that for the old.
  EXPECT_NEAR(new_weight / new_count, 0.5 / std::log(2.0), 0.03);
  EXPECT_NEAR(old_weight / old_count, 0.25 / std::log(2.0), 0.02);
}

TEST(LookupSamplerTest, KeepsAtMostItsCapacityNewestLast) {
  LookupSampler sampler(1);  // the least capacity
  for (int i = 0; i < 1 << 20; ++i) sampler.Note(std::to_string(i));
  const std::vector<LookupSampler::Sample> samples = sampler.Samples();
  ASSERT_EQ(samples.size(), LookupSampler::kMinCapacity);
  for (size_t i = 1; i < samples.size(); ++i) {
    EXPECT_LT(std::stoi(samples[i - 1].key), std::stoi(samples[i].key));
  }
}

// Four threads note keys while a fifth reads the sample (run under
// ThreadSanitizer by tools/test --tsan): every sample is a key noted, and
// about one call in kMeanSampleGap was kept.
TEST(LookupSamplerTest, NotesFromManyThreadsWhileTheSampleIsRead) {
  LookupSampler sampler(uint64_t{1} << 30);
  constexpr int kThreads = 4;
  constexpr int kCalls = 1 << 18;
  std::atomic<bool> done{false};
  std::thread reader([&] {
    while (!done.load()) {
      for (const auto& s : sampler.Samples()) {
        ASSERT_TRUE(s.key.size() == 2 && s.key[0] == 't') << s.key;
      }
    }
  });
  std::vector<std::thread> writers;
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&, t] {
      const std::string key = "t" + std::to_string(t);
      for (int i = 0; i < kCalls; ++i) sampler.Note(key);
    });
  }
  for (std::thread& w : writers) w.join();
  done = true;
  reader.join();
  // Each thread's count: mean 256, standard deviation about 9.2 (as in
  // KeepsAboutOneCallInTheMeanGap); six of them for the four together.
  EXPECT_NEAR(static_cast<double>(sampler.Samples().size()),
              kThreads * kCalls / kMeanSampleGap, 6 * 2 * 9.2);
}

// --- Measured reach in the allocation. ---

// Keys "k0000" .. "k9999"; the last level is ten files of 1,000 keys each
// ("k0000".."k0999", ...), above it one level-1 file over all of them.
std::string KeyAt(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%04d", i);
  return buf;
}

struct Tree {
  std::vector<std::string> keys;  // owns what the files view
  std::vector<LiveFile> files;
};

// The tree above without the last level's file `output_file`, whose
// replacement is the output; every filter at its bits.
Tree TwoLevels(int output_file, int tree = 0) {
  Tree t;
  t.keys.reserve(24);
  t.keys.push_back(KeyAt(0));
  t.keys.push_back(KeyAt(9999));
  for (int f = 0; f < 10; ++f) {
    t.keys.push_back(KeyAt(1000 * f));
    t.keys.push_back(KeyAt(1000 * f + 999));
  }
  t.files.push_back({.tree = tree,
                     .level = 1,
                     .keys = 1000,
                     .smallest = t.keys[0],
                     .largest = t.keys[1]});
  for (int f = 0; f < 10; ++f) {
    if (f == output_file) continue;
    t.files.push_back({.tree = tree,
                       .level = 2,
                       .keys = 1000,
                       .smallest = t.keys[2 + 2 * f],
                       .largest = t.keys[3 + 2 * f]});
  }
  return t;
}

PendingOutput LastLevelFile(int f, int tree = 0) {
  return {.tree = tree,
          .level = 2,
          .keys = 1000,
          .smallest = KeyAt(1000 * f),
          .largest = KeyAt(1000 * f + 999)};
}

const FilterSpec kMonkey{.bits_per_key = 8, .monkey = true};

// A synthetic stream of absent lookups: `hot` of them (in thousandths) in
// keys [0, 100), the rest spread over all 10,000, from a fixed generator;
// each probes the level-1 file and one last-level file, and the sampler
// sees both probes. On a thread of its own, so that its samples are the
// same whatever ran on this thread before (the countdown is per thread).
TreeLookups Stream(int hot_permille, int lookups = 1 << 21) {
  LookupSampler sampler(uint64_t{1} << 30);
  std::thread([&] {
    uint64_t x = 12345;
    for (int i = 0; i < lookups; ++i) {
      x = x * 6364136223846793005u + 1442695040888963407u;
      const uint64_t r = x >> 33;
      const int key = static_cast<int>(r % 1000) < hot_permille
                          ? static_cast<int>((r >> 10) % 100)
                          : static_cast<int>((r >> 10) % 10000);
      const std::string k = KeyAt(key) + "x";  // between two present keys
      sampler.Note(k);
      sampler.Note(k);
    }
  }).join();
  return {sampler.Samples()};
}

TEST(MeasuredReachTest, NothingMeasuredIsTheAllocationWithoutMeasuring) {
  const Tree t = TwoLevels(3);
  const double unmeasured =
      LiveTreeBitsPerKey(kMonkey, t.files, LastLevelFile(3));
  const TreeLookups few{{{KeyAt(3500), 1.0}}};  // below the least weight
  EXPECT_EQ(LiveTreeBitsPerKey(kMonkey, t.files, LastLevelFile(3),
                               absl::MakeConstSpan(&few, 1)),
            unmeasured);
  // Uniform lookups, measured, give about the same.
  const TreeLookups uniform = Stream(0);
  EXPECT_NEAR(LiveTreeBitsPerKey(kMonkey, t.files, LastLevelFile(3),
                                 absl::MakeConstSpan(&uniform, 1)),
              unmeasured, 0.5);
}

TEST(MeasuredReachTest, BitsMoveTowardTheHotRange) {
  // 90% of the lookups go to the first 1% of the keys, all in file 0.
  const TreeLookups hot = Stream(900);
  const Tree for_hot = TwoLevels(0);
  const Tree for_cold = TwoLevels(5);
  const double hot_unmeasured =
      LiveTreeBitsPerKey(kMonkey, for_hot.files, LastLevelFile(0));
  const double cold_unmeasured =
      LiveTreeBitsPerKey(kMonkey, for_cold.files, LastLevelFile(5));
  const double hot_bits = LiveTreeBitsPerKey(
      kMonkey, for_hot.files, LastLevelFile(0), absl::MakeConstSpan(&hot, 1));
  const double cold_bits = LiveTreeBitsPerKey(
      kMonkey, for_cold.files, LastLevelFile(5), absl::MakeConstSpan(&hot, 1));
  std::printf(
      "[ figures  ] hot file %.2f bits/key (unmeasured %.2f), cold "
      "file %.2f (unmeasured %.2f)\n",
      hot_bits, hot_unmeasured, cold_bits, cold_unmeasured);
  // The hot file takes about 0.9 + 0.1 / 10 of the last level's lookups,
  // the cold one 0.01, against 0.1 each unmeasured: log2(9.1) = 3.2 bits
  // per key more and log2(10) = 3.3 fewer at the information-theoretic
  // rate, less where the other files' shares move too.
  EXPECT_GT(hot_bits, hot_unmeasured + 3);
  EXPECT_LT(cold_bits, cold_unmeasured - 0.75);
}

// A member whose sampler saw `lookups` absent lookups spread uniformly over
// its keys (two probes each).
class StreamMember final : public PoolMember {
 public:
  StreamMember(Tree tree, int lookups)
      : tree_(std::make_shared<Tree>(std::move(tree))),
        sampler_(uint64_t{1} << 30) {
    std::thread([&] {  // as Stream: the same samples in every run
      uint64_t x = 99;
      for (int i = 0; i < lookups; ++i) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        const std::string k = KeyAt(static_cast<int>((x >> 33) % 10000)) + "x";
        sampler_.Note(k);
        sampler_.Note(k);
      }
    })
        .join();
  }

  Files LiveFiles() const override { return {tree_, tree_->files}; }
  const void* database() const override { return this; }
  const LookupSampler* sampler() const override { return &sampler_; }

 private:
  std::shared_ptr<Tree> tree_;
  LookupSampler sampler_;
};

// The filter bytes the pool's files hold once every file of every member
// holds a filter at `bits` bits per key.
void HoldAt(Tree& t, double bits) {
  const uint64_t bytes =
      FilterBuilder::Create(kMonkey.Options(bits))->BlockSize(1000);
  for (LiveFile& f : t.files) f.filter_bytes = bytes;
}

TEST(PoolAllocationTest, TheTreeWithTheLookupsTakesTheBits) {
  // Two databases of the same shape; the output's takes `self_lookups`,
  // the other 2^19 uniform lookups. Pool: 8 bits per key over both, the
  // live filters holding 6, so that the pool's size does not bind.
  constexpr uint64_t kPoolBytes = 2 * 11000 * 8 / 8;
  auto output_bits = [&](int self_lookups) {
    absl::StatusOr<std::shared_ptr<FilterMemoryPool>> pool =
        FilterMemoryPool::Named("two", kPoolBytes);
    EXPECT_TRUE(pool.ok());
    Tree other = TwoLevels(-1, 0);
    HoldAt(other, 6);
    auto member = std::make_shared<StreamMember>(std::move(other), 1 << 19);
    spec_internal::PoolMembers::Join(**pool, member);
    auto self = std::make_shared<StreamMember>(TwoLevels(-1), self_lookups);
    spec_internal::PoolMembers::Join(**pool, self);
    Tree mine = TwoLevels(4);
    HoldAt(mine, 6);
    FilterSpec spec = kMonkey;
    spec.bits_per_key = FilterSpec{}.bits_per_key;
    spec.memory_budget_bytes = kPoolBytes;
    spec.pool = "two";
    spec.reach_half_life = kDefaultReachHalfLife;
    return ChooseLiveTreeFilter(spec, mine.files, LastLevelFile(4), {},
                                pool->get(), self.get())
        .bits_per_key;
  };
  const double even = output_bits(1 << 19);
  const double tenth = output_bits(1 << 16);
  std::printf(
      "[ figures  ] output of the tree with as many lookups as the "
      "other: %.2f bits/key; with an eighth of them: %.2f\n",
      even, tenth);
  EXPECT_GT(even, 0);
  // An eighth of the other's lookups: 3 bits fewer at the theoretic rate.
  EXPECT_LT(tenth, even - 1);
}

TEST(PoolAllocationTest, ThePoolsSizeHoldsOverEveryTree) {
  // The other tree's filters hold 14 bits per key, 20,064 bytes of the
  // pool's 24,000, this one's 2: the output gets at most what is left,
  // whatever its share.
  constexpr uint64_t kPoolBytes = 24000;
  absl::StatusOr<std::shared_ptr<FilterMemoryPool>> pool =
      FilterMemoryPool::Named("full", kPoolBytes);
  ASSERT_TRUE(pool.ok());
  Tree other = TwoLevels(-1);
  HoldAt(other, 14);
  uint64_t other_bytes = 0;
  for (const LiveFile& f : other.files) other_bytes += *f.filter_bytes;
  auto member = std::make_shared<StreamMember>(std::move(other), 0);
  spec_internal::PoolMembers::Join(**pool, member);
  Tree mine = TwoLevels(4);
  HoldAt(mine, 2);
  uint64_t mine_bytes = 0;
  for (const LiveFile& f : mine.files) mine_bytes += *f.filter_bytes;
  FilterSpec spec = kMonkey;
  spec.bits_per_key = FilterSpec{}.bits_per_key;
  spec.memory_budget_bytes = kPoolBytes;
  spec.pool = "full";
  const RunFilter filter = ChooseLiveTreeFilter(
      spec, mine.files, LastLevelFile(4), {}, pool->get(), nullptr);
  const uint64_t output_bytes =
      filter.bits_per_key > 0
          ? FilterBuilder::Create(kMonkey.Options(filter.bits_per_key))
                ->BlockSize(1000)
          : 0;
  EXPECT_LE(other_bytes + mine_bytes + output_bytes, kPoolBytes + 64);
  // Alone, the same tree and output would take its share of its own
  // budget: more than the pool leaves it.
  FilterSpec alone = spec;
  alone.pool = {};
  alone.memory_budget_bytes = kPoolBytes / 2;
  EXPECT_GT(LiveTreeBitsPerKey(alone, mine.files, LastLevelFile(4)),
            filter.bits_per_key);
  EXPECT_EQ((*pool)->GetUsage().files, 11u);
  EXPECT_EQ((*pool)->GetUsage().filter_bytes, other_bytes);
  EXPECT_EQ((*pool)->GetUsage().databases, 1u);
}

}  // namespace
}  // namespace bloomgate
