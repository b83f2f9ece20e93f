# DLBENCH_BUILD_FUZZERS: every target is compiled for libFuzzer (coverage feedback) with ASan and
# UBSan, so the fuzz targets of tests/fuzz find memory errors and undefined behaviour in the
# parsers they call. Only the fuzz executables link libFuzzer's main (tests/fuzz/CMakeLists.txt).
# Configure it in its own build folder (scripts/dev/fuzz.sh uses build-fuzz): nothing else should be
# built with these flags.
if(NOT DLBENCH_BUILD_FUZZERS)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR CMAKE_CXX_COMPILER_VERSION VERSION_LESS 16)
  message(FATAL_ERROR "DLBENCH_BUILD_FUZZERS needs clang >= 16 (libFuzzer, C++20); configure with "
    "-DCMAKE_CXX_COMPILER=clang++-16 -DCMAKE_C_COMPILER=clang-16 (Debian: clang-16, libclang-rt-16-dev)")
endif()
if(NOT DLBENCH_SANITIZE STREQUAL "")
  message(FATAL_ERROR "DLBENCH_BUILD_FUZZERS brings its own sanitizers: leave DLBENCH_SANITIZE empty")
endif()
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
  -fno-omit-frame-pointer -g)
add_link_options(-fsanitize=address,undefined)
