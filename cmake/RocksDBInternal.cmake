# Locates RocksDB (the installed library and public headers) and the one
# internal header bloomgate's adapter compiles against:
# table/block_based/filter_policy_internal.h, where FilterBitsBuilder and
# FilterBitsReader live since RocksDB 7.0. Debian's librocksdb-dev does not
# ship it, so unless -DROCKSDB_SOURCE_DIR=<tree> names a RocksDB source tree,
# configure fetches Debian's source package of exactly the installed version
# into the build tree (cmake/fetch-rocksdb-source.sh).
#
# Defines: target bloomgate::rocksdb_deps (INTERFACE: library, public and
# internal include folders), ROCKSDB_VERSION, BLOOMGATE_ROCKSDB_SOURCE_TREE,
# function bloomgate_rocksdb_tree_release.

set(ROCKSDB_SOURCE_DIR "" CACHE PATH
    "A RocksDB source tree of the installed version (optional; fetched from Debian otherwise)")

find_path(ROCKSDB_INCLUDE_DIR rocksdb/db.h REQUIRED)
find_library(ROCKSDB_LIBRARY rocksdb REQUIRED)
# RocksDB built from source installs a static library only; it needs the
# system libraries a shared one would bring along.
set(_rocksdb_link_deps "")
if(ROCKSDB_LIBRARY MATCHES "\\.a$")
  find_package(Threads REQUIRED)
  set(_rocksdb_link_deps Threads::Threads ${CMAKE_DL_LIBS})
endif()

file(STRINGS "${ROCKSDB_INCLUDE_DIR}/rocksdb/version.h" _rocksdb_version_lines
     REGEX "^#define ROCKSDB_(MAJOR|MINOR|PATCH) [0-9]+")
foreach(_part MAJOR MINOR PATCH)
  string(REGEX MATCH "ROCKSDB_${_part} ([0-9]+)" _m "${_rocksdb_version_lines}")
  set(ROCKSDB_${_part} "${CMAKE_MATCH_1}")
endforeach()
set(ROCKSDB_VERSION "${ROCKSDB_MAJOR}.${ROCKSDB_MINOR}.${ROCKSDB_PATCH}")

# The internal interface bloomgate implements changed in 7.0 (it became
# internal), 9.6 (AddKeyAndAlt) and 10.9 (CalculateSpace/EstimatedFpRate on
# the base class); src/rocksdb/rocksdb_compat.h handles each release from 7.0
# to 11.x. Tested: 7.8 (Debian 12), 9.11, 10.10 and 11.8 (docs/rocksdb-plugin.md).
if(ROCKSDB_VERSION VERSION_LESS 7.0 OR ROCKSDB_VERSION VERSION_GREATER_EQUAL 12.0)
  message(FATAL_ERROR
    "bloomgate: RocksDB ${ROCKSDB_VERSION} (${ROCKSDB_INCLUDE_DIR}) is not "
    "supported. bloomgate's plug-in supports RocksDB 7.0 to 11.x (tested with "
    "7.8, 9.11, 10.10 and 11.8); point -DCMAKE_PREFIX_PATH at the install "
    "prefix of a supported release.")
endif()

