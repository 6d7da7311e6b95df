// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The pickle machine of pickle_reader.hpp: a value stack, a mark stack and a memo, over shared nodes so that a
// memo fetch aliases the container as Python's does; the nodes become JSON once STOP is reached.
#include "flight_recorder/pickle_reader.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <unordered_map>
#include <utility>
#include <vector>

#include "flight_recorder/pickle_value.hpp"

namespace pf::doctor::fr {
namespace {

// Opcodes that would import or call Python code, or need objects outside the subset. Their names as in
// Python's pickletools, so the message matches what `python -m pickletools` shows.
const char* refusedOpcodeName(unsigned char op) {
  switch (op) {
    case 'c': return "GLOBAL";
    case 0x93: return "STACK_GLOBAL";
    case 'R': return "REDUCE";
    case 'b': return "BUILD";
    case 'i': return "INST";
    case 'o': return "OBJ";
    case 0x81: return "NEWOBJ";
    case 0x92: return "NEWOBJ_EX";
    case 'P': return "PERSID";
    case 'Q': return "BINPERSID";
    case 0x82: return "EXT1";
    case 0x83: return "EXT2";
    case 0x84: return "EXT4";
    default: return nullptr;
  }
}

// Opcodes outside the subset that run nothing but that the Flight Recorder never writes.
const char* unsupportedOpcodeName(unsigned char op) {
  switch (op) {
    case 'I': return "INT";
    case 'L': return "LONG";
    case 'F': return "FLOAT";
    case 'S': return "STRING";
    case 'T': return "BINSTRING";
    case 'U': return "SHORT_BINSTRING";
    case 'V': return "UNICODE";
    case 'p': return "PUT";
    case 'g': return "GET";
    case 0x8f: return "EMPTY_SET";
    case 0x90: return "ADDITEMS";
    case 0x91: return "FROZENSET";
    case 0x96: return "BYTEARRAY8";
    case 0x97: return "NEXT_BUFFER";
    case 0x98: return "READONLY_BUFFER";
    default: return nullptr;
  }
}

class PickleMachine {
 public:
  PickleMachine(std::string_view data, const std::string& name) : data_(data), name_(name) {}

  Json run() {
    while (true) {
      opStart_ = pos_;
      if (pos_ == data_.size())
        throw PickleError(name_ + ": truncated Flight Recorder dump: it ends at byte " + std::to_string(pos_) +
                              " before the pickle's STOP. Copy the whole file again.",
                          name_, pos_, "");
      const unsigned char op = byte("opcode");
      if (op == '.') break;
      step(op);
    }
    if (stack_.size() != 1 || !marks_.empty())
      fail("STOP", "the pickle ends with " + std::to_string(stack_.size()) + " values on its stack instead of one");
    return toJson(stack_.back(), name_, data_.size());
  }

