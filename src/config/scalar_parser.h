// The scalar spellings shared by workload files (YAML 1.1 as PyYAML reads them) and overrides.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dlbench::config {

// Decimal integer with optional sign; `_` allowed between digits (1_000_000).
std::optional<std::int64_t> ParseInteger(std::string_view text);

// Decimal float: 3.14, -20.0, .5, 5., 1e-3, -10e3, inf, nan (any case, with or without the
// YAML leading dot: .inf), and integers. `_` allowed between digits.
std::optional<double> ParseFloat(std::string_view text);

// YAML 1.1 booleans: true/false/yes/no/on/off in any case.
std::optional<bool> ParseBool(std::string_view text);

// A YAML plain scalar that reads as null: null, Null, NULL, ~, or nothing.
bool IsNullSpelling(std::string_view text);

// Shortest text that parses back to exactly `value` (inf and nan as .inf, .nan).
std::string FormatFloat(double value);

std::string Lowercase(std::string_view text);

}  // namespace dlbench::config
