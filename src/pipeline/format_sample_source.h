// The SampleSource of real data: files opened through a formats::FormatReader on a storage::Env,
// each described by a FileSpec the caller derives from the dataset layout (the workflow owns
// that mapping; the pipeline never learns a concrete format or path rule).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "formats/format.h"
#include "pipeline/sample_source.h"
#include "storage/file.h"

namespace dlbench::pipeline {

class FormatSampleSource final : public SampleSource {
 public:
  // Writes the spec of file `file` of the split into `spec`: `spec` is the calling thread's,
  // reused from file to file (no allocation per sample once its strings have grown). With `again`
  // false, every field must be assigned; with `again` true, `spec` holds what this function wrote
  // for an earlier file on this thread, so fields that every file of the source shares may be
  // left as they are. Called concurrently from reader threads, so it must only read shared state.
  using SpecFor = std::function<void(FileIndex file, formats::FileSpec& spec, bool again)>;

  FormatSampleSource(const formats::FormatReader& reader, storage::Env& env,
                     const formats::FileReadOptions& options, SpecFor spec_for);

  std::unique_ptr<SampleFile> open(FileIndex file) override;
  // Reads through the format's FileReader directly: no SampleFile allocated per sample.
  OnceRead read_once(FileIndex file, std::uint64_t index, SampleBuffer& buffer,
                     Bytes& open_bytes) override;

 private:
  // The calling thread's spec, filled for `file` by spec_for_ (valid until its next call).
  const formats::FileSpec& spec_of(FileIndex file);

  const formats::FormatReader& reader_;
  storage::Env& env_;
  formats::FileReadOptions options_;
  SpecFor spec_for_;
  std::uint64_t id_;  // tells apart the sources whose specs a thread's spec last held
};

}  // namespace dlbench::pipeline
