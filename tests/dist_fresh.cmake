# dist/ is what tools/amalgamate.py makes of the sources now: regenerate into OUT and compare.
#   cmake -DPYTHON=... -DSOURCE=<project> -DOUT=<dir> -P dist_fresh.cmake
execute_process(COMMAND ${PYTHON} ${SOURCE}/tools/amalgamate.py ${OUT} RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "tools/amalgamate.py failed")
endif()
foreach(f dod.h dod.c)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${SOURCE}/dist/${f} ${OUT}/${f}
                  RESULT_VARIABLE differs)
  if(differs)
    message(FATAL_ERROR "dist/${f} is stale: run python3 tools/amalgamate.py and commit dist/")
  endif()
endforeach()