 private:
  void step(unsigned char op) {
    switch (op) {
      case 0x80: {  // PROTO
        const unsigned v = byte("PROTO");
        if (v < 2 || v > 5) fail("PROTO", "protocol " + std::to_string(v) + " (PyTorch writes 2 or later)");
        return;
      }
      case 0x95: (void)take(8, "FRAME"); return;  // framing only groups bytes for the writer
      case '(': marks_.push_back(stack_.size()); return;
      case '0': pop("POP"); return;
      case '1': (void)popMark("POP_MARK"); return;
      case '2': push(top("DUP")); return;
      case 'N': push(nodes_.make(Node::kNone)); return;
      case 0x88: push(nodes_.makeBool(true)); return;
      case 0x89: push(nodes_.makeBool(false)); return;
      case 'J': push(nodes_.makeInt(static_cast<std::int32_t>(le(4, "BININT")))); return;
      case 'K': push(nodes_.makeInt(le(1, "BININT1"))); return;
      case 'M': push(nodes_.makeInt(le(2, "BININT2"))); return;
      case 0x8a: longInt(le(1, "LONG1"), "LONG1"); return;
      case 0x8b: longInt(le(4, "LONG4"), "LONG4"); return;
      case 'G': {
        std::uint64_t bits = 0;
        for (char c : take(8, "BINFLOAT")) bits = bits << 8 | static_cast<unsigned char>(c);
        double d;
        std::memcpy(&d, &bits, sizeof d);
        push(nodes_.makeFloat(d));
        return;
      }
      case 0x8c: push(nodes_.makeStr(take(le(1, "SHORT_BINUNICODE"), "SHORT_BINUNICODE"))); return;
      case 'X': push(nodes_.makeStr(take(le(4, "BINUNICODE"), "BINUNICODE"))); return;
      case 0x8d: push(nodes_.makeStr(take(le(8, "BINUNICODE8"), "BINUNICODE8"))); return;
      case 'C': push(nodes_.makeStr(take(le(1, "SHORT_BINBYTES"), "SHORT_BINBYTES"))); return;
      case 'B': push(nodes_.makeStr(take(le(4, "BINBYTES"), "BINBYTES"))); return;
      case 0x8e: push(nodes_.makeStr(take(le(8, "BINBYTES8"), "BINBYTES8"))); return;
      case '}': push(nodes_.make(Node::kDict)); return;
      case ']': push(nodes_.make(Node::kList)); return;
      case ')': push(nodes_.make(Node::kTuple)); return;
      case 'd': container(Node::kDict, popMark("DICT"), "DICT"); return;
      case 'l': container(Node::kList, popMark("LIST"), "LIST"); return;
      case 't': container(Node::kTuple, popMark("TUPLE"), "TUPLE"); return;
      case 0x85: tupleN(1, "TUPLE1"); return;
      case 0x86: tupleN(2, "TUPLE2"); return;
      case 0x87: tupleN(3, "TUPLE3"); return;
      case 'a': {
        NodePtr v = pop("APPEND");
        addTo(top("APPEND"), {std::move(v)}, "APPEND");
        return;
      }
      case 'e': {
        std::vector<NodePtr> items = popMark("APPENDS");
        addTo(top("APPENDS"), std::move(items), "APPENDS");
        return;
      }
      case 's': {
        NodePtr v = pop("SETITEM");
        NodePtr k = pop("SETITEM");
        addTo(top("SETITEM"), {std::move(k), std::move(v)}, "SETITEM");
        return;
      }
      case 'u': {
        std::vector<NodePtr> items = popMark("SETITEMS");
        addTo(top("SETITEMS"), std::move(items), "SETITEMS");
        return;
      }
      case 'q': memo_[le(1, "BINPUT")] = top("BINPUT"); return;
      case 'r': memo_[le(4, "LONG_BINPUT")] = top("LONG_BINPUT"); return;
      case 0x94: {  // MEMOIZE: the next free index, as Python counts them
        const std::uint64_t index = memo_.size();
        memo_[index] = top("MEMOIZE");
        return;
      }
      case 'h': get(le(1, "BINGET"), "BINGET"); return;
      case 'j': get(le(4, "LONG_BINGET"), "LONG_BINGET"); return;
      default: break;
    }
    if (const char* n = refusedOpcodeName(op))
      fail(n, std::string("it would import or call Python code, and Preflight never runs code from a dump"));
    if (const char* n = unsupportedOpcodeName(op))
      fail(n,
           "PyTorch's Flight Recorder does not write it (only protocol 2+ dicts, lists, tuples, str, int, float, "
           "bool and None are read)");
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", op);
    fail(hex, "not a pickle opcode");
  }

  [[noreturn]] void fail(const std::string& opcode, const std::string& why) const {
    throw PickleError(name_ + ": not a Flight Recorder dump Preflight can read: opcode " + opcode + " at byte " +
                          std::to_string(opStart_) + ": " + why +
                          ". Pass the dump as PyTorch wrote it (TORCH_FR_DUMP_TEMP_FILE), or its JSON form.",
                      name_, opStart_, opcode);
  }

