# Writes OUTPUT, a header defining DLBENCH_GIT_COMMIT: the commit of SOURCE_DIR's checkout
# ("<40 hex digits>", with "-dirty" when tracked files differ from it), or "unknown" outside a git
# checkout. Run at every build (src/CMakeLists.txt); the file is rewritten only when the text
# changes, so an unchanged checkout recompiles nothing.
#   cmake -DSOURCE_DIR=<dir> -DOUTPUT=<header> -P GitCommit.cmake
set(commit "unknown")
find_program(GIT git)
if(GIT)
  execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} rev-parse HEAD
    OUTPUT_VARIABLE head RESULT_VARIABLE failed OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT failed AND head MATCHES "^[0-9a-f]+$")
    set(commit "${head}")
    execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} diff --quiet HEAD --
      RESULT_VARIABLE dirty OUTPUT_QUIET ERROR_QUIET)
    if(dirty)
      string(APPEND commit "-dirty")
    endif()
  endif()
endif()
set(text "// Written by cmake/GitCommit.cmake at build time.\n#define DLBENCH_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUTPUT} "${text}")
endif()
