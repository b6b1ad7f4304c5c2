// Copyright 2026 The bloomgate Authors.
//
// The bloomgate policy inside real RocksDB databases: reads, filter
// statistics, partitioned and prefix filters, flush/compaction/reopen,
// external files, moving a DB between policies, and damaged filter blocks.

#include "rocksdb/db.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "bloomgate/filter_builder.h"
#include "bloomgate/filter_reader.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "bloomgate/sizing.h"
#include "gtest/gtest.h"
#include "rocksdb/iostats_context.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/sst_file_writer.h"
#include "src/rocksdb/rocksdb_compat.h"
#include "table/block_based/filter_policy_internal.h"
#include "tests/rocksdb/db_test_util.h"
#include "tests/testing/fp_bounds.h"

namespace bloomgate::testing_rocksdb {
namespace {

using ::bloomgate::testing::FpUpperBound;

constexpr int kFiles = 4;

size_t CountOccurrences(std::string_view text, std::string_view pattern) {
  size_t n = 0;
  for (size_t at = text.find(pattern); at != std::string_view::npos;
       at = text.find(pattern, at + 1)) {
    ++n;
  }
  return n;
}
constexpr int kKeysPerFile = 2500;
constexpr uint64_t kTotalKeys = uint64_t{kFiles} * kKeysPerFile;

// Missing keys strictly inside every file's key range (see WriteFiles).
constexpr uint64_t kFirstMissing = kFiles;
constexpr uint64_t kLastMissing = kTotalKeys - kFiles;  // exclusive

// An upper bound on the mean FP rate of any one filter written by `options`:
// the formula at the nominal bits per key and the probe count the core
// picks. Real filters get at least the nominal bits (sizes round up), so
// their rate is at most this.
double PredictedRate(const RocksDBFilterOptions& options) {
  absl::StatusOr<FilterBuilder> builder = FilterBuilder::Create(
      {.bits_per_key = options.bits_per_key, .layout = options.layout});
  EXPECT_TRUE(builder.ok());
  return PredictedFpRate(options.layout, options.bits_per_key,
                         builder->num_probes());
}

// Every present key is found with its value; every missing one is not.
void ExpectAllReadsCorrect(rocksdb::DB& db, uint64_t step = 1) {
  std::string value;
  for (uint64_t i = 0; i < kTotalKeys; i += step) {
    ASSERT_TRUE(db.Get(rocksdb::ReadOptions(), Key(i), &value).ok()) << Key(i);
    ASSERT_EQ(value, Value(Key(i)));
    ASSERT_TRUE(
        db.Get(rocksdb::ReadOptions(), MissingKey(i), &value).IsNotFound())
        << MissingKey(i);
  }
}

// MultiGet (the batched API RocksDB routes through the batched filter
// query) of `keys`, checked against `present`.
void ExpectMultiGetCorrect(rocksdb::DB& db,
                           const std::vector<std::string>& keys,
                           const std::vector<bool>& present) {
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<rocksdb::PinnableSlice> values(keys.size());
  std::vector<rocksdb::Status> statuses(keys.size());
  db.MultiGet(rocksdb::ReadOptions(), db.DefaultColumnFamily(), keys.size(),
              slices.data(), values.data(), statuses.data());
  for (size_t i = 0; i < keys.size(); ++i) {
    if (present[i]) {
      ASSERT_TRUE(statuses[i].ok()) << keys[i] << statuses[i].ToString();
      ASSERT_EQ(values[i].ToString(), Value(keys[i]));
    } else {
      ASSERT_TRUE(statuses[i].IsNotFound()) << keys[i];
    }
  }
}

// ---------------------------------------------------------------------------
// Point reads, for each layout, full and partitioned filters, with and
// without construction verification.

using ReadParam = std::tuple<Layout, bool /*partitioned*/, bool /*verify*/>;

class BloomgateReadTest : public ::testing::TestWithParam<ReadParam> {
 protected:
  void SetUp() override {
    RegisterRocksDBPlugin();
    filter_options_ = {.bits_per_key = 10, .layout = std::get<0>(GetParam())};
    options_ =
        MakeOptions({.filter_policy = NewRocksDBFilterPolicy(filter_options_),
                     .partitioned = std::get<1>(GetParam()),
                     .detect_construct_corruption = std::get<2>(GetParam())});
    db_ = OpenDb(options_, dir_.path());
    ASSERT_NE(db_, nullptr);
    WriteFiles(*db_, kFiles, kKeysPerFile);
  }

