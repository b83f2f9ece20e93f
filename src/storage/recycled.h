// Per-thread reuse of the memory of objects that the read path creates and destroys once per
// sample (with read_type on_demand every sample opens its file: the POSIX file, the counting
// wrapper and the format's reader are each allocated and freed once per sample). A class that
// derives from Recycled<Itself> gets a class-specific operator new/delete that keeps one freed
// block per thread and hands it to the next allocation of that class on the thread: no malloc
// or free in the steady state (glibc's malloc/free pairs were ~2.5 % of the CPU of the 4 KiB npy
// read-limit workload). A block freed on another thread than it was allocated on is cached
// there; sizes other than sizeof(Derived) (a further derived class) go to the global operator.
// The cached block is freed when its thread exits.
//
// SpareString does the same for the heap buffer of a string member (a file's path): Take() gives a
// string with the capacity of one that Keep() got before on this thread, so assigning a path of
// no greater length allocates nothing.
#pragma once

#include <cstddef>
#include <new>
#include <string>
#include <utility>

namespace dlbench::storage {

// AddressSanitizer must see every free to find a use after it: no reuse in its builds.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kRecycle = false;
#elif defined(__has_feature)  // clang
inline constexpr bool kRecycle = !__has_feature(address_sanitizer);
#else
inline constexpr bool kRecycle = true;
#endif

template <class Derived>
class Recycled {
 public:
  static void* operator new(std::size_t size) {
    if (size == sizeof(Derived) && cached_block != nullptr) {
      void* block = cached_block;
      cached_block = nullptr;
      return block;
    }
    return ::operator new(size);
  }
  static void operator delete(void* block, std::size_t size) noexcept {
    if (kRecycle && size == sizeof(Derived) && cached_block == nullptr && !thread_exited) {
      cached_block = block;
      HoldUntilExit();
      return;
    }
    ::operator delete(block);  // unsized: clang enables sized deallocation only on request
  }

 private:
  // Frees the cached block when the thread exits; from then on (another thread-local object's
  // destructor freeing a Derived) blocks are not cached.
  struct Releaser {
    ~Releaser() {
      thread_exited = true;
      ::operator delete(cached_block);
      cached_block = nullptr;
    }
  };
  static void HoldUntilExit() { thread_local Releaser releaser; }

  // Trivially destructible, so they stay usable while the thread's other thread-local objects
  // are destroyed.
  static thread_local inline void* cached_block = nullptr;
  static thread_local inline bool thread_exited = false;
};

class SpareString {
 public:
  // The thread's spare string (empty, with its capacity), or an empty one.
  static std::string Take() {
    if (spare_string == nullptr) return {};
    std::string taken = std::move(*spare_string);
    taken.clear();
    return taken;
  }
  // Keeps `string`'s buffer for the next Take() on this thread if it is larger than the spare's.
  static void Keep(std::string&& string) noexcept {
    if (!kRecycle || thread_exited) return;
    if (spare_string == nullptr) {
      spare_string = new (std::nothrow) std::string();
      if (spare_string == nullptr) return;
      HoldUntilExit();
    }
    if (string.capacity() > spare_string->capacity()) spare_string->swap(string);
  }

 private:
  struct Releaser {
    ~Releaser() {
      thread_exited = true;
      delete spare_string;
      spare_string = nullptr;
    }
  };
  static void HoldUntilExit() { thread_local Releaser releaser; }

  static thread_local inline std::string* spare_string = nullptr;
  static thread_local inline bool thread_exited = false;
};

}  // namespace dlbench::storage
