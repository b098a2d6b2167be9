# External libraries.
#
# gisa_dependency(<NAME> HEADER <header> LIBRARY <lib> [REQUIRED] [NEEDS <NAME>...])
#
# Looks for <header> (find_path) and <lib> (find_library).  When both are found
# (and every dependency listed in NEEDS was found too):
#   - GISA_HAVE_<NAME> is set to TRUE,
#   - the library is prepended to GISA_REQUIRED_LIBS,
#   - its include directory to GISA_DEP_INCLUDE_DIRS,
#   - HAVE_<NAME> to GISA_DEP_DEFINITIONS.
# A missing REQUIRED dependency is a configure error (pointing at
# scripts/deps.sh); a missing optional one is only reported.
#
# All three lists are applied PUBLICly to the gisa library, so everything that
# links with it (CLI, tests, benchmarks, fuzzers) gets them too.  To make a
# library mandatory, add REQUIRED to its call in CMakeLists.txt; to add a plain
# system library, just list(APPEND GISA_REQUIRED_LIBS <lib>).
#
# Declare a dependency before the libraries that need it (GMP before MPFR):
# each found library is put in FRONT of GISA_REQUIRED_LIBS, so dependents come
# before their dependencies on the link line (right for static linking too).

function(gisa_dependency name)
  cmake_parse_arguments(ARG "REQUIRED" "HEADER;LIBRARY" "NEEDS" ${ARGN})
  find_path(GISA_${name}_INCLUDE_DIR NAMES ${ARG_HEADER})
  find_library(GISA_${name}_LIBRARY NAMES ${ARG_LIBRARY})
  mark_as_advanced(GISA_${name}_INCLUDE_DIR GISA_${name}_LIBRARY)

  set(ok TRUE)
  set(why "")
  if(NOT GISA_${name}_INCLUDE_DIR)
    set(ok FALSE)
    string(APPEND why " header ${ARG_HEADER} not found;")
  endif()
  if(NOT GISA_${name}_LIBRARY)
    set(ok FALSE)
    string(APPEND why " library ${ARG_LIBRARY} not found;")
  endif()
  foreach(dep IN LISTS ARG_NEEDS)
    if(NOT GISA_HAVE_${dep})
      set(ok FALSE)
      string(APPEND why " needs ${dep};")
    endif()
  endforeach()

  if(ok)
    message(STATUS "gisa: ${name} found (${GISA_${name}_LIBRARY})")
    set(GISA_HAVE_${name} TRUE PARENT_SCOPE)
    set(libs ${GISA_${name}_LIBRARY} ${GISA_REQUIRED_LIBS})
    set(incs ${GISA_DEP_INCLUDE_DIRS} ${GISA_${name}_INCLUDE_DIR})
    set(defs ${GISA_DEP_DEFINITIONS} HAVE_${name})
    list(REMOVE_DUPLICATES incs)
    set(GISA_REQUIRED_LIBS ${libs} PARENT_SCOPE)
    set(GISA_DEP_INCLUDE_DIRS ${incs} PARENT_SCOPE)
    set(GISA_DEP_DEFINITIONS ${defs} PARENT_SCOPE)
  else()
    set(GISA_HAVE_${name} FALSE PARENT_SCOPE)
    if(ARG_REQUIRED)
      message(FATAL_ERROR
        "gisa: required dependency ${name} missing:${why} "
        "run scripts/deps.sh (or install the Debian -dev package).")
    else()
      message(STATUS "gisa: optional ${name} not found:${why} building without it")
    endif()
  endif()
endfunction()