  TempDir dir_;
  RocksDBFilterOptions filter_options_;
  rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
};

TEST_P(BloomgateReadTest, GetFiltersMissingKeys) {
  const bool partitioned = std::get<1>(GetParam());
  for (const auto& [file, props] : AllTableProperties(*db_)) {
    EXPECT_EQ(props->filter_policy_name, "bloomgate");
    // The metaindex files the filter under the CompatibilityName.
    std::ifstream in(file, std::ios::binary);
    const std::string bytes(std::istreambuf_iterator<char>(in), {});
    // One bloomgate block per filter partition, each with its magic; small
    // partitions, so several per file. (Index partitions are no proxy: from
    // RocksDB 10.6 filters are partitioned apart from the index.)
    const size_t blocks = CountOccurrences(bytes, "BGFB");
    if (partitioned) {
      EXPECT_GT(blocks, 1u) << file;
    } else {
      EXPECT_EQ(blocks, 1u) << file;
    }
    EXPECT_NE(bytes.find(partitioned ? "partitionedfilter.bloomgate"
                                     : "fullfilter.bloomgate"),
              std::string::npos)
        << file;
  }
  ASSERT_EQ(AllTableProperties(*db_).size(), size_t{kFiles});
  const uint64_t useful0 = Ticker(options_, rocksdb::BLOOM_FILTER_USEFUL);
  std::string value;
  for (uint64_t i = kFirstMissing; i < kLastMissing; ++i) {
    ASSERT_TRUE(
        db_->Get(rocksdb::ReadOptions(), MissingKey(i), &value).IsNotFound());
  }
  const double checks = double{kFiles} * (kLastMissing - kFirstMissing);
  const uint64_t useful =
      Ticker(options_, rocksdb::BLOOM_FILTER_USEFUL) - useful0;
  const double false_positives = checks - static_cast<double>(useful);
  const double p = PredictedRate(filter_options_);
  EXPECT_LE(false_positives, FpUpperBound(p, checks))
      << "useful " << useful << " of " << checks << " checks";
  EXPECT_GT(useful / checks, 0.98) << "about 99% at 10 bits/key";
  std::cout << "[ measured ] " << LayoutName(std::get<0>(GetParam()))
            << (std::get<1>(GetParam()) ? " partitioned" : " full")
            << ": useful " << useful << " / " << checks << " = "
            << useful / checks << ", predicted FP " << p << "\n";

  // Present keys: the filter passes them all (true positives).
  const uint64_t true_pos0 =
      Ticker(options_, rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE);
  for (uint64_t i = 0; i < kTotalKeys; i += 7) {
    ASSERT_TRUE(db_->Get(rocksdb::ReadOptions(), Key(i), &value).ok());
    ASSERT_EQ(value, Value(Key(i)));
  }
  EXPECT_EQ(
      Ticker(options_, rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE) - true_pos0,
      (kTotalKeys + 6) / 7);
}

TEST_P(BloomgateReadTest, MultiGet) {
  const uint64_t useful0 = Ticker(options_, rocksdb::BLOOM_FILTER_USEFUL);
  // Batches of 40 mixed keys (RocksDB splits them into batches of 32).
  uint64_t missing_asked = 0;
  for (uint64_t start = kFirstMissing; start + 40 < kLastMissing; start += 40) {
    std::vector<std::string> keys;
    std::vector<bool> present;
    for (uint64_t i = start; i < start + 40; ++i) {
      const bool p = (i % 4 == 0);
      keys.push_back(p ? Key(i) : MissingKey(i));
      present.push_back(p);
      missing_asked += !p;
    }
    ExpectMultiGetCorrect(*db_, keys, present);
  }
  const uint64_t useful =
      Ticker(options_, rocksdb::BLOOM_FILTER_USEFUL) - useful0;
  EXPECT_GT(static_cast<double>(useful), 0.98 * kFiles * missing_asked);
}

TEST_P(BloomgateReadTest, FlushCompactionReopen) {
  // Overwrite and delete some keys, compact everything into one level.
  for (uint64_t i = 0; i < kTotalKeys; i += 10) {
    ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), Key(i), Value(Key(i))).ok());
  }
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  ASSERT_TRUE(
      db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
  ExpectAllReadsCorrect(*db_, 3);

  for (const auto& [name, props] : AllTableProperties(*db_)) {
    EXPECT_EQ(props->filter_policy_name, "bloomgate") << name;
    EXPECT_GT(props->filter_size, 0u);
    // One entry per distinct key (EstimateEntriesAdded).
    EXPECT_EQ(props->num_filter_entries, props->num_entries) << name;
  }

  db_.reset();
  db_ = OpenDb(options_, dir_.path());
  ASSERT_NE(db_, nullptr);
  const uint64_t useful0 = Ticker(options_, rocksdb::BLOOM_FILTER_USEFUL);
  ExpectAllReadsCorrect(*db_, 3);
  EXPECT_GT(Ticker(options_, rocksdb::BLOOM_FILTER_USEFUL) - useful0,
            kTotalKeys / 3 * 98 / 100);
}

