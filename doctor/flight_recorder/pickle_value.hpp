// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The values of the pickle machine (pickle_reader.cpp) before they become JSON: shared nodes, so a memo fetch
// is the same container as Python's unpickler would return, and the conversion to JSON with its limits.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pf/result.hpp"

namespace pf::doctor::fr {

struct Node {
  enum Kind { kNone, kBool, kInt, kFloat, kStr, kList, kTuple, kDict } kind = kNone;
  bool b = false;
  std::int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<Node*> items;  // a dict's keys and values alternate
};
using NodePtr = Node*;

/// Owns every node of one pickle. Nodes point at each other with plain pointers: a pickle can nest a million
/// levels or put a list inside itself, and neither recursive destructors nor reference counts survive that.
class NodeArena {
 public:
  NodePtr make(Node::Kind k) {
    nodes_.push_back(std::make_unique<Node>());
    nodes_.back()->kind = k;
    return nodes_.back().get();
  }
  NodePtr makeBool(bool v) {
    NodePtr n = make(Node::kBool);
    n->b = v;
    return n;
  }
  NodePtr makeInt(std::int64_t v) {
    NodePtr n = make(Node::kInt);
    n->i = v;
    return n;
  }
  NodePtr makeFloat(double v) {
    NodePtr n = make(Node::kFloat);
    n->f = v;
    return n;
  }
  NodePtr makeStr(std::string_view v) {
    NodePtr n = make(Node::kStr);
    n->s = std::string(v);
    return n;
  }

 private:
  std::vector<std::unique_ptr<Node>> nodes_;
};

/// `root` as JSON. Strings are made valid UTF-8. `name` prefixes errors; `inputBytes` sets the output budget
/// (shared references can make the output exponentially larger than the input).
/// @throws PickleError (offset = the input's size) for a container inside itself, nesting deeper than
/// kMaxPickleDepth, a dict key that is not a str/int/bool/None, or output over the budget.
Json toJson(NodePtr root, const std::string& name, std::size_t inputBytes);

}  // namespace pf::doctor::fr
