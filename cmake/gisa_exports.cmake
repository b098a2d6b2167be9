# Writes the linker version script of libgisa.so: every function declared in
# the public headers is global, everything else local (the library's internal
# functions, the embedded ISA tables).
# With -DNAMES_OUTPUT=FILE it also writes the names, one per line (objcopy
# --keep-global-symbols for the prelinked libgisa.a).
#   cmake "-DHEADERS=include/gisa.h;include/gisa_dpi.h" -DOUTPUT=gisa.map -P gisa_exports.cmake
if(NOT HEADERS)
  set(HEADERS "${HEADER}")
endif()
set(text "")
foreach(h IN LISTS HEADERS)
  file(READ "${h}" one)
  string(APPEND text "${one}\n")
endforeach()
# Comments out, then every `gisa_name (` left is a declaration (a function
# pointer typedef is `(*gisa_name)(`, not matched).
string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" text "${text}")
string(REGEX REPLACE "//[^\n]*" "" text "${text}")
string(REGEX MATCHALL "gisa_[a-z0-9_]+[ \t\r\n]*\\(" decls "${text}")
set(names "")
foreach(d IN LISTS decls)
  string(REGEX REPLACE "[ \t\r\n]*\\($" "" d "${d}")
  list(APPEND names "${d}")
endforeach()
list(REMOVE_DUPLICATES names)
list(SORT names)
if(NOT names)
  message(FATAL_ERROR "gisa_exports: no gisa_ function found in ${HEADERS}")
endif()
set(out "/* Generated from include/gisa.h and gisa_dpi.h by cmake/gisa_exports.cmake. */\n{\n  global:\n")
foreach(n IN LISTS names)
  string(APPEND out "    ${n};\n")
endforeach()
string(APPEND out "  local:\n    *;\n};\n")
file(WRITE "${OUTPUT}.tmp" "${out}")
configure_file("${OUTPUT}.tmp" "${OUTPUT}" COPYONLY)  # rewritten only when it changes
file(REMOVE "${OUTPUT}.tmp")
if(NAMES_OUTPUT)
  list(JOIN names "\n" list)
  file(WRITE "${NAMES_OUTPUT}.tmp" "${list}\n")
  configure_file("${NAMES_OUTPUT}.tmp" "${NAMES_OUTPUT}" COPYONLY)
  file(REMOVE "${NAMES_OUTPUT}.tmp")
endif()