# Sets out_var to "<major>.<minor>" of the RocksDB source tree `tree`.
function(bloomgate_rocksdb_tree_release tree out_var)
  file(STRINGS "${tree}/include/rocksdb/version.h" _lines
       REGEX "^#define ROCKSDB_(MAJOR|MINOR) [0-9]+")
  string(REGEX MATCH "ROCKSDB_MAJOR ([0-9]+)" _m "${_lines}")
  set(_major "${CMAKE_MATCH_1}")
  string(REGEX MATCH "ROCKSDB_MINOR ([0-9]+)" _m "${_lines}")
  set(${out_var} "${_major}.${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

set(_internal_header table/block_based/filter_policy_internal.h)
if(ROCKSDB_SOURCE_DIR)
  set(_rocksdb_internal_dir "${ROCKSDB_SOURCE_DIR}")
  if(NOT EXISTS "${_rocksdb_internal_dir}/${_internal_header}")
    message(FATAL_ERROR "bloomgate: ROCKSDB_SOURCE_DIR=${ROCKSDB_SOURCE_DIR} "
                        "has no ${_internal_header}")
  endif()
  # The internal header must come from the same release as the library.
  bloomgate_rocksdb_tree_release("${ROCKSDB_SOURCE_DIR}" _src_release)
  if(NOT _src_release STREQUAL "${ROCKSDB_MAJOR}.${ROCKSDB_MINOR}")
    message(FATAL_ERROR
      "bloomgate: ROCKSDB_SOURCE_DIR holds RocksDB ${_src_release} "
      "but the installed library is ${ROCKSDB_VERSION}; the internal filter "
      "interface must come from the same release.")
  endif()
else()
  set(_fetch_dir "${CMAKE_BINARY_DIR}/_deps/rocksdb-source")
  set(_rocksdb_internal_dir "${_fetch_dir}/src")
  execute_process(COMMAND dpkg-query -W -f=\${Version} librocksdb-dev
                  OUTPUT_VARIABLE _deb_version RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR
      "bloomgate: librocksdb-dev is not installed as a Debian package, so its "
      "source cannot be fetched. Install it (tools/setup) or pass "
      "-DROCKSDB_SOURCE_DIR=<RocksDB ${ROCKSDB_VERSION} source tree>.")
  endif()
  set(_have "")
  if(EXISTS "${_rocksdb_internal_dir}/DEBIAN_VERSION")
    file(READ "${_rocksdb_internal_dir}/DEBIAN_VERSION" _have)
    string(STRIP "${_have}" _have)
  endif()
  # Fetched before the util/ headers were unpacked too: fetch again.
  if(NOT _have STREQUAL _deb_version OR
     NOT EXISTS "${_rocksdb_internal_dir}/util/bloom_impl.h")
    file(REMOVE_RECURSE "${_fetch_dir}")
    execute_process(
      COMMAND "${CMAKE_CURRENT_LIST_DIR}/fetch-rocksdb-source.sh" "${_fetch_dir}"
      RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR
        "bloomgate: could not fetch Debian's source package of librocksdb-dev "
        "${_deb_version} (see the apt-get output above). Pass "
        "-DROCKSDB_SOURCE_DIR=<RocksDB ${ROCKSDB_VERSION} source tree> instead.")
    endif()
  endif()
endif()
message(STATUS "bloomgate: RocksDB ${ROCKSDB_VERSION}, internal headers from ${_rocksdb_internal_dir}")
# The source tree of the linked release, for the benchmarks' RocksDB AVX2
# query (benchmarks/CMakeLists.txt).
set(BLOOMGATE_ROCKSDB_SOURCE_TREE "${_rocksdb_internal_dir}")

add_library(bloomgate_rocksdb_deps INTERFACE)
add_library(bloomgate::rocksdb_deps ALIAS bloomgate_rocksdb_deps)
target_link_libraries(bloomgate_rocksdb_deps INTERFACE
  "${ROCKSDB_LIBRARY}" ${_rocksdb_link_deps})
target_include_directories(bloomgate_rocksdb_deps SYSTEM INTERFACE
  "${ROCKSDB_INCLUDE_DIR}" "$<BUILD_INTERFACE:${_rocksdb_internal_dir}>")

# bloomgate subclasses RocksDB classes, which needs their typeinfo: a RocksDB
# built without RTTI (its CMake's Release default) links only in debug
# builds, and then fails far from the cause ("undefined reference to
# typeinfo for rocksdb::FilterPolicy"). Say so here instead.
include(CheckCXXSourceCompiles)
set(CMAKE_REQUIRED_INCLUDES "${ROCKSDB_INCLUDE_DIR}")
set(CMAKE_REQUIRED_LIBRARIES "${ROCKSDB_LIBRARY}" ${_rocksdb_link_deps})
set(CMAKE_REQUIRED_QUIET ON)
check_cxx_source_compiles([=[
#include "rocksdb/filter_policy.h"
struct Policy : rocksdb::FilterPolicy {
  const char* Name() const override { return "p"; }
  const char* CompatibilityName() const override { return "p"; }
  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext&) const override { return nullptr; }
  rocksdb::FilterBitsReader* GetFilterBitsReader(
      const rocksdb::Slice&) const override { return nullptr; }
};
int main() { Policy p; return p.Name()[1]; }
]=] BLOOMGATE_ROCKSDB_HAS_RTTI)
unset(CMAKE_REQUIRED_INCLUDES)
unset(CMAKE_REQUIRED_LIBRARIES)
unset(CMAKE_REQUIRED_QUIET)
if(NOT BLOOMGATE_ROCKSDB_HAS_RTTI)
  message(FATAL_ERROR
    "bloomgate: a program subclassing rocksdb::FilterPolicy does not link "
    "against ${ROCKSDB_LIBRARY}, most likely because that RocksDB was built "
    "without RTTI (RocksDB's CMake Release default). Rebuild RocksDB with "
    "-DUSE_RTTI=1 (docs/rocksdb-plugin.md has the whole cmake line); the "
    "failed check's output is in CMakeFiles/CMakeError.log.")
endif()
