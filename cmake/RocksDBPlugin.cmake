# bloomgate inside RocksDB's own CMake build (cmake -DROCKSDB_PLUGINS=bloomgate
# with this tree at <rocksdb>/plugin/bloomgate): RocksDB runs
# add_subdirectory(plugin/bloomgate), and the top-level CMakeLists.txt hands
# over to this file before it declares a project of its own. It sets, in
# RocksDB's scope, the variables RocksDB's plugin convention reads
# (plugin/README.md in RocksDB's tree): the sources to compile into
# librocksdb, their compile flags and the libraries they need. The registrar
# (bloomgate_FUNC) RocksDB takes from bloomgate.mk.
#
# The sources are compiled with RocksDB's own headers, internal ones
# included, so the adapter always matches the release it is built into.

set(_bloomgate_root "${CMAKE_CURRENT_SOURCE_DIR}")
include("${CMAKE_CURRENT_LIST_DIR}/PluginSources.cmake")
bloomgate_plugin_sources(_bloomgate_sources)

# Imported targets found here must be seen in RocksDB's directory, where it
# links them: GLOBAL (CMake 3.24).
find_package(absl REQUIRED GLOBAL)
find_package(PkgConfig REQUIRED)
pkg_check_modules(BLOOMGATE_XXHASH REQUIRED IMPORTED_TARGET GLOBAL libxxhash)

set(bloomgate_SOURCES ${_bloomgate_sources} PARENT_SCOPE)
# Per source, not RocksDB's global include path, so that adding the plugin to
# an existing RocksDB build recompiles bloomgate's files only. C++20: RocksDB
# compiles as C++17 before 10.7; the last -std wins. On x86-64,
# -mno-omit-leaf-frame-pointer after RocksDB's -momit-leaf-frame-pointer:
# CMakeLists.txt says why.
set(_bloomgate_flags "-std=c++20 -I${_bloomgate_root} -I${_bloomgate_root}/include")
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  string(APPEND _bloomgate_flags " -mno-omit-leaf-frame-pointer")
endif()
set(bloomgate_COMPILE_FLAGS "${_bloomgate_flags}" PARENT_SCOPE)
set(bloomgate_LIBS
    absl::status absl::statusor absl::strings absl::span absl::flat_hash_map
    absl::synchronization PkgConfig::BLOOMGATE_XXHASH
    PARENT_SCOPE)
message(STATUS "bloomgate: built into RocksDB as a plugin, from ${_bloomgate_root}")
