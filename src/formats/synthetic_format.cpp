#include "formats/synthetic_format.h"

#include <string>

#include "formats/io/direct_file.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

class SyntheticFileReader final : public FileReader {
 public:
  explicit SyntheticFileReader(const FileSpec& spec)
      : path_(spec.path), samples_(spec.samples), sample_bytes_(spec.sample_bytes()) {}
  const std::string& path() const override { return path_; }
  std::int64_t samples() const override { return samples_; }
  Bytes sample_bytes() const override { return sample_bytes_; }
  Bytes open_bytes() const override { return 0; }
  Bytes read_sample(std::int64_t k, std::span<std::byte> out) override {
    check_request(k, out);
    return 0;
  }

 private:
  std::string path_;
  std::int64_t samples_;
  Bytes sample_bytes_;
};

}  // namespace

Bytes SyntheticWriter::file_size(const FileSpec& spec) const {
  return std::to_string(spec.file_index).size();
}

WriteResult SyntheticWriter::write(storage::Env& env, const FileSpec& spec,
                                   const dataset::ContentGenerator&, std::span<std::byte>) const {
  const std::string text = std::to_string(spec.file_index);
  auto file = env.create(spec.path);
  file->append(text.data(), text.size());
  if (spec.fsync) file->sync();
  file->close();
  WriteResult result;
  result.data_bytes = text.size();
  result.files.push_back(spec.path);
  return result;
}

std::unique_ptr<FileReader> SyntheticReader::open(storage::Env&, const FileSpec& spec,
                                                  const FileReadOptions& options) const {
  RejectDirect(options, "synthetic");
  return std::make_unique<SyntheticFileReader>(spec);
}

}  // namespace dlbench::formats
