#include "formats/csv/csv_writer.h"

#include <zlib.h>

#include <algorithm>
#include <string>

#include "dataset/content.h"
#include "formats/csv/csv_text.h"
#include "formats/io/buffered_appender.h"
#include "storage/file.h"
#include "util/error.h"

namespace dlbench::formats {
namespace {

// Where the text goes: formatted straight into the file's buffer, or into a text buffer that is
// compressed into the file's buffer as one gzip stream.
class TextSink {
 public:
  // `text`: the text buffer of the gzip case.
  TextSink(BufferedAppender& out, std::span<std::byte> text, const FileSpec& spec)
      : out_(out), text_(reinterpret_cast<char*>(text.data()), text.size()) {
    switch (spec.compression) {
      case config::Compression::kNone:
        break;
      case config::Compression::kGzip:
        gzip_ = true;
        // windowBits 15 + 16: a gzip header and trailer around the deflate stream.
        if (deflateInit2(&z_, spec.compression_level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
            Z_OK) {
          // config::Validate holds the level to 0..9, which zlib takes.
          throw InternalError(spec.path + ": zlib refused gzip level " +
                              std::to_string(spec.compression_level));
        }
        break;
      default:  // config::Validate lets only none and gzip through
        throw InternalError(std::string("csv files are written uncompressed or with gzip, not ") +
                            config::ToString(spec.compression));
    }
  }
  ~TextSink() {
    if (gzip_) deflateEnd(&z_);
  }
  TextSink(const TextSink&) = delete;
  TextSink& operator=(const TextSink&) = delete;

  // Room for at least `chars` characters (at most the text buffer's size), after making it.
  char* room(std::size_t chars) {
    if (gzip_) {
      if (text_.size() - used_ < chars) drain(Z_NO_FLUSH);
      at_ = text_.data() + used_;
    } else {
      std::span<std::byte> space = out_.free_space();
      if (space.size() < chars) {
        out_.flush();
        space = out_.free_space();
      }
      at_ = reinterpret_cast<char*>(space.data());
    }
    return at_;
  }
  void commit(std::size_t chars) {
    if (gzip_) {
      used_ += chars;
    } else {
      out_.commit(chars);
    }
    last_ = at_ + chars - 1;
  }
  // Replaces the last character committed (the final ',' of a line).
  void replace_last(char c) { *last_ = c; }
  void finish() {
    if (gzip_) drain(Z_FINISH);
  }

 private:
  void drain(int flush) {
    z_.next_in = reinterpret_cast<Bytef*>(text_.data());
    z_.avail_in = static_cast<uInt>(used_);
    int status = Z_OK;
    do {
      const std::span<std::byte> space = out_.free_space();
      z_.next_out = reinterpret_cast<Bytef*>(space.data());
      z_.avail_out = static_cast<uInt>(space.size());
      status = deflate(&z_, flush);
      if (status == Z_STREAM_ERROR) throw InternalError("zlib deflate failed");
      out_.commit(space.size() - z_.avail_out);
    } while (z_.avail_in > 0 || (flush == Z_FINISH && status != Z_STREAM_END));
    used_ = 0;
  }

  BufferedAppender& out_;
  std::span<char> text_;
  std::size_t used_ = 0;
  char* at_ = nullptr;    // where the last room() starts
  char* last_ = nullptr;  // the last character committed
  bool gzip_ = false;
  z_stream z_{};
};

}  // namespace

Bytes CsvWriter::file_size(const FileSpec& spec) const {
  throw UsageError(spec.path + ": the size of a csv file depends on its values");
}

WriteResult CsvWriter::write(storage::Env& env, const FileSpec& spec,
                             const dataset::ContentGenerator& content,
                             std::span<std::byte> buffer) const {
  if (spec.encoding == config::ContentEncoding::kAssembled) {
    return WriteAssembledCsv(env, spec, content, pools_, buffer);
  }
  const csv::ElementType type = csv::ElementTypeOf(spec.dtype);
  const auto item = static_cast<std::size_t>(type.size);
  const Bytes sample = spec.sample_bytes();
  // A quarter of the buffer for generated values, a quarter for gzip's text, half for the file.
  const std::size_t quarter = buffer.size() / 4;
  if (quarter < csv::kMaxFieldChars) {
    throw InternalError("csv writer: a buffer of " + std::to_string(buffer.size()) +
                        " bytes is too small");
  }
  const std::span<std::byte> values = buffer.first(quarter - quarter % item);
  auto file = env.create(spec.path);
  {
    BufferedAppender out(*file, buffer.subspan(2 * quarter));
    TextSink text(out, buffer.subspan(quarter, quarter), spec);
    for (std::int64_t k = 0; k < spec.samples; ++k) {
      const Bytes row = static_cast<Bytes>(k) * sample;
      for (Bytes done = 0; done < sample;) {
        // As many values as the text buffer holds at most, so a chunk never drains twice.
        const std::size_t count =
            std::min<Bytes>({values.size(), sample - done, quarter / csv::kMaxFieldChars * item});
        const std::span<std::byte> chunk = values.first(count);
        content.fill(spec.file_index, row + done, chunk);
        csv::ToStoredValues(type, chunk);
        char* at = text.room(count / item * csv::kMaxFieldChars);
        text.commit(csv::FormatElements(type, chunk, at));
        done += count;
      }
      if (sample > 0) text.replace_last('\n');
    }
    text.finish();
    out.flush();
  }
  return FinishDataFile(*file, spec);
}

}  // namespace dlbench::formats
