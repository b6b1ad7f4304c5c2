// Copyright 2026 The bloomgate Authors.
//
// Filter microbenchmarks: bloomgate's two layouts against RocksDB's own Bloom
// (NewBloomFilterPolicy, FastLocalBloom) and Ribbon (NewRibbonFilterPolicy)
// filters, all four driven through RocksDB's FilterBitsBuilder and
// FilterBitsReader interface, in one binary and one run.
//
// Filters (filter_names.h): bloomgate, blocked, under the SIMD kernel chosen
// at run time (bloomgate/simd.h; BLOOMGATE_SIMD forces one), bloomgate_avx2
// and bloomgate_scalar under those kernels forced (each narrower kernel
// the CPU has), bloomgate_standard, rocksdb_bloom and rocksdb_ribbon. The
// context printed first names the kernel, the RocksDB release and the CPU the
// run is pinned to (cpu_pin.h: --bloomgate_cpu).
//
// Names: <Phase>/<filter>/<keys>, Phase one of
//   Build               AddKey for every key, then Finish (hashing included)
//   QueryNegative       MayMatch, one key at a time, keys never added
//   QueryPositive       MayMatch, one key at a time, added keys
//   QueryNegativeBatch  the batched MayMatch MultiGet uses, 32 keys a call
// Key counts: 10^4, 10^6 and 10^7, or --bloomgate_keys=10000,1e8,... .
// Keys are 16 random bytes in one flat buffer; queries visit them in random
// order. Counters: ns_per_key; fp_rate, measured over 2^22 absent keys;
// bits_per_key, the block's whole size (metadata included) per key.
// The run ends with a table of ratios against rocksdb_bloom (ratio_reporter).
//
// --bloomgate_breakdown adds stub readers to the absent-key query phases,
// to show where a query's time goes: harness_only answers without looking
// at the key (the loop, the virtual call, the key's load); the *_hash_only
// ones answer with the top bit of the key's hash, bloomgate's XXH3 inlined
// as its kernel readers hash, and RocksDB's Hash64 as its reader calls it.
// A filter's row less its hash's row is its line and probe.

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "benchmark/benchmark.h"
#include "benchmarks/cpu_pin.h"
#include "benchmarks/filter_names.h"
#include "benchmarks/ratio_reporter.h"
#if BLOOMGATE_HAVE_ROCKSDB_AVX2_BLOOM
#include "benchmarks/rocksdb_avx2_bloom.h"
#endif
#include "benchmarks/filter_names.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/filter_spec.h"
#include "bloomgate/simd.h"
#include "rocksdb/version.h"
#include "src/filter/xxh3.h"
#include "src/rocksdb/spec_filter_policy.h"

namespace bloomgate::bench {
namespace {

constexpr size_t kKeySize = 16;
constexpr double kBitsPerKey = 10.0;
constexpr size_t kProbeKeys = size_t{1} << 20;  // absent keys queried
// Absent keys checked for the fp_rate counter: at 1% FP its standard error
// is 0.005 percentage points, small enough to compare two filters' rates.
constexpr size_t kFpSampleKeys = size_t{1} << 22;
constexpr size_t kQueriesPerIteration = 1024;
constexpr int kMultiGetBatch = 32;  // RocksDB's MultiGet batch size

// n keys of kKeySize random bytes, back to back.
class KeySet {
 public:
  KeySet(size_t n, uint64_t seed) : bytes_(n * kKeySize, '\0') {
    std::mt19937_64 rng(seed);
    for (size_t i = 0; i < bytes_.size(); i += 8) {
      const uint64_t r = rng();
      std::memcpy(&bytes_[i], &r, 8);
    }
  }
  size_t size() const { return bytes_.size() / kKeySize; }
  rocksdb::Slice operator[](size_t i) const {
    return rocksdb::Slice(bytes_.data() + i * kKeySize, kKeySize);
  }
  // A copy of `count` keys picked at random, in random order.
  KeySet Sample(size_t count, uint64_t seed) const {
    std::vector<size_t> index(size());
    std::iota(index.begin(), index.end(), 0);
    std::shuffle(index.begin(), index.end(), std::mt19937_64(seed));
    KeySet sample(0, 0);
    sample.bytes_.resize(std::min(count, size()) * kKeySize);
    for (size_t i = 0; i < sample.size(); ++i) {
      std::memcpy(&sample.bytes_[i * kKeySize],
                  bytes_.data() + index[i] * kKeySize, kKeySize);
    }
    return sample;
  }

