# One static library per folder of src/ (dlbench_<folder>), holding every .cpp of that folder and
# its subfolders (formats/ has one per format family).
# The link dependencies below are the layering of docs/architecture.md: a module links only the
# modules it may include.
function(dlbench_module name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${name}/*.cpp)
  if(sources)
    add_library(dlbench_${name} STATIC ${sources})
    target_include_directories(dlbench_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(dlbench_${name} PUBLIC ${ARG_DEPS} PRIVATE dlbench_flags)
  else()  # headers only, so far
    add_library(dlbench_${name} INTERFACE)
    target_include_directories(dlbench_${name} INTERFACE ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(dlbench_${name} INTERFACE ${ARG_DEPS})
  endif()
endfunction()

# A unit-test executable per module: tests/unit/<module>/*.cpp, discovered by ctest.
# WHOLE_LEAK_STACKS: it links dlbench_whole_leak_stacks (tests/CMakeLists.txt).
function(dlbench_unit_tests name)
  cmake_parse_arguments(ARG "WHOLE_LEAK_STACKS" "" "" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${name}/*.cpp)
  if(NOT sources)
    return()
  endif()
  add_executable(unit_${name} ${sources})
  if(NOT TARGET unit_tests)
    add_custom_target(unit_tests)  # every unit_<module>, for builds of the unit tests alone
  endif()
  add_dependencies(unit_tests unit_${name})
  target_link_libraries(unit_${name} PRIVATE dlbench_${name} dlbench_test_support GTest::gtest
    dlbench_flags)
  if(ARG_WHOLE_LEAK_STACKS)
    target_link_libraries(unit_${name} PRIVATE dlbench_whole_leak_stacks)
  endif()
  gtest_discover_tests(unit_${name} TEST_PREFIX "${name}." PROPERTIES LABELS unit TIMEOUT 120
    DISCOVERY_TIMEOUT 60)
endfunction()
