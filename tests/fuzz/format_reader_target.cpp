#include "fuzz/format_reader_target.h"

#include <string_view>
#include <vector>

#include "formats/format.h"
#include "formats/registry.h"
#include "fuzz/fuzz_target.h"
#include "fuzz/memory_env.h"

namespace dlbench::fuzz {

void FuzzFormatReader(config::Format format, const std::uint8_t* data, std::size_t size) {
  const bool image = format == config::Format::kJpeg || format == config::Format::kPng;
  formats::FileSpec spec;
  spec.path = "/data/train/img_0_of_1";
  spec.sample_dims = {6, 6};
  spec.dtype = "uint8";
  spec.samples = image ? 1 : 3;
  MemoryEnv env;
  if (format == config::Format::kIndexedBinary) {
    const std::vector<std::string_view> parts = SplitInput(AsText(data, size));
    env.add(spec.path, parts[0]);
    if (parts.size() > 1) env.add(spec.offsets_index(), parts[1]);
    if (parts.size() > 2) env.add(spec.sizes_index(), parts[2]);
  } else {
    env.add(spec.path, AsText(data, size));
  }
  formats::FileReadOptions options;
  options.transfer_size = 64;  // many refills of the streaming readers' buffers
  ExpectOnlyInputErrors([&] {
    const auto reader = formats::MakeReader(format)->open(env, spec, options);
    std::vector<std::byte> sample(reader->sample_bytes());
    for (std::int64_t k = 0; k < reader->samples(); ++k) reader->read_sample(k, sample);
  });
}

}  // namespace dlbench::fuzz