INSTANTIATE_TEST_SUITE_P(
    Configurations, BloomgateReadTest,
    ::testing::Combine(::testing::Values(Layout::kBlocked, Layout::kStandard),
                       ::testing::Bool(), ::testing::Bool()),
    [](const ::testing::TestParamInfo<ReadParam>& info) {
      return std::string(LayoutName(std::get<0>(info.param))) +
             (std::get<1>(info.param) ? "_partitioned" : "_full") +
             (std::get<2>(info.param) ? "_verified" : "");
    });

// ---------------------------------------------------------------------------

class BloomgateDbTest : public ::testing::Test {
 protected:
  void SetUp() override { RegisterRocksDBPlugin(); }
  TempDir dir_;
};

// Data-block reads for missing keys, with bloomgate and with no filter, on
// the same data. No block cache, so every data block access is a read.
TEST_F(BloomgateDbTest, FilterSavesDataBlockReads) {
  struct Run {
    uint64_t block_reads = 0;  // data blocks only
    uint64_t useful = 0;       // BLOOM_FILTER_USEFUL
    uint64_t filter_hits = 0;  // PerfContext: filter checks that passed
  };
  auto run = [&](std::shared_ptr<const rocksdb::FilterPolicy> policy,
                 const std::string& path) {
    rocksdb::Options options = MakeOptions(
        {.filter_policy = std::move(policy), .no_block_cache = true});
    auto db = OpenDb(options, path);
    WriteFiles(*db, kFiles, kKeysPerFile);
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
    rocksdb::get_perf_context()->Reset();
    std::string value;
    for (uint64_t i = kFirstMissing; i < kLastMissing; ++i) {
      EXPECT_TRUE(
          db->Get(rocksdb::ReadOptions(), MissingKey(i), &value).IsNotFound());
    }
    const rocksdb::PerfContext& perf = *rocksdb::get_perf_context();
    Run r{perf.block_read_count - perf.index_block_read_count -
              perf.filter_block_read_count,
          Ticker(options, rocksdb::BLOOM_FILTER_USEFUL),
          perf.bloom_sst_hit_count};
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
    return r;
  };
  const Run with_filter = run(NewRocksDBFilterPolicy(), dir_.Sub("bloomgate"));
  const Run without = run(nullptr, dir_.Sub("none"));

  const double checks = double{kFiles} * (kLastMissing - kFirstMissing);
  // Without a filter every file check reads at least one data block (two
  // when the key falls between a block's last key and its index separator).
  EXPECT_GE(static_cast<double>(without.block_reads), checks);
  EXPECT_EQ(without.useful, 0u);
  const double reads_per_check = without.block_reads / checks;
  // With bloomgate every check is filtered or passes; only the passes
  // (false positives) read, at the same rate per check.
  EXPECT_EQ(static_cast<double>(with_filter.useful + with_filter.filter_hits),
            checks);
  const double p = PredictedRate({});
  EXPECT_LE(static_cast<double>(with_filter.filter_hits),
            FpUpperBound(p, checks));
  EXPECT_LE(static_cast<double>(with_filter.block_reads),
            FpUpperBound(p, checks) * reads_per_check);
  std::cout << "[ measured ] data-block reads for " << checks
            << " missing-key file checks: no filter " << without.block_reads
            << ", bloomgate " << with_filter.block_reads << " (useful "
            << with_filter.useful << ", passed " << with_filter.filter_hits
            << ")\n";
}

