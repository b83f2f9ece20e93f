// What every fuzz target of tests/fuzz shares: libFuzzer's entry point (defined once per target,
// called by libFuzzer in the fuzz build and by replay_main.cpp in the normal build), the rule for
// which outcomes are acceptable, and the splitting of one input into several files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

// Defined by each fuzz_<target>.cpp: parses `data` the way dlbench parses that input. Returns 0.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace dlbench::fuzz {

// Runs `parse` on one fuzz input. Bad input must end in dlbench::Error with a usage (2) or I/O
// or data (3) code, which is what dlbench reports to the user; anything else aborts, so the fuzzer
// records the input as a crash: Error(kInternal) (bad input reported as a dlbench bug), any other
// exception (a library's exception escaping with a raw message), and of course memory errors and
// undefined behaviour (ASan/UBSan in the fuzz build). With DLBENCH_FUZZ_VERBOSE set in the
// environment, prints each rejection (to see which seeds a parser accepts).
void ExpectOnlyInputErrors(const std::function<void()>& parse);

// The input as text.
std::string_view AsText(const std::uint8_t* data, std::size_t size);

// The parts of an input that stands for several files, separated by kSeparator. Always at least
// one part. The seeds of multi-file targets hold the separator (tests/fuzz/make_corpus.sh).
inline constexpr std::string_view kSeparator = "\n#=dlbench-fuzz-next=#\n";
std::vector<std::string_view> SplitInput(std::string_view input);

}  // namespace dlbench::fuzz
