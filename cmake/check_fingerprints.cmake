# The build's check of src/sim/fingerprints.c against the shipped pseudo-code
# (docs/semantics-language.md, "C semantics and the documents"): runs
# `gisa lint --fingerprints` on every shipped target and fails the build
# with its message (what changed, the C function to review, the value to
# declare) when a C semantic function declares another fingerprint than
# the pseudo-code has. Writes STAMP when they all agree.
# Usage: cmake -DGISA=path/to/gisa -DTARGETS=gisa128,fermi -DSTAMP=file -P check_fingerprints.cmake
string(REPLACE "," ";" TARGETS "${TARGETS}")
foreach(_target IN LISTS TARGETS)
  execute_process(COMMAND "${GISA}" lint --fingerprints --target "${_target}"
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "The C semantics do not implement the shipped pseudo-code of ${_target}:\n${_err}"
                        "(gisa lint --fingerprints --target ${_target} prints the table)")
  endif()
endforeach()
file(WRITE "${STAMP}" "fingerprints checked: ${TARGETS}\n")