// Seeks a prefix filter ruled out (the tickers changed in RocksDB 8.3).
uint64_t SeeksFiltered(const rocksdb::Options& options) {
#if BLOOMGATE_ROCKSDB_HAS_SEEK_FILTER_TICKERS
  return Ticker(options, rocksdb::LAST_LEVEL_SEEK_FILTERED) +
         Ticker(options, rocksdb::NON_LAST_LEVEL_SEEK_FILTERED);
#else
  return Ticker(options, rocksdb::BLOOM_FILTER_PREFIX_USEFUL);
#endif
}
// Seeks a prefix filter was asked about.
uint64_t SeeksChecked(const rocksdb::Options& options) {
#if BLOOMGATE_ROCKSDB_HAS_SEEK_FILTER_TICKERS
  return SeeksFiltered(options) +
         Ticker(options, rocksdb::LAST_LEVEL_SEEK_FILTER_MATCH) +
         Ticker(options, rocksdb::NON_LAST_LEVEL_SEEK_FILTER_MATCH);
#else
  return Ticker(options, rocksdb::BLOOM_FILTER_PREFIX_CHECKED);
#endif
}
// Gets a filter ruled out, by whole key or (without `whole_key` filtering)
// by prefix.
uint64_t GetsFiltered(const rocksdb::Options& options, bool whole_key) {
#if BLOOMGATE_ROCKSDB_HAS_SEEK_FILTER_TICKERS
  if (!whole_key) return Ticker(options, rocksdb::BLOOM_FILTER_PREFIX_USEFUL);
#endif
  (void)whole_key;
  return Ticker(options, rocksdb::BLOOM_FILTER_USEFUL);
}

TEST_F(BloomgateDbTest, PrefixFilters) {
  for (bool whole_key : {false, true}) {
    SCOPED_TRACE(whole_key ? "whole key and prefix" : "prefix only");
    TempDir dir;
    rocksdb::Options options =
        MakeOptions({.filter_policy = NewRocksDBFilterPolicy()});
    rocksdb::BlockBasedTableOptions table_options =
        *options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
    table_options.whole_key_filtering = whole_key;
    options.table_factory.reset(
        rocksdb::NewBlockBasedTableFactory(table_options));
    options.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(5));
    auto db = OpenDb(options, dir.path());
    ASSERT_NE(db, nullptr);

    // Prefixes "p0000".."p0798" (even) hold 10 keys each, in 3 files.
    auto prefix = [](int p) {
      char buf[16];
      std::snprintf(buf, sizeof(buf), "p%04d", p);
      return std::string(buf);
    };
    for (int f = 0; f < 3; ++f) {
      for (int p = 2 * f; p < 800; p += 6) {
        for (int k = 0; k < 10; ++k) {
          const std::string key = prefix(p) + "-" + std::to_string(k);
          ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, Value(key)).ok());
        }
      }
      ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
    }

    rocksdb::ReadOptions ro;
    ro.prefix_same_as_start = true;
    const uint64_t checked0 = SeeksChecked(options);
    const uint64_t useful0 = SeeksFiltered(options);
    int missing_prefixes = 0;
    for (int p = 1; p < 799; ++p) {
      std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro));
      int found = 0;
      for (it->Seek(prefix(p)); it->Valid(); it->Next()) {
        ASSERT_TRUE(it->key().starts_with(prefix(p)));
        ASSERT_EQ(it->value().ToString(), Value(it->key().ToString()));
        ++found;
      }
      ASSERT_TRUE(it->status().ok());
      ASSERT_EQ(found, p % 2 == 0 ? 10 : 0) << prefix(p);
      missing_prefixes += p % 2;
    }
    const uint64_t checked = SeeksChecked(options) - checked0;
    const uint64_t useful = SeeksFiltered(options) - useful0;
    EXPECT_GT(checked, 0u);
    // Each missing prefix is rejected by (nearly) all 3 files' filters.
    EXPECT_GT(static_cast<double>(useful), 0.95 * 3 * missing_prefixes)
        << "prefix filter not taking effect? checked " << checked;

    // Point lookups of absent keys under absent prefixes are filtered too.
    const uint64_t get_useful0 = GetsFiltered(options, whole_key);
    std::string value;
    for (int p = 1; p < 799; p += 2) {
      ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), prefix(p) + "-3", &value)
                      .IsNotFound());
    }
    for (int p = 0; p < 799; p += 2) {
      ASSERT_TRUE(
          db->Get(rocksdb::ReadOptions(), prefix(p) + "-3", &value).ok());
    }
    EXPECT_GT(GetsFiltered(options, whole_key) - get_useful0, 0.95 * 3 * 399);
  }
}

