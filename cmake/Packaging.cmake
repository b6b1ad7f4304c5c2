# Install rules and the CMake package, so that a service links bloomgate with
#
#   find_package(bloomgate REQUIRED)
#   target_link_libraries(my_service PRIVATE bloomgate::bloomgate)
#
# Installs the public headers (include/bloomgate/), the static libraries
# bloomgate_core, bloomgate_spec, bloomgate_rocksdb and, when it is built,
# bloomgate_lsm, and lib/cmake/bloomgate/ with targets bloomgate::core,
# bloomgate::spec, bloomgate::rocksdb, bloomgate::lsm and the umbrella
# bloomgate::bloomgate (all of them).
#
# The installed package refers to the RocksDB library by the absolute path
# this build found (ROCKSDB_LIBRARY), and finds abseil, libxxhash (through
# pkg-config) and Threads again in the consumer.
#
# Included from the top-level CMakeLists.txt after the libraries and tests.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(BLOOMGATE_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/bloomgate")

# The umbrella. (The name "bloomgate" itself belongs to the sizer CLI.)
add_library(bloomgate_all INTERFACE)
add_library(bloomgate::bloomgate ALIAS bloomgate_all)
set_target_properties(bloomgate_all PROPERTIES EXPORT_NAME bloomgate)

set(_bloomgate_install_targets bloomgate_all)
foreach(_lib IN ITEMS core spec rocksdb_deps rocksdb lsm)
  if(TARGET bloomgate_${_lib})
    set_target_properties(bloomgate_${_lib} PROPERTIES EXPORT_NAME ${_lib})
    list(APPEND _bloomgate_install_targets bloomgate_${_lib})
    if(NOT _lib STREQUAL "rocksdb_deps")
      target_link_libraries(bloomgate_all INTERFACE bloomgate_${_lib})
    endif()
  endif()
endforeach()

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/bloomgate"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.h")
install(TARGETS ${_bloomgate_install_targets}
        EXPORT bloomgateTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(EXPORT bloomgateTargets
        NAMESPACE bloomgate::
        DESTINATION "${BLOOMGATE_INSTALL_CMAKEDIR}")

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/bloomgateConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/bloomgateConfig.cmake"
  INSTALL_DESTINATION "${BLOOMGATE_INSTALL_CMAKEDIR}")
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/bloomgateConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/bloomgateConfig.cmake"
              "${PROJECT_BINARY_DIR}/bloomgateConfigVersion.cmake"
        DESTINATION "${BLOOMGATE_INSTALL_CMAKEDIR}")

# The test: install into a temporary prefix, then configure, build and run a
# small consumer project (tests/packaging/consumer) against it.
if(BLOOMGATE_BUILD_TESTS)
  set(_consumer_flags "")
  if(BLOOMGATE_SANITIZE)
    # The installed static libraries are instrumented; so must the consumer.
    set(_consumer_flags "-fsanitize=address,undefined")
  endif()
  add_test(NAME bloomgate_packaging
    COMMAND "${CMAKE_COMMAND}"
      "-DBUILD_DIR=${PROJECT_BINARY_DIR}"
      "-DWORK_DIR=${PROJECT_BINARY_DIR}/packaging_test"
      "-DCONSUMER_SOURCE_DIR=${PROJECT_SOURCE_DIR}/tests/packaging/consumer"
      "-DGENERATOR=${CMAKE_GENERATOR}"
      "-DCXX_COMPILER=${CMAKE_CXX_COMPILER}"
      "-DCONSUMER_CXX_FLAGS=${_consumer_flags}"
      "-DEXPECT_LSM=$<BOOL:$<TARGET_EXISTS:bloomgate_lsm>>"
      -P "${PROJECT_SOURCE_DIR}/tests/packaging/packaging_test.cmake")
  set_tests_properties(bloomgate_packaging PROPERTIES TIMEOUT 600 LABELS packaging)
endif()