  std::string_view take(std::uint64_t n, const char* op) {
    if (n > data_.size() - pos_) {
      throw PickleError(name_ + ": truncated Flight Recorder dump: opcode " + op + " at byte " +
                            std::to_string(opStart_) + " needs " + std::to_string(n) + " more bytes, the file has " +
                            std::to_string(data_.size() - pos_) + ". Copy the whole file again.",
                        name_, opStart_, op);
    }
    std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  unsigned byte(const char* op) { return static_cast<unsigned char>(take(1, op)[0]); }
  std::uint64_t le(int n, const char* op) {
    std::string_view b = take(n, op);
    std::uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(b[i]);
    return v;
  }
  // LONG1/LONG4: n bytes of two's complement, little-endian. Python ints beyond 64 bits are refused.
  void longInt(std::uint64_t n, const char* op) {
    if (n > 8) fail(op, "an integer of " + std::to_string(n) + " bytes (more than 64 bits)");
    std::string_view b = take(n, op);
    std::uint64_t v = 0;
    for (std::size_t i = n; i-- > 0;) v = v << 8 | static_cast<unsigned char>(b[i]);
    if (n > 0 && n < 8 && (static_cast<unsigned char>(b[n - 1]) & 0x80)) v |= ~std::uint64_t{0} << (8 * n);
    push(nodes_.makeInt(static_cast<std::int64_t>(v)));
  }

  void push(NodePtr n) { stack_.push_back(std::move(n)); }
  NodePtr top(const char* op) {
    if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) fail(op, "the stack is empty");
    return stack_.back();
  }
  NodePtr pop(const char* op) {
    NodePtr n = top(op);
    stack_.pop_back();
    return n;
  }
  std::vector<NodePtr> popMark(const char* op) {
    if (marks_.empty()) fail(op, "no MARK before it");
    const std::size_t at = marks_.back();
    marks_.pop_back();
    std::vector<NodePtr> items(stack_.begin() + at, stack_.end());
    stack_.resize(at);
    return items;
  }
  void get(std::uint64_t index, const char* op) {
    auto it = memo_.find(index);
    if (it == memo_.end()) fail(op, "memo index " + std::to_string(index) + " was never stored");
    push(it->second);
  }
  void tupleN(std::size_t n, const char* op) {
    std::vector<NodePtr> items(n);
    for (std::size_t i = n; i-- > 0;) items[i] = pop(op);
    container(Node::kTuple, std::move(items), op);
  }
  void container(Node::Kind kind, std::vector<NodePtr> items, const char* op) {
    if (kind == Node::kDict && items.size() % 2 != 0) fail(op, "an odd number of items for a dict");
    NodePtr n = nodes_.make(kind);
    n->items = std::move(items);
    push(std::move(n));
  }
  void addTo(const NodePtr& target, std::vector<NodePtr> items, const char* op) {
    if (target->kind == Node::kDict) {
      if (items.size() % 2 != 0) fail(op, "an odd number of items for a dict");
    } else if (target->kind != Node::kList) {
      fail(op, "adding items to a value that is not a list or dict");
    }
    for (auto& i : items) target->items.push_back(std::move(i));
  }

  NodeArena nodes_;
  std::string_view data_;
  const std::string& name_;
  std::size_t pos_ = 0;
  std::size_t opStart_ = 0;
  std::vector<NodePtr> stack_;
  std::vector<std::size_t> marks_;
  std::unordered_map<std::uint64_t, NodePtr> memo_;
};

}  // namespace

Json readPickle(std::string_view data, const std::string& name) { return PickleMachine(data, name).run(); }

bool looksLikePickledDict(std::string_view head) {
  // PROTO n, then an optional FRAME (protocol 4+), then EMPTY_DICT or MARK (a dict built by DICT).
  if (head.size() < 3 || static_cast<unsigned char>(head[0]) != 0x80) return false;
  const unsigned proto = static_cast<unsigned char>(head[1]);
  if (proto < 2 || proto > 5) return false;
  std::size_t at = 2;
  if (static_cast<unsigned char>(head[at]) == 0x95) at += 9;
  return at < head.size() && (head[at] == '}' || head[at] == '(');
}

}  // namespace pf::doctor::fr