TEST_F(BloomgateDbTest, SstFileWriterAndIngestion) {
  rocksdb::Options options = MakeOptions(
      {.filter_policy = NewRocksDBFilterPolicy({.layout = Layout::kStandard})});
  const std::string sst = dir_.Sub("external.sst");
  {
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
    ASSERT_TRUE(writer.Open(sst).ok());
    for (uint64_t i = 0; i < kTotalKeys; ++i) {
      ASSERT_TRUE(writer.Put(Key(i), Value(Key(i))).ok());
    }
    rocksdb::ExternalSstFileInfo info;
    ASSERT_TRUE(writer.Finish(&info).ok());
    EXPECT_EQ(info.num_entries, kTotalKeys);
  }
  auto db = OpenDb(options, dir_.Sub("db"));
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(
      db->IngestExternalFile({sst}, rocksdb::IngestExternalFileOptions()).ok());
  const auto props = AllTableProperties(*db);
  ASSERT_EQ(props.size(), 1u);
  EXPECT_EQ(props.begin()->second->filter_policy_name, "bloomgate");

  const uint64_t useful0 = Ticker(options, rocksdb::BLOOM_FILTER_USEFUL);
  ExpectAllReadsCorrect(*db, 5);
  EXPECT_GT(Ticker(options, rocksdb::BLOOM_FILTER_USEFUL) - useful0,
            kTotalKeys / 5 * 98 / 100);
}

// A DB moves from bloomgate to RocksDB's built-in Bloom filter, to no filter,
// and back: every configuration reads every file correctly; each policy uses
// only the filters of its own family, and compaction rewrites them.
TEST_F(BloomgateDbTest, SwitchingPoliciesKeepsResultsCorrect) {
  const std::string path = dir_.Sub("db");
  auto filtered_share = [](const rocksdb::Options& options, auto&& reads) {
    const uint64_t useful0 = Ticker(options, rocksdb::BLOOM_FILTER_USEFUL);
    reads();
    return Ticker(options, rocksdb::BLOOM_FILTER_USEFUL) - useful0;
  };
  auto policy_names = [](rocksdb::DB& db) {
    std::vector<std::string> names;
    for (const auto& [file, props] : AllTableProperties(db)) {
      names.push_back(props->filter_policy_name);
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
  };
  using Names = std::vector<std::string>;

  // 1. Written with bloomgate.
  {
    rocksdb::Options options =
        MakeOptions({.filter_policy = NewRocksDBFilterPolicy()});
    auto db = OpenDb(options, path);
    WriteFiles(*db, kFiles, kKeysPerFile);
    EXPECT_EQ(policy_names(*db), Names{"bloomgate"});
  }
  // 2. Read with the built-in Bloom filter: correct, but unfiltered.
  {
    rocksdb::Options options = MakeOptions(
        {.filter_policy = std::shared_ptr<const rocksdb::FilterPolicy>(
             rocksdb::NewBloomFilterPolicy(10))});
    auto db = OpenDb(options, path);
    ASSERT_NE(db, nullptr);
    EXPECT_EQ(filtered_share(options, [&] { ExpectAllReadsCorrect(*db, 3); }),
              0u);
    // Compaction rewrites the files with built-in filters, now used.
    ASSERT_TRUE(
        db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr)
            .ok());
    EXPECT_EQ(policy_names(*db), Names{"bloomfilter"});
    EXPECT_GT(filtered_share(options, [&] { ExpectAllReadsCorrect(*db, 3); }),
              0u);
  }
  // 3. Read with no filter at all.
  {
    rocksdb::Options options = MakeOptions({.filter_policy = nullptr});
    auto db = OpenDb(options, path);
    ASSERT_NE(db, nullptr);
    ExpectAllReadsCorrect(*db, 3);
  }
  // 4. Back to bloomgate (configured differently from step 1): the built-in
  // files read correctly without filtering; new files are filtered; after a
  // compaction everything is bloomgate again.
  {
    rocksdb::Options options =
        MakeOptions({.filter_policy = NewRocksDBFilterPolicy(
                         {.bits_per_key = 6, .layout = Layout::kStandard})});
    auto db = OpenDb(options, path);
    ASSERT_NE(db, nullptr);
    EXPECT_EQ(filtered_share(options, [&] { ExpectAllReadsCorrect(*db, 3); }),
              0u);
    // The data is one bottommost file now: force its rewrite.
    rocksdb::CompactRangeOptions force;
    force.bottommost_level_compaction =
        rocksdb::BottommostLevelCompaction::kForce;
    ASSERT_TRUE(db->CompactRange(force, nullptr, nullptr).ok());
    EXPECT_EQ(policy_names(*db), Names{"bloomgate"});
    EXPECT_GT(filtered_share(options, [&] { ExpectAllReadsCorrect(*db, 3); }),
              kTotalKeys / 3 * 9 / 10);
  }
  // 5. A bloomgate policy of yet another configuration reads the filters
  // written in step 4.
  {
    rocksdb::Options options =
        MakeOptions({.filter_policy = NewRocksDBFilterPolicy(
                         {.bits_per_key = 20, .layout = Layout::kBlocked})});
    auto db = OpenDb(options, path);
    ASSERT_NE(db, nullptr);
    EXPECT_GT(filtered_share(options, [&] { ExpectAllReadsCorrect(*db, 3); }),
              kTotalKeys / 3 * 9 / 10);
  }
}

