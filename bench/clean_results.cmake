# Empty the JSON-lines results before a run: every benchmark program appends to them.
file(MAKE_DIRECTORY ${DIR})
file(GLOB results ${DIR}/*.jsonl)
if(results)
  file(REMOVE ${results})
endif()