 private:
  std::string bytes_;
};

// One column of the comparison. bloomgate's blocked filter runs under the
// kernel the process chose at run time, and again under each narrower
// kernel the CPU has, forced, so that every kernel stands next to RocksDB's
// filters in the same run.
struct Filter {
  std::string name;
  FilterSpec spec;
  std::optional<SimdKernel> kernel = std::nullopt;  // forced while it runs
  // RocksDB's Bloom builder, its query compiled with AVX2.
  bool rocksdb_avx2_query = false;
  // A stub reader of --bloomgate_breakdown (not a filter).
  enum class Stub { kNone, kHarness, kBloomgateHash, kRocksdbHash };
  Stub stub = Stub::kNone;
};

std::vector<Filter> AllFilters() {
  const FilterSpec blocked{.bits_per_key = kBitsPerKey};
  std::vector<Filter> filters = {
      {.name = BenchFilterName(blocked), .spec = blocked}};
  for (SimdKernel kernel : {SimdKernel::kAvx2, SimdKernel::kScalar}) {
    if (kernel < ActiveSimdKernel() && SimdKernelSupported(kernel)) {
      filters.push_back(
          {BenchFilterName(blocked, SimdKernelName(kernel)), blocked, kernel});
    }
  }
  const FilterSpec standard{.bits_per_key = kBitsPerKey,
                            .layout = Layout::kStandard};
  filters.push_back({.name = BenchFilterName(standard), .spec = standard});
  FilterSpec rocksdb_bloom = kRocksdbBloomSpec;
  rocksdb_bloom.bits_per_key = kBitsPerKey;
  filters.push_back(
      {.name = BenchFilterName(rocksdb_bloom), .spec = rocksdb_bloom});
#if BLOOMGATE_HAVE_ROCKSDB_AVX2_BLOOM
  if (SimdKernelSupported(SimdKernel::kAvx2)) {
    filters.push_back({.name = BenchFilterName(rocksdb_bloom, kAvx2Variant),
                       .spec = rocksdb_bloom,
                       .rocksdb_avx2_query = true});
  }
#endif
  const FilterSpec rocksdb_ribbon{.family = FilterFamily::kRocksDBRibbon,
                                  .bits_per_key = kBitsPerKey};
  filters.push_back(
      {.name = BenchFilterName(rocksdb_ribbon), .spec = rocksdb_ribbon});
  return filters;
}

// The stubs of --bloomgate_breakdown, all queried through RocksDB's
// interface as the filters are.
std::vector<Filter> BreakdownStubs() {
  std::vector<Filter> stubs = {
      {.name = "harness_only", .spec = {}, .stub = Filter::Stub::kHarness},
      {.name = "bloomgate_hash_only",
       .spec = {},
       .stub = Filter::Stub::kBloomgateHash}};
#if BLOOMGATE_HAVE_ROCKSDB_AVX2_BLOOM
  stubs.push_back({.name = "rocksdb_hash_only",
                   .spec = {},
                   .stub = Filter::Stub::kRocksdbHash});
#endif
  return stubs;
}

// Answers kAnswer(key) for every key, single or batched.
template <bool (*kAnswer)(const rocksdb::Slice&)>
class StubReader final : public rocksdb::FilterBitsReader {
 public:
  bool MayMatch(const rocksdb::Slice& key) override { return kAnswer(key); }
  void MayMatch(int num_keys, rocksdb::Slice** keys, bool* may_match) override {
    for (int i = 0; i < num_keys; ++i) may_match[i] = kAnswer(*keys[i]);
  }
};

bool EmptyKey(const rocksdb::Slice& key) { return key.size() == 0; }
// Flattened, as the kernel readers are, so that XXH3 is inlined.
[[gnu::flatten]] bool Xxh3TopBit(const rocksdb::Slice& key) {
  return XXH3_64bits(key.data(), key.size()) >> 63;
}

std::unique_ptr<rocksdb::FilterBitsReader> NewStubReader(Filter::Stub stub) {
  switch (stub) {
    case Filter::Stub::kHarness:
      return std::make_unique<StubReader<EmptyKey>>();
    case Filter::Stub::kBloomgateHash:
      return std::make_unique<StubReader<Xxh3TopBit>>();
#if BLOOMGATE_HAVE_ROCKSDB_AVX2_BLOOM
    case Filter::Stub::kRocksdbHash:
      return NewRocksdbHashOnlyReader();
#endif
    default:
      return nullptr;
  }
}

// Makes a filter's kernel the active one while it lives.
class ScopedKernel {
 public:
  explicit ScopedKernel(const Filter& filter) : saved_(ActiveSimdKernel()) {
    if (filter.kernel) {
      const absl::Status status = SetSimdKernel(*filter.kernel);
      if (!status.ok()) std::abort();  // AllFilters lists supported ones
    }
  }
  ~ScopedKernel() { (void)SetSimdKernel(saved_); }
  ScopedKernel(const ScopedKernel&) = delete;
  ScopedKernel& operator=(const ScopedKernel&) = delete;

