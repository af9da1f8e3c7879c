# Turns the C blocks of README.md into one translation unit that test_headers compiles with the
# project's warnings, so the README's taste of the API cannot drift from the headers.
# Lines that belong at file scope (#include, #define and its continuations, typedef, the typed
# X-macro declarations and queries, a `static` function up to its closing `}` at column 0) go first; the rest of each block becomes the body of a function whose
# parameters are the free names the README leaves to the reader's game.
#   cmake -DREADME=... -DOUT=... -P readme_taste.cmake
file(STRINGS ${README} lines)
set(in_block 0)
set(continued 0)
set(in_function 0)
set(file_scope "")
set(bodies "")
set(body "")
set(n 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^```c$")
    set(in_block 1)
    set(body "")
  elseif(in_block AND line MATCHES "^```")
    set(in_block 0)
    math(EXPR n "${n} + 1")
    string(APPEND bodies "void dod_readme_block_${n}(DOD_README_PARAMS);\n"
                         "void dod_readme_block_${n}(DOD_README_PARAMS)\n{\n    DOD_README_UNUSED;\n"
                         "${body}}\n\n")
  elseif(in_block)
    if(in_function)
      string(APPEND file_scope "${line}\n")
      if(line STREQUAL "}")
        set(in_function 0)
      endif()
    elseif(line MATCHES "^static ")
      string(APPEND file_scope "${line}\n")
      set(in_function 1)
    elseif(continued OR line MATCHES "^(#|typedef |DOD_WORLD|DOD_QUERY|DOD_TABLE_TYPED)")
      string(APPEND file_scope "${line}\n")
      if(line MATCHES "\\\\$")
        set(continued 1)
      else()
        set(continued 0)
      endif()
    else()
      string(APPEND body "    ${line}\n")
    endif()
  endif()
endforeach()
file(WRITE ${OUT}.new "/* Generated from README.md by tests/readme_taste.cmake. */\n"
  "#include <stdio.h>\n${file_scope}\n"
  "#define DOD_README_PARAMS const Regiment *regiments, uint32_t n_regiments, \\\n"
  "    uint32_t n_locations, const uint32_t *picked, uint32_t n_picked, float *budget\n"
  "#define DOD_README_UNUSED (void)regiments, (void)n_regiments, (void)n_locations, \\\n"
  "    (void)picked, (void)n_picked, (void)budget\n\n${bodies}")
file(COPY_FILE ${OUT}.new ${OUT} ONLY_IF_DIFFERENT)