// ---------------------------------------------------------------------------
// detect_filter_construct_corruption: a filter damaged in memory between
// Finish and the write fails the flush instead of reaching disk.

// bloomgate's builder, with one byte of every finished block flipped.
class CorruptingBuilder : public rocksdb::FilterBitsBuilder {
 public:
  explicit CorruptingBuilder(rocksdb::FilterBitsBuilder* inner)
      : inner_(inner) {}
  void AddKey(const rocksdb::Slice& key) override { inner_->AddKey(key); }
  size_t EstimateEntriesAdded() override {
    return inner_->EstimateEntriesAdded();
  }
  rocksdb::Slice Finish(std::unique_ptr<const char[]>* buf) override {
    return Finish(buf, nullptr);
  }
  rocksdb::Slice Finish(std::unique_ptr<const char[]>* buf,
                        rocksdb::Status* status) override {
    rocksdb::Slice block = inner_->Finish(buf, status);
    // The buffer was allocated writable by the adapter; const is RocksDB's.
    const_cast<char*>(block.data())[block.size() / 2] ^= 0x40;
    return block;
  }
  rocksdb::Status MaybePostVerify(const rocksdb::Slice& content) override {
    return inner_->MaybePostVerify(content);
  }
  size_t ApproximateNumEntries(size_t bytes) override {
    return inner_->ApproximateNumEntries(bytes);
  }
#if BLOOMGATE_ROCKSDB_HAS_ADD_KEY_AND_ALT
  void AddKeyAndAlt(const rocksdb::Slice& key,
                    const rocksdb::Slice& alt) override {
    inner_->AddKeyAndAlt(key, alt);
  }
#endif
#if BLOOMGATE_ROCKSDB_BUILDER_HAS_SPACE
  size_t CalculateSpace(size_t num_entries) override {
    return inner_->CalculateSpace(num_entries);
  }
  double EstimatedFpRate(size_t num_entries, size_t bytes) override {
    return inner_->EstimatedFpRate(num_entries, bytes);
  }
#endif

 private:
  std::unique_ptr<rocksdb::FilterBitsBuilder> inner_;
};

class CorruptingPolicy : public rocksdb::FilterPolicy {
 public:
  const char* Name() const override { return "bloomgate_test_corrupting"; }
  const char* CompatibilityName() const override {
    return inner_->CompatibilityName();
  }
  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& context) const override {
    return new CorruptingBuilder(inner_->GetBuilderWithContext(context));
  }
  rocksdb::FilterBitsReader* GetFilterBitsReader(
      const rocksdb::Slice& contents) const override {
    return inner_->GetFilterBitsReader(contents);
  }

 private:
  std::shared_ptr<const rocksdb::FilterPolicy> inner_ =
      NewRocksDBFilterPolicy();
};

