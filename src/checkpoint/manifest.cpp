#include "checkpoint/manifest.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

#include "storage/atomic_file.h"
#include "util/error.h"
#include "util/file_names.h"
#include "util/path_text.h"

namespace dlbench::checkpoint {
namespace {

using Json = nlohmann::json;

constexpr const char* kFormat = "dlbench-checkpoint-manifest";
constexpr int kVersion = 1;
// The most ranks a manifest may name. A drain visits every rank of the saving world (its markers,
// one stat each, polled until all are there): a damaged world of 2^31 - 1 hung the drain.
constexpr int kMaxWorld = 1 << 20;
// A manifest is read, and written by a commit, in pieces of this size: it lists every file of the
// job (~95 B each), which no rank needs to hold as a whole.
constexpr std::size_t kPieceBytes = std::size_t{1} << 20;
// Room reserved beyond kPieceBytes for a printed piece, more than one file's entry takes (a name
// of 255 bytes, each escaped to 6), so that the piece's buffer never grows past its reservation:
// growing by doubling made it 2 MiB once a manifest passed 1 MiB, and ~0.5 MiB below that.
constexpr std::size_t kPieceSlack = 64 * 1024;

// A manifest's count that must be a whole number >= 0 (nlohmann's get<Bytes> would wrap -5 and
// truncate 1.5).
Bytes Count(const Json& value) {
  if (!value.is_number_unsigned()) throw std::runtime_error("a size is not a whole number >= 0");
  return value.get<Bytes>();
}

std::string RankProblem(const std::string& rank, const std::string& name, int world) {
  return "rank " + rank + " of " + name + " is not a rank of the world of " + std::to_string(world);
}

// Appends a manifest's text as nlohmann's dump(1) prints the manifest as one JSON object (keys
// sorted, one space per level), one file at a time: no JSON object of every file, which took
// ~600 B a file. Strings are escaped by nlohmann, which still refuses a name that is not UTF-8.
class TextBuilder {
 public:
  TextBuilder(std::string& out, const std::string& checkpoint, int world,
              const ContentSettings& content)
      : out_(out), world_(world) {
    out_ += "{\n \"checkpoint\": " + Json(checkpoint).dump() + ",\n \"content\": {\n  ";
    out_ += "\"randomize\": " + std::string(content.randomize ? "true" : "false") + ",\n  ";
    out_ += "\"seed\": " + std::to_string(content.seed) + "\n },\n \"files\": [";
  }

  void add(const std::string& name, Bytes bytes, Rank rank) {
    out_ += files_ == 0 ? "\n  {\n   \"bytes\": " : ",\n  {\n   \"bytes\": ";
    out_ += std::to_string(bytes) + ",\n   \"name\": " + Json(name).dump() + ",\n   ";
    out_ += "\"rank\": " + std::to_string(rank) + "\n  }";
    ++files_;
  }

  void finish(Bytes total_bytes) {
    out_ += files_ == 0 ? "]" : "\n ]";
    out_ += ",\n \"format\": " + Json(kFormat).dump() + ",\n \"total_bytes\": ";
    out_ += std::to_string(total_bytes) + ",\n \"version\": " + std::to_string(kVersion) +
            ",\n \"world\": " + std::to_string(world_) + "\n}\n";
  }

 private:
  std::string& out_;
  int world_;
  std::uint64_t files_ = 0;
};

// The planned manifest's text, one rank's plan at a time, handed to `emit` in pieces of about
// kPieceBytes.
void EmitPlannedManifest(const std::string& folder, const CheckpointPlan& plan,
                         const ContentSettings& content,
                         const std::function<void(const std::string&)>& emit) {
  std::string piece;
  piece.reserve(kPieceBytes + kPieceSlack);
  TextBuilder text(piece, BaseName(folder), plan.world(), content);
  Bytes total = 0;
  for (Rank r = 0; r < plan.world(); ++r) {
    const PlannedFiles files = plan.for_rank(r).files;
    for (std::size_t i = 0; i < files.size(); ++i) {
      text.add(files.name(i), files.bytes(i), r);
      total += files.bytes(i);
      if (piece.size() >= kPieceBytes) {
        emit(piece);
        piece.clear();
      }
    }
  }
  text.finish(total);
  emit(piece);
}

// Builds a Manifest from the parser's events without a JSON object of the whole manifest: the
// header (every key but the files) is one small object, and each file of the list is one small
// object, checked, kept or not, and dropped. The checks and their messages are those of the
// whole object, in the same order: a syntax error first, then the header's keys, then the first
// file at fault. `world` follows `files` in the text (keys are sorted), so a file's rank is
// checked against it at the end: the files before the first other fault whose rank is larger
// than every rank before it are remembered (about one a rank), and the first of them beyond the
// world is the first file at fault.
class ManifestSax {
 public:
  // nlohmann's own builder of a JSON value from events, which json::parse uses.
  using DomParser = nlohmann::detail::json_sax_dom_parser<Json>;

