// A storage::SharedFile in memory and its opener, for testing the Env wrappers on shared files
// without MPI: a group of one process, which records every call by name.
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "storage/shared_file.h"

namespace dlbench::test {

class MemorySharedOpener final : public storage::SharedFileOpener {
 public:
  std::vector<std::string> calls;  // "open <path>", then the files' method names
  std::string bytes;               // the content of the last file opened

  std::unique_ptr<storage::SharedFile> open(const std::string& path) override {
    calls.push_back("open " + path);
    return std::make_unique<File>(path, *this);
  }

 private:
  class File final : public storage::SharedFile {
   public:
    File(std::string path, MemorySharedOpener& opener) : path_(std::move(path)), o_(opener) {}
    const std::string& path() const override { return path_; }
    void write_at_all(Bytes offset, const void* data, Bytes length) override {
      write("write_at_all", offset, data, length);
    }
    void write_at(Bytes offset, const void* data, Bytes length) override {
      write("write_at", offset, data, length);
    }
    Bytes read_at(Bytes offset, void* data, Bytes length) override {
      return read("read_at", offset, data, length);
    }
    Bytes read_at_all(Bytes offset, void* data, Bytes length) override {
      return read("read_at_all", offset, data, length);
    }
    Bytes size() override {
      o_.calls.push_back("size");
      return o_.bytes.size();
    }
    void set_size(Bytes size) override {
      o_.calls.push_back("set_size");
      o_.bytes.resize(size);
    }
    void sync() override { o_.calls.push_back("sync"); }
    void close() override { o_.calls.push_back("close"); }

   private:
    void write(const char* name, Bytes offset, const void* data, Bytes length) {
      o_.calls.push_back(name);
      if (o_.bytes.size() < offset + length) o_.bytes.resize(offset + length);
      if (length > 0) std::memcpy(o_.bytes.data() + offset, data, length);
    }
    Bytes read(const char* name, Bytes offset, void* data, Bytes length) {
      o_.calls.push_back(name);
      const Bytes n = offset >= o_.bytes.size() ? 0 : std::min(length, o_.bytes.size() - offset);
      if (n > 0) std::memcpy(data, o_.bytes.data() + offset, n);
      return n;
    }
    std::string path_;
    MemorySharedOpener& o_;
  };
};

}  // namespace dlbench::test
