# The command-line conventions of one program (PROG, named NAME; ENGINE=1 for jiangjun itself):
# --help, -h and help print the usage on stdout and exit 0 (stderr empty); --version prints
# "Jiangjun VERSION" (a tool: "NAME (Jiangjun) VERSION") with the revision, SIMD and net lines and exits 0;
# an unknown argument prints the usage on stderr, nothing on stdout, and exits 2. WANT lists words the
# usage must contain (;-separated).
function(run_prog)
  execute_process(COMMAND ${PROG} ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 20)
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
  set(rc "${rc}" PARENT_SCOPE)
endfunction()

foreach(arg --help -h help)
  run_prog(${arg})
  if(NOT rc EQUAL 0 OR NOT err STREQUAL "" OR NOT out MATCHES "usage: ${NAME}")
    message(FATAL_ERROR "${NAME} ${arg}: want the usage on stdout and exit 0, got exit ${rc}\nstdout: ${out}\nstderr: ${err}")
  endif()
  foreach(word IN LISTS WANT)
    string(FIND "${out}" "${word}" at)
    if(at LESS 0)
      message(FATAL_ERROR "${NAME} ${arg}: the usage does not mention '${word}':\n${out}")
    endif()
  endforeach()
  set(usage "${out}")
endforeach()

run_prog(--version)
if(ENGINE)
  set(first "Jiangjun ${VERSION}")
else()
  set(first "${NAME} \\(Jiangjun\\) ${VERSION}")
endif()
if(NOT rc EQUAL 0 OR NOT out MATCHES "^${first}\nrevision: [^\n]+\nsimd: (scalar|sse2|avx2)\nnet: [^\n]+\n$")
  message(FATAL_ERROR "${NAME} --version: want '${first}', revision, simd and net lines and exit 0, got exit ${rc}:\n${out}")
endif()

run_prog(--no-such-option)
if(NOT rc EQUAL 2 OR NOT out STREQUAL "" OR NOT err MATCHES "usage: ${NAME}")
  message(FATAL_ERROR "${NAME} --no-such-option: want the usage on stderr, nothing on stdout, exit 2; got exit ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
message(STATUS "${NAME}: --help, --version and a bad argument behave")
