// DLIO time values (computation_time, preprocess_time, eval_time).
#pragma once

#include <string>
#include <vector>

#include "config/distribution.h"
#include "config/document.h"

namespace dlbench::config {

// The keys a time value's mapping may hold.
const std::vector<std::string>& DistributionKeys();

// Every DLIO form: scalar, {mean}, {mean, stdev}, {type: normal|uniform|gamma|exponential|
// poisson, ...}. An unknown type or key, or a parameter of another type, is an error.
TimeDistribution ParseDistribution(const DocNode& node, const std::string& path);

// The explicit form: a scalar for constants, otherwise {type, parameters of that type}.
DocNode DistributionToNode(const TimeDistribution& distribution);

// The overloads the schema picks for TimeDistribution fields (see typed_value.h).
void Convert(const DocNode& node, const std::string& path, TimeDistribution& out);
DocNode ToNode(const TimeDistribution& distribution);

const char* DistributionTypeName(TimeDistribution::Kind kind);

}  // namespace dlbench::config
