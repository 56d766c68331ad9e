# The starter tablebases (XQ_TB_STARTER): `jiangjun tb probe "<FEN>"` without -dir, run from a folder
# without tables (WORK), answers the starter endings from the build's tb folder, and names that folder
# when an ending is not in the set. PROG is the engine.
# Each case: FEN | the line wanted (the generator's values, which test_tb checks against a brute-force
# search; theory agrees: a lone cannon cannot mate, a rook beats two elephants, and KP-KA is David Li's
# "First Syllabus on XiangQi" diagram 11, which black holds).
set(cases
  "4k4/9/9/9/9/9/9/9/9/R2K5 w|wdl win dtm 3"
  "4k4/9/9/9/9/9/9/9/9/C2K5 w|wdl draw dtm 0"
  "9/4k4/9/9/9/9/9/9/9/R2K5 b|wdl loss dtm 4"
  "2b1k1b2/9/9/9/9/9/9/9/9/R2K5 w|wdl win dtm 21"
  "5a3/9/3k5/4P4/9/9/9/9/9/4K4 w|wdl draw dtm 0")
file(MAKE_DIRECTORY ${WORK})
foreach(c IN LISTS cases)
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 fen)
  list(GET parts 1 want)
  execute_process(COMMAND ${PROG} tb probe "${fen}" WORKING_DIRECTORY ${WORK}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 20)
  if(NOT rc EQUAL 0 OR NOT out STREQUAL "${want}\n")
    message(FATAL_ERROR "tb probe \"${fen}\" (no -dir): want '${want}', got exit ${rc}: ${out}${err}")
  endif()
endforeach()
# the full defence is not in the starter set: the error names the starter folder
execute_process(COMMAND ${PROG} tb probe "2bakab2/9/9/9/R8/9/9/9/9/3K5 w" WORKING_DIRECTORY ${WORK}
                OUTPUT_VARIABLE out RESULT_VARIABLE rc TIMEOUT 20)
if(rc EQUAL 0 OR NOT out MATCHES "^error: .*/tb/KR-KAAEE.jjtb")
  message(FATAL_ERROR "tb probe of KR-KAAEE (no -dir): want an error naming the starter folder, got exit ${rc}: ${out}")
endif()
message(STATUS "starter tablebases answer without -dir")
