// A file outside src/mpi/, src/storage/ and src/formats/hdf5/ that includes <mpi.h>: the
// layering.misplaced_include test runs the header-placement check on this tree and expects it to
// fail. Never compiled.
#include <mpi.h>
