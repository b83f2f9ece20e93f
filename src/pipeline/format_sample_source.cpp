#include "pipeline/format_sample_source.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>

#include "util/error.h"

namespace dlbench::pipeline {

namespace {

// The sampler and the file disagree on samples per file: the dataset on storage is not the
// configured one.
void CheckSampleIndex(const formats::FileReader& reader, std::uint64_t index) {
  if (index >= static_cast<std::uint64_t>(reader.samples())) {
    throw IoError("read", reader.path(), 0,
                  "sample " + std::to_string(index) + " asked, the file holds " +
                      std::to_string(reader.samples()) +
                      " (dataset.num_samples_per_file does not match the files)");
  }
}

class FormatSampleFile final : public SampleFile {
 public:
  explicit FormatSampleFile(std::unique_ptr<formats::FileReader> reader)
      : reader_(std::move(reader)) {}

  Bytes sample_bytes() const override { return reader_->sample_bytes(); }
  Bytes open_bytes() const override { return reader_->open_bytes(); }
  Bytes read(std::uint64_t index, std::span<std::byte> buffer) override {
    CheckSampleIndex(*reader_, index);
    return reader_->read_sample(static_cast<std::int64_t>(index), buffer);
  }

 private:
  std::unique_ptr<formats::FileReader> reader_;
};

}  // namespace

FormatSampleSource::FormatSampleSource(const formats::FormatReader& reader, storage::Env& env,
                                       const formats::FileReadOptions& options, SpecFor spec_for)
    : reader_(reader), env_(env), options_(options), spec_for_(std::move(spec_for)), id_([] {
        static std::atomic<std::uint64_t> next{1};
        return next.fetch_add(1, std::memory_order_relaxed);
      }()) {}

const formats::FileSpec& FormatSampleSource::spec_of(FileIndex file) {
  struct ThreadSpec {
    formats::FileSpec spec;    // a reader only reads it during open
    std::uint64_t source = 0;  // the id_ of the source that wrote it (0: none yet)
  };
  thread_local ThreadSpec last;
  const bool again = last.source == id_;
  last.source = 0;  // until spec_for_ returns: an exception may leave the spec half written
  spec_for_(file, last.spec, again);
  last.source = id_;
  return last.spec;
}

std::unique_ptr<SampleFile> FormatSampleSource::open(FileIndex file) {
  return std::make_unique<FormatSampleFile>(reader_.open(env_, spec_of(file), options_));
}

SampleSource::OnceRead FormatSampleSource::read_once(FileIndex file, std::uint64_t index,
                                                     SampleBuffer& buffer, Bytes& open_bytes) {
  const formats::FileSpec& spec = spec_of(file);
  // A one-sample file may read its sample straight into the buffer while it opens (npy), if the
  // buffer has grown to the sample's size already (by the thread's first sample).
  formats::FileReadOptions options = options_;
  options.sample_into = buffer.available();
  options.sample_into_headroom = SampleBuffer::kHeadroom;
  const std::unique_ptr<formats::FileReader> reader = reader_.open(env_, spec, options);
  open_bytes += reader->open_bytes();
  CheckSampleIndex(*reader, index);
  const Bytes need = reader->sample_bytes();
  return {reader->read_sample(static_cast<std::int64_t>(index), buffer.get(need)), need};
}

}  // namespace dlbench::pipeline
