// Streams the lines of one DFTracer trace file, plain (`.pfw`) or gzip (`.pfw.gz`, any number of
// independent members), through a fixed buffer: memory does not grow with the file. A file cut
// short (a rank killed mid-run: the last gzip member cut, the last line without its newline) is
// read up to its last complete line and reports why it is incomplete; data that is not gzip where
// gzip was promised throws Error(kIo) naming the file and the byte offset. next_bytes reads a file
// whole through the same decoding (the counters files: one JSON line of any length).
#pragma once

#include <zlib.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "storage/file.h"

namespace dlbench::trace_summary {

class LineReader {
 public:
  // Throws Error(kIo) if `path` cannot be opened. `env` must outlive the reader.
  LineReader(storage::Env& env, const std::string& path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next complete line, without its newline; valid until the next call. False at the end.
  bool next(std::string_view& line);

  // The next decoded bytes, wherever lines end; valid until the next call. False at the end. A
  // reader gives its file either by lines or by bytes, not both.
  bool next_bytes(std::string_view& bytes);

  // Whether the file starts with gzip's magic (and is read as gzip members).
  bool gzip() const { return gzip_; }
  // Empty when the file ended cleanly; else why it is incomplete.
  const std::string& cut() const { return cut_; }
  const std::string& path() const { return path_; }

 private:
  bool fill();  // adds decoded bytes after the unread ones; false at the end of the input
  Bytes read_input(char* buffer, Bytes length);

  std::string path_;
  std::unique_ptr<storage::ReadableFile> file_;
  Bytes offset_ = 0;  // of the next input byte
  bool gzip_ = false;
  bool member_open_ = false;  // inside a gzip member that has not ended yet
  bool input_done_ = false;
  z_stream stream_{};
  std::vector<char> input_;
  std::vector<char> text_;  // decoded bytes [begin_, end_) not yet returned
  std::size_t begin_ = 0, end_ = 0;
  std::string cut_;
};

}  // namespace dlbench::trace_summary
