#include "pipeline/format_sample_source.h"

#include <cstdint>
#include <string>
#include <utility>

#include "util/error.h"

namespace dlbench::pipeline {

namespace {

class FormatSampleFile final : public SampleFile {
 public:
  explicit FormatSampleFile(std::unique_ptr<formats::FileReader> reader)
      : reader_(std::move(reader)) {}

  Bytes sample_bytes() const override { return reader_->sample_bytes(); }
  Bytes open_bytes() const override { return reader_->open_bytes(); }
  Bytes read(std::uint64_t index, std::span<std::byte> buffer) override {
    if (index >= static_cast<std::uint64_t>(reader_->samples())) {
      // The sampler and the file disagree on samples per file: the dataset on storage is not
      // the configured one.
      throw IoError("read", reader_->path(), 0,
                    "sample " + std::to_string(index) + " asked, the file holds " +
                        std::to_string(reader_->samples()) +
                        " (dataset.num_samples_per_file does not match the files)");
    }
    return reader_->read_sample(static_cast<std::int64_t>(index), buffer);
  }

 private:
  std::unique_ptr<formats::FileReader> reader_;
};

}  // namespace

FormatSampleSource::FormatSampleSource(const formats::FormatReader& reader, storage::Env& env,
                                       const formats::ReadOptions& options, SpecFor spec_for)
    : reader_(reader), env_(env), options_(options), spec_for_(std::move(spec_for)) {}

std::unique_ptr<SampleFile> FormatSampleSource::open(FileIndex file) {
  thread_local formats::FileSpec spec;  // the reader only reads it during open
  spec_for_(file, spec);
  return std::make_unique<FormatSampleFile>(reader_.open(env_, spec, options_));
}

}  // namespace dlbench::pipeline
