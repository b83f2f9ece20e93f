# Warning and sanitizer flags shared by every dlbench target.
add_library(dlbench_flags INTERFACE)
target_compile_options(dlbench_flags INTERFACE -Wall -Wextra -Wpedantic -Wshadow
  -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Wnull-dereference)
# GCC 12 reports false -Wrestrict positives inside libstdc++'s std::string at -O3.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(dlbench_flags INTERFACE -Wno-restrict)
endif()
# Unity builds (scripts/lib.sh builds so; CMAKE_UNITY_BUILD) compile a library's .cpp files as
# #includes of one file. GCC then takes a class of one .cpp whose members use a type of that file's
# anonymous namespace for a header's class and warns (-Wsubobject-linkage), which only makes sense
# for headers: the .cpp is still one translation unit's own. The normal build keeps the warning.
if(CMAKE_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(dlbench_flags INTERFACE -Wno-subobject-linkage)
endif()
if(DLBENCH_WERROR)
  target_compile_options(dlbench_flags INTERFACE -Werror)
endif()
if(DLBENCH_SANITIZE STREQUAL "address")
  target_compile_options(dlbench_flags INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
    -fno-sanitize-recover=undefined)
  # GCC 12-14 report false -Wmaybe-uninitialized positives inside libstdc++'s <regex> under
  # -fsanitize=address; at -Og (scripts/test-sanitizers.sh), GCC 12 takes the global delete in
  # storage/recycled.h's class-specific operator delete for a mismatch with the class's operator
  # new, whose fallback is the global new. The normal build checks both warnings.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(dlbench_flags INTERFACE -Wno-maybe-uninitialized
      -Wno-mismatched-new-delete)
  endif()
  target_link_options(dlbench_flags INTERFACE -fsanitize=address,undefined)
elseif(DLBENCH_SANITIZE STREQUAL "thread")
  target_compile_options(dlbench_flags INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(dlbench_flags INTERFACE -fsanitize=thread)
elseif(NOT DLBENCH_SANITIZE STREQUAL "")
  message(FATAL_ERROR "DLBENCH_SANITIZE must be '', 'address' or 'thread', not '${DLBENCH_SANITIZE}'")
endif()
