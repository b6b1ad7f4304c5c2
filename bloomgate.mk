# bloomgate as a RocksDB plugin (RocksDB's plugin/README.md): bloomgate's
# filter core and RocksDB adapter compiled into librocksdb, and its filter
# policy registered with every ObjectRegistry RocksDB creates, so every
# RocksDB program reads "filter_policy=bloomgate:10" from an OPTIONS file or
# an options string. Put this tree at <rocksdb>/plugin/bloomgate (a clone or
# a symbolic link), then build RocksDB with ROCKSDB_PLUGINS=bloomgate:
#   make ROCKSDB_PLUGINS=bloomgate ...    (RocksDB's Makefile reads this file)
#   cmake -DROCKSDB_PLUGINS=bloomgate ... (cmake/RocksDBPlugin.cmake)
# docs/rocksdb-plugin.md has the details.
#
# RocksDB's CMake reads this file too, but only three kinds of line, found
# by pattern anywhere in it, comments included: the word SOURCES, one space,
# an equals sign and a space; the same after _FUNC; the same after _LIBS.
# So the registrar below is the one line written that way, and sources and
# libraries use "+=" and ":=", which cmake/RocksDBPlugin.cmake reads instead.

# The sources, relative to this folder, one a line: the same files as the
# bloomgate_core, bloomgate_spec and bloomgate_rocksdb libraries (bloomgate's
# configure checks).
bloomgate_SOURCES += src/filter/blocked_fill.cc
bloomgate_SOURCES += src/filter/blocked_kernels.cc
bloomgate_SOURCES += src/filter/filter_builder.cc
bloomgate_SOURCES += src/filter/filter_options.cc
bloomgate_SOURCES += src/filter/filter_reader.cc
bloomgate_SOURCES += src/filter/format.cc
bloomgate_SOURCES += src/filter/hash.cc
bloomgate_SOURCES += src/filter/hash_store.cc
bloomgate_SOURCES += src/filter/huge_pages.cc
bloomgate_SOURCES += src/filter/kernel_check.cc
bloomgate_SOURCES += src/filter/simd.cc
bloomgate_SOURCES += src/filter/sizing.cc
bloomgate_SOURCES += src/filter/slab_pool.cc
bloomgate_SOURCES += src/spec/allocation.cc
bloomgate_SOURCES += src/spec/filter_memory_pool.cc
bloomgate_SOURCES += src/spec/filter_spec.cc
bloomgate_SOURCES += src/spec/fp_curve.cc
bloomgate_SOURCES += src/spec/live_tree_allocation.cc
bloomgate_SOURCES += src/spec/lookup_sampler.cc
bloomgate_SOURCES += src/rocksdb/builtin_filters.cc
bloomgate_SOURCES += src/rocksdb/filter_bits.cc
bloomgate_SOURCES += src/rocksdb/filter_memory.cc
bloomgate_SOURCES += src/rocksdb/flushed_key_ranges.cc
bloomgate_SOURCES += src/rocksdb/live_tree.cc
bloomgate_SOURCES += src/rocksdb/cost_inputs.cc
bloomgate_SOURCES += src/rocksdb/plugin.cc
bloomgate_SOURCES += src/rocksdb/rocksdb_filter_policy.cc
bloomgate_SOURCES += src/rocksdb/spec_filter_policy.cc

# The registrar (src/rocksdb/plugin.h).
bloomgate_FUNC = bloomgate_RegisterRocksDBPlugin

# bloomgate's headers are found from its root. Its sources need C++20;
# RocksDB compiles as C++17 before 10.7, so only they get it. On x86-64 they
# also get -mno-omit-leaf-frame-pointer after RocksDB's
# -momit-leaf-frame-pointer (bloomgate's CMakeLists.txt says why).
bloomgate_CXXFLAGS := -I./plugin/bloomgate -I./plugin/bloomgate/include
$(OBJ_DIR)/plugin/bloomgate/%.o plugin/bloomgate/%.o: CXXFLAGS += -std=c++20
ifeq ($(shell uname -m),x86_64)
$(OBJ_DIR)/plugin/bloomgate/%.o plugin/bloomgate/%.o: CXXFLAGS += -mno-omit-leaf-frame-pointer
endif

# abseil and xxHash, as Debian's libabsl-dev and libxxhash-dev install them.
bloomgate_LDFLAGS := $(shell pkg-config --libs absl_status absl_statusor \
  absl_strings absl_synchronization absl_flat_hash_map libxxhash)