  explicit ManifestSax(const ManifestFilter& keep) : keep_(keep), header_parser_(header_) {}

  bool null() {
    return value([](DomParser& p) { return p.null(); });
  }
  bool boolean(bool v) {
    return value([&](DomParser& p) { return p.boolean(v); });
  }
  bool number_integer(Json::number_integer_t v) {
    return value([&](DomParser& p) { return p.number_integer(v); });
  }
  bool number_unsigned(Json::number_unsigned_t v) {
    return value([&](DomParser& p) { return p.number_unsigned(v); });
  }
  bool number_float(Json::number_float_t v, const Json::string_t& s) {
    return value([&](DomParser& p) { return p.number_float(v, s); });
  }
  bool string(Json::string_t& v) {
    return value([&](DomParser& p) { return p.string(v); });
  }
  bool binary(Json::binary_t& v) {
    return value([&](DomParser& p) { return p.binary(v); });
  }
  bool start_object(std::size_t n) {
    return open([&](DomParser& p) { return p.start_object(n); }, false);
  }
  bool start_array(std::size_t n) {
    return open([&](DomParser& p) { return p.start_array(n); }, true);
  }
  bool end_object() {
    return close([](DomParser& p) { return p.end_object(); });
  }
  bool end_array() {
    return close([](DomParser& p) { return p.end_array(); });
  }
  bool key(Json::string_t& k) {
    if (entry_depth_ > 0) return entry_parser_->key(k);
    files_key_ = depth_ == 1 && k == "files";
    // A key given twice counts with its last value, as in a JSON object.
    if (files_key_) forget_files();
    return header_parser_.key(k);
  }
  template <class Exception>
  bool parse_error(std::size_t /*position*/, const std::string& /*token*/, const Exception& e) {
    throw e;
  }

  // The manifest, once the parser has gone through the whole text.
  Manifest finish() {
    Manifest manifest;
    const Json& json = header_;
    if (json.at("format").get<std::string>() != kFormat) throw std::runtime_error("wrong format");
    if (json.at("version").get<int>() != kVersion) throw std::runtime_error("unknown version");
    manifest.checkpoint = json.at("checkpoint").get<std::string>();
    const Json& world = json.at("world");
    if (!world.is_number_integer() || world.get<std::int64_t>() < 1 ||
        world.get<std::int64_t>() > kMaxWorld) {
      throw std::runtime_error("world " + world.dump() + " is not 1 to " +
                               std::to_string(kMaxWorld) + " ranks");
    }
    manifest.world = world.get<int>();
    manifest.content.randomize = json.at("content").at("randomize").get<bool>();
    manifest.content.seed = json.at("content").at("seed").get<std::uint64_t>();
    manifest.total_bytes = Count(json.at("total_bytes"));
    // Empty when the list was taken file by file; anything else (nlohmann iterates an object's
    // values, and a number or a string as itself) is taken here, as a loop over it would.
    for (const Json& e : json.at("files")) take(e);
    for (const auto& [rank, name] : record_ranks_) {
      if (rank >= manifest.world) {
        throw std::runtime_error(RankProblem(std::to_string(rank), name, manifest.world));
      }
    }
    if (fault_) {
      throw std::runtime_error(fault_->rank.empty()
                                   ? fault_->message
                                   : RankProblem(fault_->rank, fault_->message, manifest.world));
    }
    manifest.files = std::move(files_);
    manifest.listed_files = listed_;
    return manifest;
  }

 private:
  // The first fault of a file other than a rank beyond the world: a message, or, for a rank that
  // is no rank at all, its text and the file's name in `message` (the message names the world).
  struct Fault {
    std::string message;
    std::string rank;
  };

  template <class Event>
  bool value(const Event& event) {
    if (entry_depth_ > 0) return event(*entry_parser_);
    if (in_files()) {  // a file that is no object: the checks say so
      Json entry;
      DomParser parser(entry);
      event(parser);
      take(entry);
      return true;
    }
    return event(header_parser_);
  }

