#include "config/distribution_parser.h"

#include <utility>

#include "config/scalar_parser.h"
#include "config/typed_value.h"
#include "config/workload_catalog.h"

namespace dlbench::config {
namespace {

using Kind = TimeDistribution::Kind;

struct TypeSpec {
  Kind kind;
  const char* name;
  std::vector<std::string> parameters;
};

const std::vector<TypeSpec>& Types() {
  static const std::vector<TypeSpec> kTypes = {
      {Kind::kNormal, "normal", {"mean", "stdev"}}, {Kind::kUniform, "uniform", {"min", "max"}},
      {Kind::kGamma, "gamma", {"shape", "scale"}},  {Kind::kExponential, "exponential", {"scale"}},
      {Kind::kPoisson, "poisson", {"lam"}},
  };
  return kTypes;
}

template <typename D>  // TimeDistribution, const or not
auto* Parameter(D& d, const std::string& name) {
  using Result = decltype(&d.mean);
  if (name == "mean") return Result{&d.mean};
  if (name == "stdev") return Result{&d.stdev};
  if (name == "min") return Result{&d.min};
  if (name == "max") return Result{&d.max};
  if (name == "shape") return Result{&d.shape};
  if (name == "scale") return Result{&d.scale};
  if (name == "lam") return Result{&d.lam};
  return Result{nullptr};
}

}  // namespace

const std::vector<std::string>& DistributionKeys() {
  static const std::vector<std::string> kKeys = {"type", "mean",  "stdev", "min",
                                                 "max",  "shape", "scale", "lam"};
  return kKeys;
}

const char* DistributionTypeName(Kind kind) {
  for (const auto& spec : Types()) {
    if (spec.kind == kind) return spec.name;
  }
  return "constant";
}

TimeDistribution ParseDistribution(const DocNode& node, const std::string& path) {
  TimeDistribution d;
  if (node.is_null()) return d;
  if (node.is_scalar()) {
    Convert(node, path, d.mean);
    return d;
  }
  if (!node.is_map()) {
    FailAt(path, node,
           "expected seconds as a number or a mapping like {mean: 1.0, stdev: 0.1} or "
           "{type: uniform, min: 0.5, max: 1.5}, got " +
               Describe(node));
  }
  for (const auto& [key, value] : node.entries) {
    bool known = false;
    for (const auto& k : DistributionKeys()) known = known || k == key;
    if (!known) {
      std::string message = "unknown key" + Where(value);
      if (auto close = ClosestMatch(key, DistributionKeys())) {
        message += "; did you mean " + *close + "?";
      }
      throw UsageError(path + "." + key + ": " + message);
    }
  }
  const DocNode* type = node.find("type");
  const TypeSpec* spec = nullptr;
  if (type && !type->is_null()) {
    std::string name;
    Convert(*type, path + ".type", name);
    for (const auto& candidate : Types()) {
      if (Lowercase(name) == candidate.name) spec = &candidate;
    }
    if (!spec) {
      FailAt(path + ".type", *type,
             "unknown distribution '" + name +
                 "'; allowed: normal, uniform, gamma, exponential, poisson");
    }
    d.kind = spec->kind;
  } else {
    // DLIO: {mean} is a constant, {mean, stdev} a normal distribution.
    d.kind = node.find("stdev") ? Kind::kNormal : Kind::kConstant;
  }
  for (const auto& [key, value] : node.entries) {
    if (key == "type") continue;
    bool belongs = false;
    if (spec) {
      for (const auto& p : spec->parameters) belongs = belongs || p == key;
    } else {
      belongs = key == "mean" || key == "stdev";
    }
    if (!belongs) {
      const std::string type_name = spec ? spec->name : "a distribution without type";
      std::string allowed;
      for (const auto& p : spec ? spec->parameters : Types()[0].parameters) {
        allowed += (allowed.empty() ? "" : ", ") + p;
      }
      FailAt(path + "." + key, value,
             "not a parameter of " + type_name + " (which takes " + allowed + ")");
    }
    Convert(value, path + "." + key, *Parameter(d, key));
  }
  return d;
}

void Convert(const DocNode& node, const std::string& path, TimeDistribution& out) {
  out = ParseDistribution(node, path);
}

DocNode ToNode(const TimeDistribution& distribution) { return DistributionToNode(distribution); }

DocNode DistributionToNode(const TimeDistribution& d) {
  if (d.kind == Kind::kConstant) return ToNode(d.mean);
  DocNode map = DocNode::Map();
  map.entries.emplace_back("type", DocNode::Scalar(DistributionTypeName(d.kind)));
  for (const auto& spec : Types()) {
    if (spec.kind != d.kind) continue;
    for (const auto& p : spec.parameters) {
      map.entries.emplace_back(p, ToNode(*Parameter(d, p)));
    }
  }
  return map;
}

}  // namespace dlbench::config
