// Fuzz target: the NPY header parser on its own (any version, any shape), then the npy reader on
// the input as a data file (format_reader_target.h).
#include <string>

#include "formats/numpy/npy_header.h"
#include "fuzz/format_reader_target.h"
#include "fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fuzz = dlbench::fuzz;
  namespace npy = dlbench::formats::npy;
  const std::string_view bytes = fuzz::AsText(data, size);
  fuzz::ExpectOnlyInputErrors([&] {
    if (bytes.size() < npy::kProbeBytes) return;
    const dlbench::Bytes length = npy::HeaderLength(bytes.substr(0, npy::kProbeBytes), "fuzz.npy");
    if (length > bytes.size()) return;
    const npy::Header header = npy::Parse(bytes.substr(0, length), "fuzz.npy");
    npy::ShapeText(header.shape);
  });
  fuzz::FuzzFormatReader(dlbench::config::Format::kNpy, data, size);
  return 0;
}