TEST_F(BloomgateDbTest, ConstructionCorruptionIsDetectedWhenAsked) {
  for (bool partitioned : {false, true}) {
    SCOPED_TRACE(partitioned ? "partitioned" : "full");
    TempDir detect_dir;
    const rocksdb::Options detect =
        MakeOptions({.filter_policy = std::make_shared<CorruptingPolicy>(),
                     .partitioned = partitioned,
                     .detect_construct_corruption = true});
    auto db = OpenDb(detect, detect_dir.path());
    ASSERT_NE(db, nullptr);
    for (uint64_t i = 0; i < 2000; ++i) {
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), Key(i), Value(Key(i))).ok());
    }
    const rocksdb::Status s = db->Flush(rocksdb::FlushOptions());
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    db.reset();

    // Without the option the damaged filter is written; reading it degrades
    // to "may match" and results stay correct.
    TempDir plain_dir;
    const rocksdb::Options plain =
        MakeOptions({.filter_policy = std::make_shared<CorruptingPolicy>(),
                     .partitioned = partitioned});
    db = OpenDb(plain, plain_dir.path());
    ASSERT_NE(db, nullptr);
    WriteFiles(*db, 1, 2000);
    std::string value;
    for (uint64_t i = 0; i < 2000; i += 3) {
      ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), Key(i), &value).ok());
      ASSERT_TRUE(
          db->Get(rocksdb::ReadOptions(), MissingKey(i), &value).IsNotFound());
    }
    EXPECT_EQ(Ticker(plain, rocksdb::BLOOM_FILTER_USEFUL), 0u);
  }
}

// ---------------------------------------------------------------------------
// A filter block damaged on disk: results stay correct, the filter simply
// stops filtering.

class DamagedFilterTest
    : public ::testing::TestWithParam<rocksdb::ChecksumType> {};

TEST_P(DamagedFilterTest, FlippedBytesOnDiskStillGiveCorrectResults) {
  RegisterRocksDBPlugin();
  TempDir dir;
  const rocksdb::Options options = MakeOptions(
      {.filter_policy = NewRocksDBFilterPolicy(), .checksum = GetParam()});
  uint64_t filter_offset = 0;
  uint64_t filter_size = 0;
  {
    auto db = OpenDb(options, dir.path());
    ASSERT_NE(db, nullptr);
    WriteFiles(*db, /*num_files=*/1, static_cast<int>(kTotalKeys));
    const auto props = AllTableProperties(*db);
    ASSERT_EQ(props.size(), 1u);
    // The full filter block follows the data blocks (and their trailers).
    filter_offset = props.begin()->second->data_size;
    filter_size = props.begin()->second->filter_size;
  }
  std::string sst;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    if (entry.path().extension() == ".sst") sst = entry.path().string();
  }
  ASSERT_FALSE(sst.empty());
  std::string bytes;
  {
    std::ifstream in(sst, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  ASSERT_LE(filter_offset + filter_size, bytes.size());
  // Make sure these are the filter's bytes before damaging them.
  std::string_view block(bytes.data() + filter_offset, filter_size);
  const FilterReader before(block);
  ASSERT_FALSE(before.degraded()) << before.status();
  ASSERT_EQ(before.num_keys(), kTotalKeys);
  // Clear bytes of the bit array: without the block checksum this would turn
  // into false negatives.
  for (uint64_t pos = 0; pos < filter_size / 2; pos += 97) {
    bytes[filter_offset + pos] = 0;
  }
  ASSERT_TRUE(
      FilterReader(std::string_view(bytes.data() + filter_offset, filter_size))
          .degraded());
  {
    std::ofstream out(sst, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }

  auto db = OpenDb(options, dir.path());
  ASSERT_NE(db, nullptr);
  const uint64_t useful0 = Ticker(options, rocksdb::BLOOM_FILTER_USEFUL);
  ExpectAllReadsCorrect(*db);
  std::vector<std::string> keys;
  std::vector<bool> present;
  for (uint64_t i = 100; i < 140; ++i) {
    keys.push_back(i % 2 ? Key(i) : MissingKey(i));
    present.push_back(i % 2);
  }
  ExpectMultiGetCorrect(*db, keys, present);
  // Degraded to "may match": nothing filtered.
  EXPECT_EQ(Ticker(options, rocksdb::BLOOM_FILTER_USEFUL) - useful0, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Checksums, DamagedFilterTest,
    // kNoChecksum: RocksDB hands the damaged bytes to bloomgate's reader,
    // which rejects them by its own checksum. kCRC32c: RocksDB rejects the
    // block first and runs without the filter.
    ::testing::Values(rocksdb::kNoChecksum, rocksdb::kCRC32c),
    [](const ::testing::TestParamInfo<rocksdb::ChecksumType>& info) {
      return info.param == rocksdb::kNoChecksum ? std::string("NoChecksum")
                                                : std::string("Crc32c");
    });

}  // namespace
}  // namespace bloomgate::testing_rocksdb