  template <class Event>
  bool open(const Event& event, bool array) {
    if (entry_depth_ > 0 || in_files()) {
      if (entry_depth_++ == 0) {
        entry_ = Json();
        entry_parser_.emplace(entry_);
      }
      return event(*entry_parser_);
    }
    if (array && depth_ == 1 && files_key_) taking_files_ = true;
    ++depth_;
    return event(header_parser_);
  }

  template <class Event>
  bool close(const Event& event) {
    if (entry_depth_ > 0) {
      event(*entry_parser_);
      if (--entry_depth_ == 0) {
        entry_parser_.reset();
        take(entry_);
        entry_ = Json();
      }
      return true;
    }
    if (in_files()) taking_files_ = false;
    --depth_;
    return event(header_parser_);
  }

  // Directly in the files' list: each value there is one file.
  bool in_files() const { return taking_files_ && depth_ == 2; }

  void forget_files() {
    files_.clear();
    record_ranks_.clear();
    fault_.reset();
    listed_ = 0;
  }

  // One file of the list, checked as the whole manifest's loop checks it.
  void take(const Json& e) {
    ++listed_;
    if (fault_) return;  // the manifest is corrupt; the first fault is what is reported
    try {
      ManifestEntry entry{e.at("name").get<std::string>(), Count(e.at("bytes")), 0};
      // A file of the checkpoint's own folder: a name with a '/' or a '..' would have a drain or
      // an eviction reach outside it.
      if (entry.name.empty() || entry.name == "." || entry.name == ".." ||
          entry.name.find('/') != std::string::npos) {
        throw std::runtime_error("file name '" + FileText(entry.name) +
                                 "' is not a name in the checkpoint's folder");
      }
      const Json& rank = e.at("rank");
      if (!rank.is_number_integer() || rank.get<std::int64_t>() < 0) {
        fault_ = Fault{entry.name, rank.dump()};
        return;
      }
      const std::int64_t r = rank.get<std::int64_t>();
      // Beyond kMaxWorld, no later rank can be a first rank beyond the world.
      if (record_ranks_.empty() ||
          (r > record_ranks_.back().first && record_ranks_.back().first < kMaxWorld)) {
        record_ranks_.emplace_back(r, entry.name);
      }
      entry.rank = static_cast<Rank>(r);  // checked against the world at the end
      if (!keep_ || keep_(entry)) files_.push_back(std::move(entry));
    } catch (const std::exception& ex) {
      fault_ = Fault{ex.what(), {}};
    }
  }

  const ManifestFilter& keep_;
  Json header_;
  DomParser header_parser_;
  int depth_ = 0;  // the header's open objects and arrays
  bool files_key_ = false;
  bool taking_files_ = false;  // in the list of the (last) `files` key
  Json entry_;
  std::optional<DomParser> entry_parser_;
  int entry_depth_ = 0;  // the current file's open objects and arrays
  std::vector<ManifestEntry> files_;
  std::uint64_t listed_ = 0;
  std::vector<std::pair<std::int64_t, std::string>> record_ranks_;
  std::optional<Fault> fault_;
};

// A file's bytes as a stream, read kPieceBytes at a time.
class FileStreamBuffer : public std::streambuf {
 public:
  explicit FileStreamBuffer(storage::ReadableFile& file)
      : file_(file),
        size_(file.size()),
        piece_(static_cast<std::size_t>(std::min<Bytes>(size_, kPieceBytes))) {}

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (offset_ >= size_) return traits_type::eof();
    const Bytes got =
        file_.read_at(offset_, piece_.data(), std::min<Bytes>(piece_.size(), size_ - offset_));
    if (got == 0) return traits_type::eof();
    offset_ += got;
    setg(piece_.data(), piece_.data(), piece_.data() + got);
    return traits_type::to_int_type(*gptr());
  }

 private:
  storage::ReadableFile& file_;
  const Bytes size_;  // as the file was opened, as a whole read would take it
  Bytes offset_ = 0;
  std::vector<char> piece_;
};

template <class Input>
Manifest Parse(Input&& input, const std::string& path, const ManifestFilter& keep) {
  try {
    ManifestSax sax(keep);
    Json::sax_parse(std::forward<Input>(input), &sax);
    return sax.finish();
  } catch (const Error&) {
    throw;  // reading the file failed: its own error, naming the path and errno
  } catch (const std::exception& e) {
    throw IoError("read checkpoint manifest", path, 0, std::string("corrupt: ") + e.what());
  }
}

}  // namespace

