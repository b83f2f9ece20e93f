// Reading what a test's code wrote: a whole file, a folder's file sizes, a file that another
// thread is about to create.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

namespace dlbench::test {

// The bytes of `path` (empty when it cannot be read).
std::string ReadFile(const std::filesystem::path& path);

// The files directly in `folder`: name -> size in bytes.
std::map<std::string, std::uint64_t> FileSizes(const std::filesystem::path& folder);

// Whether `path` exists within a minute (polled every millisecond): for files that background
// threads (drains, copies) create.
bool AppearsWithinAMinute(const std::filesystem::path& path);

}  // namespace dlbench::test
