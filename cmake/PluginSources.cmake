# The sources RocksDB's plugin build compiles, read from bloomgate.mk, the one
# list both of RocksDB's build systems use.
function(bloomgate_plugin_sources out)
  file(READ "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../bloomgate.mk" _mk)
  string(REGEX MATCHALL "\nbloomgate_SOURCES \\+= [^\n]+" _lines "${_mk}")
  set(_list "")
  foreach(_line IN LISTS _lines)
    string(REGEX REPLACE "^\nbloomgate_SOURCES \\+= " "" _file "${_line}")
    string(STRIP "${_file}" _file)
    list(APPEND _list "${_file}")
  endforeach()
  if(NOT _list)
    message(FATAL_ERROR "bloomgate: no bloomgate_SOURCES in bloomgate.mk")
  endif()
  # RocksDB's CMake takes these patterns from anywhere in the file (7.0 to
  # 11.x): no sources or libraries that way, exactly the one registrar.
  string(REGEX MATCHALL "SOURCES = |_LIBS = " _stray "${_mk}")
  string(REGEX MATCHALL "_FUNC = " _func "${_mk}")
  list(LENGTH _func _funcs)
  if(_stray OR NOT _funcs EQUAL 1)
    message(FATAL_ERROR "bloomgate: bloomgate.mk must hold \"_FUNC = \" once "
                        "and neither \"SOURCES = \" nor \"_LIBS = \": RocksDB's "
                        "CMake reads those patterns anywhere, comments too")
  endif()
  set(${out} ${_list} PARENT_SCOPE)
endfunction()
