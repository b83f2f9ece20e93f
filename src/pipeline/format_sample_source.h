// The SampleSource of real data: files opened through a formats::FormatReader on a storage::Env,
// each described by a FileSpec the caller derives from the dataset layout (the workflow owns
// that mapping; the pipeline never learns a concrete format or path rule).
#pragma once

#include <functional>
#include <memory>

#include "formats/format.h"
#include "pipeline/sample_source.h"
#include "storage/file.h"

namespace dlbench::pipeline {

class FormatSampleSource final : public SampleSource {
 public:
  // The spec of file `file` of the split. Called concurrently from reader threads, so it must
  // only read shared state.
  using SpecFor = std::function<formats::FileSpec(FileIndex file)>;

  FormatSampleSource(const formats::FormatReader& reader, storage::Env& env,
                     const formats::FileReadOptions& options, SpecFor spec_for);

  std::unique_ptr<SampleFile> open(FileIndex file) override;

 private:
  const formats::FormatReader& reader_;
  storage::Env& env_;
  formats::FileReadOptions options_;
  SpecFor spec_for_;
};

}  // namespace dlbench::pipeline
