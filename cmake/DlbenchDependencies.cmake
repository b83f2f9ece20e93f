# Every dependency comes from a Debian package: scripts/lib.sh lists them in DLBENCH_PACKAGES and
# installs what is missing.

find_package(MPI REQUIRED COMPONENTS C)

# Parallel HDF5 (Debian: libhdf5-openmpi-dev). A serial HDF5 cannot write shared files
# from several ranks, and mixing it with MPI links two different HDF5 builds.
set(HDF5_PREFER_PARALLEL ON)
find_package(HDF5 REQUIRED COMPONENTS C)
if(NOT HDF5_IS_PARALLEL)
  message(FATAL_ERROR
    "dlbench: the HDF5 found (${HDF5_VERSION}, ${HDF5_C_LIBRARIES}) is serial, but dlbench is "
    "built with MPI. Install the parallel flavour (Debian: apt-get install libhdf5-openmpi-dev) "
    "or point HDF5_ROOT at a parallel HDF5 built with the same MPI.")
endif()
if(NOT TARGET hdf5::hdf5)
  add_library(hdf5::hdf5 INTERFACE IMPORTED)
  target_include_directories(hdf5::hdf5 INTERFACE ${HDF5_C_INCLUDE_DIRS})
  target_link_libraries(hdf5::hdf5 INTERFACE ${HDF5_C_LIBRARIES})
  target_compile_definitions(hdf5::hdf5 INTERFACE ${HDF5_C_DEFINITIONS})
endif()
# Parallel HDF5's headers include <mpi.h>: whoever uses HDF5 needs MPI's headers and library,
# whether or not it links dlbench_mpi.
target_link_libraries(hdf5::hdf5 INTERFACE MPI::MPI_C)

# Debian's yaml-cpp 0.7 exports the target without a namespace.
find_package(yaml-cpp REQUIRED)
if(NOT TARGET yaml-cpp::yaml-cpp)
  add_library(yaml-cpp::yaml-cpp INTERFACE IMPORTED)
  target_link_libraries(yaml-cpp::yaml-cpp INTERFACE yaml-cpp)
endif()

find_package(CLI11 CONFIG REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(ZLIB REQUIRED)
# The trace writer's gzip members (src/trace/gzip_members.cpp): libdeflate (Debian:
# libdeflate-dev) compresses a whole buffer at a time, 10 % smaller at zlib's CPU (results/trace.md).
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBDEFLATE REQUIRED IMPORTED_TARGET libdeflate)
# jpeg and png datasets: libjpeg-turbo's libjpeg API (Debian: libjpeg62-turbo-dev) and libpng
# (libpng-dev).
find_package(JPEG REQUIRED)
find_package(PNG REQUIRED)
# Parquet pages written by pyarrow and others (src/formats/parquet/parquet_codec.cpp): snappy, pyarrow's
# default codec (Debian: libsnappy-dev, found through its C header and library), and zstd
# (libzstd-dev).
find_path(SNAPPY_INCLUDE_DIR snappy-c.h REQUIRED)
find_library(SNAPPY_LIBRARY snappy REQUIRED)
if(NOT TARGET Snappy::snappy)
  add_library(Snappy::snappy UNKNOWN IMPORTED)
  set_target_properties(Snappy::snappy PROPERTIES IMPORTED_LOCATION ${SNAPPY_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${SNAPPY_INCLUDE_DIR})
endif()
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
find_package(Threads REQUIRED)
# The S3 backend (src/s3/): HTTP with libcurl (Debian: libcurl4-openssl-dev), SigV4's HMAC-SHA256
# and SHA-256 with OpenSSL (libssl-dev), response XML with expat (libexpat1-dev).
if(DLBENCH_S3)
  find_package(CURL REQUIRED)
  find_package(OpenSSL REQUIRED COMPONENTS Crypto)
  find_package(EXPAT REQUIRED)
endif()

if(DLBENCH_BUILD_TESTS)
  find_package(GTest REQUIRED)
  # Interop tests need Debian's numpy and h5py, which belong to the system interpreter, not to
  # whichever python3 comes first on PATH.
  set(DLBENCH_PYTHON /usr/bin/python3 CACHE FILEPATH "Python with numpy and h5py for interop tests")
endif()
if(DLBENCH_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED)
endif()