Manifest PlannedManifest(const std::string& folder, const CheckpointPlan& plan,
                         const ContentSettings& content) {
  Manifest manifest;
  manifest.checkpoint = BaseName(folder);
  manifest.world = plan.world();
  manifest.content = content;
  for (Rank r = 0; r < plan.world(); ++r) {
    const PlannedFiles files = plan.for_rank(r).files;
    for (std::size_t i = 0; i < files.size(); ++i) {
      manifest.files.push_back({files.name(i), files.bytes(i), r});
      manifest.total_bytes += files.bytes(i);
    }
  }
  manifest.listed_files = manifest.files.size();
  return manifest;
}

std::string ManifestText(const Manifest& manifest) {
  std::string out;
  TextBuilder text(out, manifest.checkpoint, manifest.world, manifest.content);
  for (const ManifestEntry& e : manifest.files) text.add(e.name, e.bytes, e.rank);
  text.finish(manifest.total_bytes);
  return out;
}

std::string PlannedManifestText(const std::string& folder, const CheckpointPlan& plan,
                                const ContentSettings& content) {
  std::string out;
  EmitPlannedManifest(folder, plan, content, [&](const std::string& piece) { out += piece; });
  return out;
}

void CheckPlannedFiles(storage::Env& env, const std::string& folder, const CheckpointPlan& plan,
                       const std::vector<Rank>& ranks) {
  for (Rank r : ranks) {
    const PlannedFiles files = plan.for_rank(r).files;
    for (std::size_t i = 0; i < files.size(); ++i) {
      const std::string path = JoinPath(folder, files.name(i));
      if (!env.exists(path)) {
        throw IoError("complete checkpoint", path, 0,
                      "missing (rank " + std::to_string(r) + " did not write it); no manifest");
      }
      const Bytes size = env.file_size(path);
      if (size != files.bytes(i)) {
        throw IoError("complete checkpoint", path, 0,
                      "size " + std::to_string(size) + " B, planned " +
                          std::to_string(files.bytes(i)) + " B; no manifest");
      }
    }
  }
}

void WriteManifestText(storage::Env& env, const std::string& folder, const std::string& text,
                       bool fsync) {
  storage::AtomicFileWriter writer(env, JoinPath(folder, file_names::kCheckpointManifest));
  writer.file().append(text.data(), text.size());
  writer.commit(fsync);
}

void WritePlannedManifest(storage::Env& env, const std::string& folder, const CheckpointPlan& plan,
                          const ContentSettings& content, bool fsync) {
  storage::AtomicFileWriter writer(env, JoinPath(folder, file_names::kCheckpointManifest));
  EmitPlannedManifest(folder, plan, content, [&](const std::string& piece) {
    writer.file().append(piece.data(), piece.size());
  });
  writer.commit(fsync);
}

Manifest WriteManifest(storage::Env& env, const std::string& folder, const CheckpointPlan& plan,
                       const ContentSettings& content, bool fsync) {
  std::vector<Rank> ranks;
  for (Rank r = 0; r < plan.world(); ++r) ranks.push_back(r);
  CheckPlannedFiles(env, folder, plan, ranks);
  Manifest manifest = PlannedManifest(folder, plan, content);
  WriteManifestText(env, folder, ManifestText(manifest), fsync);
  return manifest;
}

bool IsCheckpointComplete(storage::Env& env, const std::string& folder) {
  return env.exists(JoinPath(folder, file_names::kCheckpointManifest));
}

Manifest ReadManifest(storage::Env& env, const std::string& folder, const ManifestFilter& keep) {
  const std::string path = JoinPath(folder, file_names::kCheckpointManifest);
  if (!env.exists(path)) {
    throw IoError("read checkpoint", folder, 0,
                  std::string("incomplete checkpoint: no ") + file_names::kCheckpointManifest +
                      " (a save was interrupted or a rank failed)");
  }
  std::unique_ptr<storage::ReadableFile> file = env.open_read(path);
  FileStreamBuffer buffer(*file);
  std::istream stream(&buffer);
  return Parse(stream, path, keep);
}

Manifest ParseManifest(const std::string& text, const std::string& path,
                       const ManifestFilter& keep) {
  return Parse(text, path, keep);
}

}  // namespace dlbench::checkpoint