 private:
  SimdKernel saved_;
};

std::unique_ptr<rocksdb::FilterBitsReader> NewReader(
    const Filter& filter, const rocksdb::Slice& block) {
  if (filter.stub != Filter::Stub::kNone) return NewStubReader(filter.stub);
#if BLOOMGATE_HAVE_ROCKSDB_AVX2_BLOOM
  if (filter.rocksdb_avx2_query) return NewRocksdbAvx2BloomReader(block);
#endif
  ScopedKernel kernel(filter);
  return rocksdb_internal::NewSpecBitsReader(filter.spec, block);
}

// The data every benchmark of one key count shares, made once.
struct Keys {
  explicit Keys(size_t n)
      : added(n, /*seed=*/n),
        absent(kProbeKeys, /*seed=*/~n),
        positive_queries(added.Sample(kProbeKeys, /*seed=*/n + 1)),
        absent_slices(absent.size()),
        absent_pointers(absent.size()) {
    for (size_t i = 0; i < absent.size(); ++i) {
      absent_slices[i] = absent[i];
      absent_pointers[i] = &absent_slices[i];
    }
  }
  KeySet added;
  KeySet absent;
  KeySet positive_queries;
  // MultiGet's view of `absent`, made once and shared like the keys, so that
  // every filter's batches read the same 24 MB. (Allocated anew for every
  // benchmark, its placement alone made one build's batches at 10^6 keys
  // 1.5x slower than another's: 7.5-7.7 against 4.9-6.6 ns a key.)
  std::vector<rocksdb::Slice> absent_slices;
  std::vector<rocksdb::Slice*> absent_pointers;
};

// Where every filter's block sits, in bytes past a 64-byte boundary
// (--bloomgate_block_offset). Both Bloom filters read 64-byte lines, which
// span two cache lines unless the block is aligned; left to the builders'
// allocations, the offsets came out 0, 16, 32 or 48 by filter and key count,
// so one side of a ratio could read twice the cache lines of the other.
// RocksDB's block cache places a block where its allocator does: jemalloc
// aligns blocks of 4 KiB and more to pages; glibc's malloc gives 16 past a
// boundary (or a random multiple of 16 for blocks under its mmap threshold).
size_t block_offset = 0;

// Whether blocks lie in 2 MiB pages (--bloomgate_huge_pages): beyond the
// caches a query's page walk is part of its wait, and the same for every
// filter, so it shows how much of a ratio is the memory's.
bool huge_pages = false;

// A copy of `block` at block_offset past a 64-byte boundary, in 2 MiB pages
// if huge_pages (madvise(MADV_HUGEPAGE), which the kernel may refuse).
struct PlacedBlock {
  explicit PlacedBlock(const rocksdb::Slice& block) {
    constexpr size_t kHugePage = size_t{2} << 20;
    const size_t alignment = huge_pages ? kHugePage : 64;
    const size_t bytes =
        (block.size() + 64 + alignment - 1) / alignment * alignment;
    storage.reset(static_cast<char*>(std::aligned_alloc(alignment, bytes)));
    if (storage == nullptr) std::abort();
    if (huge_pages) (void)madvise(storage.get(), bytes, MADV_HUGEPAGE);
    char* start = storage.get() + block_offset;
    std::memcpy(start, block.data(), block.size());
    data = rocksdb::Slice(start, block.size());
  }
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> storage;
  rocksdb::Slice data;
};

struct BuiltFilter {
  std::unique_ptr<PlacedBlock> placed;
  std::unique_ptr<rocksdb::FilterBitsReader> reader;
  double fp_rate = 0;
  double bits_per_key = 0;
};

Keys& KeysFor(size_t n) {
  static auto* cache = new std::map<size_t, std::unique_ptr<Keys>>;
  auto& slot = (*cache)[n];
  if (!slot) slot = std::make_unique<Keys>(n);
  return *slot;
}

rocksdb::Slice Build(const Filter& filter, const KeySet& keys,
                     std::unique_ptr<const char[]>* buffer) {
  ScopedKernel kernel(filter);
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder =
      rocksdb_internal::NewSpecBitsBuilder(filter.spec);
  for (size_t i = 0; i < keys.size(); ++i) builder->AddKey(keys[i]);
  return builder->Finish(buffer);
}

BuiltFilter& FilterFor(const Filter& filter, size_t n) {
  static auto* cache = new std::map<std::pair<std::string, size_t>,
                                    std::unique_ptr<BuiltFilter>>;
  auto& slot = (*cache)[{filter.name, n}];
  if (slot) return *slot;
  slot = std::make_unique<BuiltFilter>();
  const Keys& keys = KeysFor(n);
  std::unique_ptr<const char[]> buffer;
  slot->placed =
      std::make_unique<PlacedBlock>(Build(filter, keys.added, &buffer));
  const rocksdb::Slice& block = slot->placed->data;
  slot->reader = NewReader(filter, block);
  if (slot->reader == nullptr) {
    std::fprintf(stderr, "%s: no reader for the block its builder wrote\n",
                 filter.name.c_str());
    std::abort();
  }
  // Random 16-byte keys, made as they are checked: absent from the filter
  // but for a chance of n / 2^128.
  std::mt19937_64 rng(~n + 1);
  size_t positives = 0;
  for (size_t i = 0; i < kFpSampleKeys; ++i) {
    const uint64_t key[kKeySize / sizeof(uint64_t)] = {rng(), rng()};
    positives += slot->reader->MayMatch(
        rocksdb::Slice(reinterpret_cast<const char*>(key), sizeof(key)));
  }
  slot->fp_rate = static_cast<double>(positives) / kFpSampleKeys;
  slot->bits_per_key = 8.0 * block.size() / n;
  return *slot;
}

void SetCounters(benchmark::State& state, const BuiltFilter& built,
                 size_t keys_processed) {
  state.counters["ns_per_key"] = benchmark::Counter(
      static_cast<double>(keys_processed),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["fp_rate"] = built.fp_rate;
  state.counters["bits_per_key"] = built.bits_per_key;
  state.SetItemsProcessed(static_cast<int64_t>(keys_processed));
}

void BM_Build(benchmark::State& state, const Filter& filter, size_t n) {
  const KeySet& keys = KeysFor(n).added;
  const BuiltFilter& built = FilterFor(filter, n);
  for (auto _ : state) {
    std::unique_ptr<const char[]> buffer;
    rocksdb::Slice block = Build(filter, keys, &buffer);
    benchmark::DoNotOptimize(block.data());
  }
  SetCounters(state, built, state.iterations() * n);
}

void BM_Query(benchmark::State& state, const Filter& filter, size_t n,
              bool positive) {
  const Keys& keys = KeysFor(n);
  const KeySet& queries = positive ? keys.positive_queries : keys.absent;
  BuiltFilter& built = FilterFor(filter, n);
  rocksdb::FilterBitsReader* reader = built.reader.get();
  size_t next = 0;
  size_t matches = 0;
  for (auto _ : state) {
    for (size_t i = 0; i < kQueriesPerIteration; ++i) {
      matches += reader->MayMatch(queries[next]);
      if (++next == queries.size()) next = 0;
    }
  }
  benchmark::DoNotOptimize(matches);
  const size_t processed = state.iterations() * kQueriesPerIteration;
  if (positive && matches != processed) {
    state.SkipWithError("false negative: an added key was rejected");
  }
  SetCounters(state, built, processed);
}

void BM_QueryBatch(benchmark::State& state, const Filter& filter, size_t n) {
  std::vector<rocksdb::Slice*>& pointers = KeysFor(n).absent_pointers;
  BuiltFilter& built = FilterFor(filter, n);
  bool results[kMultiGetBatch];
  size_t next = 0;
  size_t matches = 0;
  for (auto _ : state) {
    for (size_t i = 0; i < kQueriesPerIteration; i += kMultiGetBatch) {
      built.reader->MayMatch(kMultiGetBatch, &pointers[next], results);
      matches += std::count(results, results + kMultiGetBatch, true);
      next += kMultiGetBatch;
      if (next + kMultiGetBatch > pointers.size()) next = 0;
    }
  }
  benchmark::DoNotOptimize(matches);
  SetCounters(state, built, state.iterations() * kQueriesPerIteration);
}

// The key counts benchmarked unless --bloomgate_keys says otherwise. 10^8
// keys (a 125 MB filter, far beyond the caches) is left out by default: its
// keys alone take 1.6 GB and its builds seconds each.
constexpr size_t kDefaultSizes[] = {10'000, 1'000'000, 10'000'000};

// Parses "10000,1000000,1e8" (integers or powers of ten written 1eN).
std::optional<std::vector<size_t>> ParseSizes(std::string_view text) {
  std::vector<size_t> sizes;
  for (absl::string_view item : absl::StrSplit(ToAbsl(text), ',')) {
    double value = 0;
    if (!absl::SimpleAtod(item, &value) || !(value >= 1 && value <= 1e10) ||
        value != std::floor(value)) {
      return std::nullopt;
    }
    sizes.push_back(static_cast<size_t>(value));
  }
  return sizes;
}

void RegisterAll(const std::vector<size_t>& sizes, bool breakdown) {
  static const auto* filters = new std::vector<Filter>(AllFilters());
  static const auto* stubs = new std::vector<Filter>(
      breakdown ? BreakdownStubs() : std::vector<Filter>());
  auto name = [](const char* phase, const Filter& filter, size_t n) {
    return absl::StrCat(phase, "/", filter.name, "/", n);
  };
  for (size_t n : sizes) {
    for (const Filter& f : *filters) {
      // RocksDB's builder has no AVX2 path: Build/rocksdb_bloom is it.
      if (f.rocksdb_avx2_query) continue;
      benchmark::RegisterBenchmark(name("Build", f, n).c_str(), BM_Build, f, n)
          ->Unit(benchmark::kMillisecond);
    }
    for (const auto* list : {filters, stubs}) {
      for (const Filter& f : *list) {
        benchmark::RegisterBenchmark(name("QueryNegative", f, n).c_str(),
                                     BM_Query, f, n, /*positive=*/false);
      }
    }
    for (const Filter& f : *filters) {
      benchmark::RegisterBenchmark(name("QueryPositive", f, n).c_str(),
                                   BM_Query, f, n, /*positive=*/true);
    }
    for (const auto* list : {filters, stubs}) {
      for (const Filter& f : *list) {
        benchmark::RegisterBenchmark(name("QueryNegativeBatch", f, n).c_str(),
                                     BM_QueryBatch, f, n);
      }
    }
  }
}

}  // namespace
}  // namespace bloomgate::bench

namespace bloomgate::bench {
namespace {

// --bloomgate_keys and --bloomgate_breakdown; --bloomgate_block_offset and
// --bloomgate_huge_pages set block_offset and huge_pages.
struct OwnFlags {
  std::vector<size_t> sizes{std::begin(kDefaultSizes), std::end(kDefaultSizes)};
  bool breakdown = false;
};

// Takes bloomgate's flags out of argv, leaving Google Benchmark's; false,
// having said why, for a value it cannot take.
bool TakeOwnFlags(int* argc, char** argv, OwnFlags* flags) {
  constexpr std::string_view kKeysFlag = "--bloomgate_keys=";
  constexpr std::string_view kOffsetFlag = "--bloomgate_block_offset=";
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with(kKeysFlag)) {
      std::optional<std::vector<size_t>> parsed =
          ParseSizes(arg.substr(kKeysFlag.size()));
      if (!parsed) {
        std::fprintf(stderr,
                     "%s: --bloomgate_keys takes key counts such as "
                     "10000,1000000,1e7,1e8\n",
                     argv[0]);
        return false;
      }
      flags->sizes = *std::move(parsed);
    } else if (arg == "--bloomgate_breakdown") {
      flags->breakdown = true;
    } else if (arg == "--bloomgate_huge_pages") {
      huge_pages = true;
    } else if (arg.starts_with(kOffsetFlag)) {
      if (!absl::SimpleAtoi(ToAbsl(arg.substr(kOffsetFlag.size())),
                            &block_offset) ||
          block_offset > 63) {
        std::fprintf(stderr,
                     "%s: --bloomgate_block_offset takes a byte offset from "
                     "0 to 63\n",
                     argv[0]);
        return false;
      }
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  return true;
}

void PrintHelp() {
  std::fputs(
      "  --bloomgate_keys=<n>,<n>,...\n"
      "      key counts to benchmark, integers or 1eN (default: "
      "10000,1000000,10000000)\n"
      "  --bloomgate_block_offset=<0-63>\n"
      "      where every filter's block starts, in bytes past a 64-byte\n"
      "      boundary (default: 0, aligned, as jemalloc places blocks of\n"
      "      4 KiB and more; glibc's malloc places large ones at 16)\n"
      "  --bloomgate_huge_pages\n"
      "      every filter's block in 2 MiB pages (madvise), to see how\n"
      "      much of a query beyond the caches is page walks\n"
      "  --bloomgate_breakdown\n"
      "      adds stub readers to the absent-key query phases: harness_only\n"
      "      (the harness alone) and bloomgate_hash_only and\n"
      "      rocksdb_hash_only (the harness and each side's hash)\n",
      stdout);
  std::fputs(kCpuFlagHelp, stdout);
  benchmark::PrintDefaultHelp();
}

}  // namespace
}  // namespace bloomgate::bench

int main(int argc, char** argv) {
  namespace bench = bloomgate::bench;
  bench::OwnFlags flags;
  if (!bench::TakeOwnFlags(&argc, argv, &flags)) return 1;
  const std::string cpu = bench::PinToOneCpuOrExit(&argc, argv);
  benchmark::Initialize(&argc, argv, bench::PrintHelp);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const std::string kernel(
      bloomgate::SimdKernelName(bloomgate::ActiveSimdKernel()));
  const std::string rocksdb = absl::StrCat(
      "RocksDB ", ROCKSDB_MAJOR, ".", ROCKSDB_MINOR, ".", ROCKSDB_PATCH,
      " as linked; its FastLocalBloom runs the path its library was compiled "
      "for (Debian's librocksdb: the x86-64 baseline, scalar)");
  benchmark::AddCustomContext("bloomgate_kernel", kernel);
  benchmark::AddCustomContext("rocksdb", rocksdb);
  benchmark::AddCustomContext("cpu", cpu);
  benchmark::AddCustomContext(
      "block_offset",
      absl::StrCat(bench::block_offset, " bytes past a 64-byte boundary",
                   bench::huge_pages ? ", in 2 MiB pages" : ""));
  bench::RegisterAll(flags.sizes, flags.breakdown);
  bench::RatioReporter reporter(
      benchmark::CreateDefaultDisplayReporter(),
      absl::StrCat("bloomgate: the kernel chosen at run time (", kernel,
                   "); bloomgate_<kernel>: that kernel forced. "
                   "rocksdb_*: ",
                   rocksdb, "."));
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
