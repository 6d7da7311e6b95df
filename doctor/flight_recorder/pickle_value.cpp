// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "flight_recorder/pickle_value.hpp"

#include <cmath>
#include <unordered_set>

#include "flight_recorder/pickle_reader.hpp"
#include "pf/utf8.hpp"

namespace pf::doctor::fr {
namespace {

class JsonBuilder {
 public:
  JsonBuilder(const std::string& name, std::size_t inputBytes)
      : name_(name), inputBytes_(inputBytes), budget_(64 * inputBytes + (std::size_t{1} << 20)) {}

  Json build(NodePtr n, int depth) {
    if (depth > kMaxPickleDepth) fail("values nested deeper than " + std::to_string(kMaxPickleDepth) + " levels");
    // Each node costs one unit and each 16 bytes of text one more: an honest dump stays far below the budget,
    // a pickle that repeats a shared container to multiply its size does not.
    spend(1 + n->s.size() / 16);
    switch (n->kind) {
      case Node::kNone: return nullptr;
      case Node::kBool: return n->b;
      case Node::kInt: return n->i;
      case Node::kFloat: return std::isfinite(n->f) ? Json(n->f) : Json(nullptr);  // JSON has no inf/nan
      case Node::kStr: return toValidUtf8(n->s);
      default: break;
    }
    if (!open_.insert(n).second) fail("a container that contains itself");
    Json out = n->kind == Node::kDict ? Json::object() : Json::array();
    if (n->kind == Node::kDict) {
      for (std::size_t k = 0; k + 1 < n->items.size(); k += 2)
        out[keyText(*n->items[k])] = build(n->items[k + 1], depth + 1);
    } else {
      for (NodePtr item : n->items) out.push_back(build(item, depth + 1));
    }
    open_.erase(n);
    return out;
  }

 private:
  std::string keyText(const Node& k) {
    switch (k.kind) {
      case Node::kStr: return toValidUtf8(k.s);
      case Node::kInt: return std::to_string(k.i);
      case Node::kBool: return k.b ? "True" : "False";
      case Node::kNone: return "None";
      default: fail("a dict key that is a container or a float");
    }
  }
  void spend(std::size_t units) {
    if (units > budget_) fail("shared references that expand past 64 times the input's size");
    budget_ -= units;
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw PickleError(name_ + ": not a Flight Recorder dump Preflight can read: " + why +
                          ". Pass the dump as PyTorch wrote it (TORCH_FR_DUMP_TEMP_FILE), or its JSON form.",
                      name_, inputBytes_, "");
  }

  const std::string& name_;
  std::size_t inputBytes_;
  std::size_t budget_;
  std::unordered_set<const Node*> open_;  // the containers on the current path, to catch self-reference
};

}  // namespace

Json toJson(NodePtr root, const std::string& name, std::size_t inputBytes) {
  return JsonBuilder(name, inputBytes).build(root, 0);
}

}  // namespace pf::doctor::fr
