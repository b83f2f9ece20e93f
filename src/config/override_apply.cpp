#include "config/override_apply.h"

#include "config/aliases.h"
#include "config/schema.h"
#include "config/secrets.h"
#include "util/error.h"

namespace dlbench::config {
namespace {

// The map that holds the last segment of `key`, created on the way. A time value written as
// a scalar becomes {mean: value}, so that `train.computation_time.stdev=0.1` extends it.
DocNode& ParentFor(DocNode& root, const std::vector<std::string>& key, const std::string& text,
                   const std::string& origin) {
  DocNode* node = &root;
  for (std::size_t i = 0; i + 1 < key.size(); ++i) {
    DocNode* child = node->find(key[i]);
    if (!child) child = &node->set(key[i], DocNode::Map(origin));
    if (child->is_null()) *child = DocNode::Map(origin);
    if (child->is_scalar()) {
      DocNode promoted = DocNode::Map(child->origin);
      promoted.set("mean", *child);
      *child = promoted;
    }
    if (!child->is_map()) {
      throw UsageError("override '" + text + "': " + JoinKey(key, i + 1) + " is " +
                       Describe(*child) + Where(*child) + ", not a mapping");
    }
    node = child;
  }
  return *node;
}

DocNode* FindPath(DocNode& root, const std::vector<std::string>& key) {
  DocNode* node = &root;
  for (const auto& segment : key) {
    node = node->find(segment);
    if (!node) return nullptr;
  }
  return node;
}

}  // namespace

void ApplyOverride(DocNode& root, const Override& o, std::vector<std::string>& notices) {
  if (!o.ignored_notice.empty()) {
    notices.push_back(o.ignored_notice);
    return;
  }
  const std::string origin = "override " + HideSecretOverride(o.text);  // origins are printed
  const auto key = CanonicalKey(o.key, o.value && o.value->is_scalar(), origin, notices);
  const KeyLookup lookup = Lookup(key);
  if (lookup.kind == KeyLookup::Kind::kUnknown) {
    throw UsageError(UnknownKeyMessage(key, lookup, origin));
  }
  DocNode* existing = FindPath(root, key);
  switch (o.op) {
    case Override::Op::kDelete: {
      if (!existing) return;  // already the default
      if (o.value && !SameValue(*existing, *o.value)) {
        throw UsageError("override '" + o.text + "': " + JoinKey(key) + " is " +
                         Describe(*existing) + Where(*existing) + ", not " + Describe(*o.value) +
                         "; nothing deleted");
      }
      DocNode& parent = ParentFor(root, key, o.text, origin);
      parent.erase(key.back());
      return;
    }
    case Override::Op::kAdd:
      if (existing) {
        throw UsageError("override '" + o.text + "': " + JoinKey(key) + " is already set" +
                         Where(*existing) + "; use +" + o.text + " to replace the value");
      }
      break;
    case Override::Op::kSet:
    case Override::Op::kUpsert:
      break;
  }
  DocNode& parent = ParentFor(root, key, o.text, origin);
  parent.set(key.back(), *o.value);
}

}  // namespace dlbench::config
