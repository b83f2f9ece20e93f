#include "staging/file_cache.h"

#include <chrono>
#include <filesystem>
#include <set>
#include <utility>

namespace dlbench::staging {

FileCache::FileCache(storage::Env& env, std::vector<CacheUnit> units, Bytes capacity,
                     CopyOptions options)
    : env_(env),
      units_(std::move(units)),
      capacity_(capacity),
      options_(options),
      states_(units_.size()) {
  std::set<std::string> folders;
  for (const CacheUnit& unit : units_) {
    for (const FileCopy& file : unit.files) {
      folders.insert(std::filesystem::path(file.to).parent_path().string());
    }
  }
  for (const std::string& folder : folders) env_.create_directories(folder);
}

FileCache::~FileCache() {
  cancel_ = true;
  if (prefetch_.joinable()) prefetch_.join();
}

bool FileCache::cached(std::size_t i) const { return states_[i].load() == kCached; }

bool FileCache::reserve(std::size_t i) {
  if (states_[i].load() != kAbsent) return false;
  if (used_ + units_[i].bytes > capacity_) {
    ++stats_.no_room;
    return false;
  }
  used_ += units_[i].bytes;
  stats_.peak_bytes = std::max(stats_.peak_bytes, used_);
  states_[i] = kCopying;
  return true;
}

void FileCache::copy_unit(std::size_t i, std::vector<char>& buffer) {
  CopyStats copied;
  try {
    for (const FileCopy& file : units_[i].files) copied.add(CopyFile(env_, file, buffer, options_));
  } catch (...) {
    const std::lock_guard lock(mutex_);
    used_ -= units_[i].bytes;
    states_[i] = kAbsent;
    copied_.notify_all();
    throw;
  }
  const std::lock_guard lock(mutex_);
  stats_.copied.add(copied);
  states_[i] = kCached;
  copied_.notify_all();
}

bool FileCache::fetch(std::size_t i) {
  {
    std::unique_lock lock(mutex_);
    copied_.wait(lock, [&] { return states_[i].load() != kCopying; });
    if (states_[i].load() == kCached) return true;
    if (!reserve(i)) return false;
  }
  const auto start = std::chrono::steady_clock::now();
  std::vector<char> buffer(std::max<Bytes>(options_.buffer_bytes, 1));
  copy_unit(i, buffer);
  const std::lock_guard lock(mutex_);
  stats_.copied.seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return true;
}

void FileCache::evict(std::size_t i, bool count) {
  for (const FileCopy& file : units_[i].files) env_.remove(file.to);
  const std::lock_guard lock(mutex_);
  states_[i] = kAbsent;
  used_ -= units_[i].bytes;
  if (count) ++stats_.evictions;
}

void FileCache::stop_prefetch() {
  cancel_ = true;
  if (prefetch_.joinable()) prefetch_.join();
  cancel_ = false;
  rethrow_prefetch_error();
}

void FileCache::rethrow_prefetch_error() {
  if (prefetch_error_) std::rethrow_exception(std::exchange(prefetch_error_, nullptr));
}

void FileCache::prefetch(std::vector<std::size_t> wanted) {
  stop_prefetch();
  prefetch_ = std::thread([this, wanted = std::move(wanted)] {
    try {
      const auto start = std::chrono::steady_clock::now();
      const std::set<std::size_t> keep(wanted.begin(), wanted.end());
      for (std::size_t i = 0; i < units_.size(); ++i) {
        if (cached(i) && keep.count(i) == 0) evict(i, /*count=*/true);
      }
      std::vector<std::size_t> to_copy;
      {
        const std::lock_guard lock(mutex_);
        for (const std::size_t i : wanted) {
          if (reserve(i)) to_copy.push_back(i);
        }
      }
      try {
        ForEachInParallel(
            options_.threads, to_copy.size(), options_.buffer_bytes, &cancel_,
            [&](std::size_t k, std::vector<char>& buffer) { copy_unit(to_copy[k], buffer); });
      } catch (...) {
        prefetch_error_ = std::current_exception();
      }
      // Units reserved but not reached (cancelled) give their room back.
      const std::lock_guard lock(mutex_);
      for (const std::size_t i : to_copy) {
        if (states_[i].load() == kCopying) {
          states_[i] = kAbsent;
          used_ -= units_[i].bytes;
        }
      }
      stats_.copied.seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } catch (...) {
      prefetch_error_ = std::current_exception();
    }
  });
}

void FileCache::wait() {
  if (prefetch_.joinable()) prefetch_.join();
  rethrow_prefetch_error();
}

void FileCache::clear() {
  stop_prefetch();
  for (std::size_t i = 0; i < units_.size(); ++i) {
    if (cached(i)) evict(i, /*count=*/false);
  }
}

CacheStats FileCache::stats() const {
  const std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace dlbench::staging
