# Fails unless <mpi.h> and <hdf5.h> (and HDF5's H5*.h) are included only where they belong
# (docs/architecture.md): src/mpi/, src/storage/ and src/formats/hdf5/. Run as a test:
#   cmake -DSOURCE_DIR=<dir holding src/> -P CheckHeaderPlacement.cmake
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "CheckHeaderPlacement: give -DSOURCE_DIR=<project source dir>")
endif()
get_filename_component(SOURCE_DIR "${SOURCE_DIR}" ABSOLUTE)
file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/src/*.h ${SOURCE_DIR}/src/*.cpp)
set(misplaced "")
foreach(file IN LISTS files)
  if(file MATCHES "^src/(mpi|storage)/" OR file MATCHES "^src/formats/hdf5/")
    continue()
  endif()
  file(STRINGS ${SOURCE_DIR}/${file} lines
    REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](mpi|hdf5|H5[A-Za-z]*)\\.h[>\"]")
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    list(APPEND misplaced "${file}: ${line}")
  endforeach()
endforeach()
if(misplaced)
  list(JOIN misplaced "\n  " listing)
  message(FATAL_ERROR "<mpi.h>/<hdf5.h> belong in src/mpi/, src/storage/ and src/formats/hdf5/ "
    "only (docs/architecture.md); found:\n  ${listing}")
endif()
message(STATUS "MPI and HDF5 headers are included only in src/mpi/, src/storage/, src/formats/hdf5/")
