# docs/reference.md is what tools/gen_reference.py makes of the public headers now: regenerate
# into OUT and compare.
#   cmake -DPYTHON=... -DCC=<C compiler> -DSOURCE=<project> -DOUT=<file> -P reference_fresh.cmake
execute_process(COMMAND ${PYTHON} ${SOURCE}/tools/gen_reference.py ${OUT} --cc ${CC}
                RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "tools/gen_reference.py failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files --ignore-eol ${SOURCE}/docs/reference.md
                ${OUT} RESULT_VARIABLE differs)
if(differs)
  message(FATAL_ERROR "docs/reference.md is stale: run python3 tools/gen_reference.py")
endif()
