# A short real SPSA session (tools/xqspsa) of the tuning engine (ENGINE, jiangjun_tune) through xqmatch, in
# WORK: three iterations of one pair at 300 nodes, two games at once; the same session stopped after its first
# iteration and resumed must end in the same state file, byte for byte; the engine checked over UCCI too;
# and the refusals, each `error: ...` and exit status 2: the normal engine (no search options), an engine
# that does not start, a bad parameter file, a state file that exists.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/tune.spsa "# name, start, min, max, c_end, r_end\nrfp_margin, 90, 20, 300, 12, 0.002\n"
                             "futility_per_depth 90 20 300 12 0.002\nlmr_base 75 0 200\n")
set(session -config ${WORK}/tune.spsa -engine cmd=${ENGINE} proto=uci -nodes 300 -games 6 -openings ${OPENINGS}
            -concurrency 2)

function(xqspsa want_rc)
  execute_process(COMMAND ${XQSPSA} ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 120)
  if(NOT rc EQUAL want_rc)
    message(FATAL_ERROR "xqspsa ${ARGN}: exit ${rc}, want ${want_rc}\nstdout: ${out}\nstderr: ${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

function(want text pattern what)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: no match for '${pattern}' in:\n${text}")
  endif()
endfunction()

xqspsa(0 ${session} -state ${WORK}/whole.state -- -maxplies 160)
want("${out}" "\niteration 3: pairs 3/3, games 6 \\(W [0-9]+ L [0-9]+ D [0-9]+\\); this one W [0-9]+ L [0-9]+ D [0-9]+; rfp_margin [0-9.]+ futility_per_depth [0-9.]+ lmr_base [0-9.]+\n"
     "the progress lines")
want("${out}" "\n    X\\(rfp_margin, [0-9]+, 20, 300, 12\\)\n    X\\(futility_per_depth, [0-9]+, 20, 300, 12\\)\n    X\\(lmr_base, [0-9]+, 0, 200, 10\\)\n"
     "the values as lines of search_params.h")

xqspsa(0 ${session} -state ${WORK}/parted.state -stop-after 1 -- -maxplies 160)
want("${out}" "\niteration 1: .*the session is not over" "a session stopped after one iteration")
if(out MATCHES "iteration 2")
  message(FATAL_ERROR "-stop-after 1 played on:\n${out}")
endif()
xqspsa(0 -resume ${WORK}/parted.state)
want("${out}" "resumed after iteration 1 \\(1 pairs played\\).*\niteration 2: .*\niteration 3: pairs 3/3" "the resumed session")
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/whole.state ${WORK}/parted.state RESULT_VARIABLE differ)
if(differ)
  file(READ ${WORK}/whole.state whole)
  file(READ ${WORK}/parted.state parted)
  message(FATAL_ERROR "the resumed session ended elsewhere:\n${whole}\n---\n${parted}")
endif()

string(REPLACE "proto=uci" "proto=ucci" ucci_session "${session}")
xqspsa(0 ${ucci_session} -state ${WORK}/ucci.state -stop-after 1)
want("${out}" "\niteration 1: pairs 1/3" "a session over UCCI")

xqspsa(2 -config ${WORK}/tune.spsa -engine cmd=${NORMAL_ENGINE} proto=uci -nodes 300 -games 6 -state ${WORK}/x.state)
want("${err}" "^error: rfp_margin is not a spin option of the engine" "the normal engine")
xqspsa(2 -config ${WORK}/tune.spsa -engine cmd=${WORK}/no-such-engine proto=uci -nodes 300 -games 6 -state ${WORK}/x.state)
want("${err}" "^error: the engine '[^']*no-such-engine' did not start" "an engine that does not start")
file(WRITE ${WORK}/bad.spsa "rfp_margin, 90, 20\n")
xqspsa(2 -config ${WORK}/bad.spsa -engine cmd=${ENGINE} proto=uci -nodes 300 -games 6 -state ${WORK}/x.state)
want("${err}" "^error: [^\n]*bad.spsa:1: want 'name, start, min, max\\[, c_end, r_end\\]', got 3 fields" "a bad file")
xqspsa(2 ${session} -state ${WORK}/whole.state)
want("${err}" "^error: [^\n]*whole.state exists: continue its session with -resume" "a state that exists")
if(EXISTS ${WORK}/x.state)
  message(FATAL_ERROR "a refused session wrote its state")
endif()
message(STATUS "xqspsa: a real session, resumed to the same state, and its refusals")
