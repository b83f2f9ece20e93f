#include "trace/recorder.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "trace/event_formatter.h"
#include "trace/gzip_members.h"
#include "trace/record.h"
#include "util/error.h"
#include "util/path_text.h"
#include "util/thread_priority.h"

namespace dlbench::trace {
namespace {

std::atomic<std::uint64_t> next_generation{1};

// The recorder alive now (its generation) and its registry, for threads that exit: they hand
// their buffer back under `registry_mutex` unless the recorder is gone.
std::mutex registry_mutex;
std::uint64_t live_generation = 0;  // guarded by registry_mutex
Recorder* live_recorder = nullptr;  // guarded by registry_mutex

// The calling thread's buffer in the recorder of generation `generation`. Never copied: a copy's
// destructor would hand the buffer back while this thread still records into it, and the next new
// thread would then share it (two producers on one ring: slots published before they are written).
struct ThreadCache {
  std::uint64_t generation = 0;
  ThreadBuffer* buffer = nullptr;
  ThreadCache() = default;
  ThreadCache(const ThreadCache&) = delete;
  ThreadCache& operator=(const ThreadCache&) = delete;
  ~ThreadCache() {
    std::lock_guard lock(registry_mutex);
    if (buffer != nullptr && generation == live_generation) live_recorder->release(buffer);
  }
};
thread_local ThreadCache this_thread;
thread_local std::string this_thread_name;  // NameThread's, for recorders started later

std::uint32_t ThisThreadId() {
  thread_local const auto kId = static_cast<std::uint32_t>(::gettid());
  return kId;
}

std::size_t PowerOfTwoAtLeast(std::size_t n) {
  std::size_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

std::uint64_t Mix(std::uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::int64_t WallNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void NameThread(std::string_view name) {
  this_thread_name = name;
  if (Recorder* r = Active()) r->name_thread(ThisThreadId(), std::string(name));
}

Recorder::Recorder(RecorderOptions options)
    : options_(std::move(options)), generation_(next_generation.fetch_add(1)) {
  if (options_.sample < 1) throw UsageError("profiling.trace_sample must be at least 1");
  if (options_.buffer_events < kMinBufferEvents) {
    throw UsageError("profiling.trace_buffer_events must be at least " +
                     std::to_string(kMinBufferEvents) + ", got " +
                     std::to_string(options_.buffer_events));
  }
  options_.buffer_events = PowerOfTwoAtLeast(options_.buffer_events);
  if (options_.steady_origin_ns == 0 && options_.wall_origin_ns == 0) {
    options_.steady_origin_ns = NowNs();
    options_.wall_origin_ns = WallNs();
  }
  working_directory_ = std::filesystem::current_path().string();
  formatter_ = std::make_unique<EventFormatter>(options_, static_cast<std::uint32_t>(::getpid()));
  out_ =
      std::make_unique<GzipMembers>(options_.path, options_.compress, options_.compression_level);
  formatter_->begin(text_, ThisThreadId(), NowNs());
  last_flush_ = std::chrono::steady_clock::now();
  Recorder* expected = nullptr;
  if (!detail::active_recorder.compare_exchange_strong(expected, this)) {
    throw InternalError("trace: a recorder is active already");
  }
  // From here on a throw must undo the registration: no destructor runs for this object.
  try {
    if (!this_thread_name.empty()) name_thread(ThisThreadId(), this_thread_name);
    {
      std::lock_guard lock(registry_mutex);
      live_generation = generation_;
      live_recorder = this;
    }
    std::function<void()> loop = [this] { writer_loop(); };
    writer_ = options_.start_writer ? options_.start_writer(std::move(loop)) : std::thread(loop);
  } catch (...) {
    unregister();
    throw;
  }
  std::unique_lock lock(mutex_);
  started_.wait(lock, [&] { return writer_tid_ != 0; });
}

void Recorder::unregister() noexcept {
  Recorder* self = this;
  detail::active_recorder.compare_exchange_strong(self, nullptr);
  std::lock_guard lock(registry_mutex);
  if (live_recorder == this) {
    live_generation = 0;
    live_recorder = nullptr;
  }
}

Recorder::~Recorder() {
  unregister();
  try {
    finish();
  } catch (...) {  // NOLINT(bugprone-empty-catch): the destructor of a failed run
  }
}

void Recorder::release(ThreadBuffer* buffer) {
  std::lock_guard lock(mutex_);
  buffer->in_use = false;
}

bool Recorder::traces_path(std::string_view path) const {
  if (options_.data_dirs.empty()) return true;
  std::string absolute;
  if (path.empty() || (path.front() != '/' && !IsUri(path))) {
    absolute = working_directory_ + "/" + std::string(path);
    path = absolute;
  }
  for (const std::string& dir : options_.data_dirs) {
    if (path.size() >= dir.size() && path.compare(0, dir.size(), dir) == 0 &&
        (path.size() == dir.size() || path[dir.size()] == '/' || dir.back() == '/')) {
      return true;
    }
  }
  return false;
}

bool Recorder::sampled(std::uint64_t key) const {
  return options_.sample <= 1 || Mix(key) % options_.sample == 0;
}

ThreadBuffer* Recorder::this_thread_buffer() {
  if (this_thread.generation == generation_) return this_thread.buffer;
  ThreadBuffer* buffer = nullptr;
  {
    std::lock_guard lock(mutex_);
    for (const auto& b : buffers_) {
      if (!b->in_use) buffer = b.get();  // left by a thread that exited
    }
    if (buffer == nullptr) {
      buffers_.push_back(std::make_unique<ThreadBuffer>(options_.buffer_events));
      buffer = buffers_.back().get();
      ++stats_.threads;
    }
    buffer->in_use = true;
    if (!this_thread_name.empty()) pending_names_.emplace_back(ThisThreadId(), this_thread_name);
  }
  this_thread.generation = generation_;
  this_thread.buffer = buffer;
  return buffer;
}

void Recorder::record(const Slot& slot, std::string_view path) noexcept {
  ThreadBuffer* buffer = nullptr;
  try {
    buffer = this_thread_buffer();  // allocates once per thread and recorder
  } catch (...) {
    return;  // out of memory for a new thread's buffer: nothing to count it in
  }
  const std::size_t length = std::min(path.size(), kMaxPathBytes);
  const std::size_t path_slots = (length + sizeof(Slot) - 1) / sizeof(Slot);
  const std::size_t slots = 1 + path_slots;
  if (!buffer->has_room(slots) && !wait_for_room(*buffer, slots)) return;
  Slot& first = buffer->pending(0);
  first = slot;
  first.tid = ThisThreadId();
  first.path_slots = static_cast<std::uint16_t>(path_slots);
  first.path_length = static_cast<std::uint32_t>(length);
  for (std::size_t i = 0; i < path_slots; ++i) {
    const std::size_t at = i * sizeof(Slot);
    std::memcpy(static_cast<void*>(&buffer->pending(1 + i)), path.data() + at,
                std::min(sizeof(Slot), length - at));
  }
  buffer->publish(slots);
}

bool Recorder::wait_for_room(ThreadBuffer& buffer, std::size_t slots) noexcept {
  if (options_.policy == OverflowPolicy::kDrop || finishing_.load(std::memory_order_relaxed)) {
    buffer.dropped.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  const std::int64_t start = NowNs();
  while (!buffer.has_room(slots)) {
    if (finishing_.load(std::memory_order_relaxed)) {
      buffer.dropped.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
    wake_writer();
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  buffer.blocked.fetch_add(1, std::memory_order_relaxed);
  buffer.blocked_ns.fetch_add(NowNs() - start, std::memory_order_relaxed);
  return true;
}

void Recorder::wake_writer() {
  try {
    std::lock_guard lock(mutex_);
    wake_requested_ = true;
  } catch (...) {  // NOLINT(bugprone-empty-catch): the writer polls anyway
  }
  wake_.notify_one();
}

void Recorder::name_thread(std::uint32_t tid, std::string name) {
  std::lock_guard lock(mutex_);
  pending_names_.emplace_back(tid, std::move(name));
}

void Recorder::write_or_fail(const std::function<void()>& write) {
  if (write_error_) return;
  try {
    write();
  } catch (...) {
    write_error_ = std::current_exception();
  }
}

void Recorder::flush_member() {
  if (text_.empty()) return;
  stats_.text_bytes += text_.size();
  write_or_fail([&] { out_->write(text_); });
  text_.clear();
  last_flush_ = std::chrono::steady_clock::now();
}

void Recorder::drain() {
  std::vector<ThreadBuffer*> buffers;
  std::vector<std::pair<std::uint32_t, std::string>> names;
  {
    std::lock_guard lock(mutex_);
    buffers.reserve(buffers_.size());
    for (const auto& b : buffers_) buffers.push_back(b.get());
    names.swap(pending_names_);
  }
  for (const auto& [tid, name] : names) formatter_->thread_name(text_, tid, name);
  for (ThreadBuffer* buffer : buffers) {
    const std::uint64_t end = buffer->published();
    std::uint64_t at = buffer->consumed();
    while (at < end) {
      const Slot& slot = buffer->at(at);
      path_scratch_.clear();
      for (std::uint16_t i = 0; i < slot.path_slots; ++i) {
        const std::size_t take =
            std::min<std::size_t>(sizeof(Slot), slot.path_length - i * sizeof(Slot));
        path_scratch_.append(reinterpret_cast<const char*>(&buffer->at(at + 1 + i)), take);
      }
      if (write_error_) {
        ++lost_;
      } else {
        formatter_->complete(text_, slot, path_scratch_);
      }
      at += 1 + slot.path_slots;
      if (text_.size() >= options_.member_bytes) {
        buffer->consume_to(at);
        flush_member();
      }
    }
    buffer->consume_to(end);
  }
}

void Recorder::writer_loop() {
  // By default SCHED_IDLE (util/thread_priority.h): the writer only takes CPU the run leaves
  // idle, so a woken reader or trainer never waits behind it; it catches up in the run's gaps and
  // the buffers absorb the lag. With no gaps at all (every core busy, by the run or by other jobs)
  // it falls behind until a buffer is full, and then the policy decides (recorder.h): kBlock
  // stalls the recording thread, kDrop loses events. kLow (nice 10) keeps a share of a busy core
  // for it. Best effort: a refusal leaves the writer at the process's priority.
  if (options_.writer_priority) LowerThisThread(*options_.writer_priority);
  std::unique_lock lock(mutex_);
  writer_tid_ = static_cast<std::uint32_t>(::gettid());
  started_.notify_all();
  while (true) {
    wake_.wait_for(lock, options_.poll_interval, [&] { return wake_requested_ || stopping_; });
    wake_requested_ = false;
    const bool stopping = stopping_;
    ++passes_started_;
    lock.unlock();
    drain();
    if (!text_.empty() &&
        std::chrono::steady_clock::now() - last_flush_ >= options_.flush_interval) {
      flush_member();
    }
    lock.lock();
    ++passes_done_;
    drained_.notify_all();
    if (stopping) return;
  }
}

void Recorder::flush() {
  std::unique_lock lock(mutex_);
  if (stopping_) return;
  // A pass that starts after this point sees every event published before the call.
  const std::uint64_t pass = passes_started_ + 1;
  wake_requested_ = true;
  wake_.notify_one();
  drained_.wait(lock, [&] { return passes_done_ >= pass; });
}

TraceStats Recorder::finish() {
  if (finished_) return stats_;
  finished_ = true;
  Recorder* self = this;
  detail::active_recorder.compare_exchange_strong(self, nullptr);
  finishing_.store(true);
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (writer_.joinable()) writer_.join();
  drain();  // anything published after the writer's last look
  formatter_->end(text_, ThisThreadId(), NowNs());
  flush_member();
  text_ = "]\n";  // its own member: the closing line of a complete trace
  flush_member();
  write_or_fail([&] { out_->close(); });
  stats_.events = formatter_->events();
  stats_.totals = formatter_->totals();
  stats_.file_bytes = out_->bytes();
  stats_.members = out_->members();
  stats_.dropped = lost_;
  for (const auto& b : buffers_) {
    stats_.dropped += b->dropped.load();
    stats_.blocked += b->blocked.load();
    stats_.blocked_seconds += static_cast<double>(b->blocked_ns.load()) * 1e-9;
  }
  if (write_error_) std::rethrow_exception(write_error_);
  return stats_;
}

}  // namespace dlbench::trace
