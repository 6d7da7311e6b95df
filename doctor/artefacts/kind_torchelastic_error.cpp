// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A torchelastic error file: what a worker wrapped in @record writes to TORCHELASTIC_ERROR_FILE when it dies
// (torch/distributed/elastic/multiprocessing/errors/error_handler.py, record_exception):
//   {"message": {"message": "RuntimeError: ...", "extraInfo": {"py_callstack": "Traceback ...",
//                                                             "timestamp": "1714000000"}}}
// The agent may add "errorCode" to the root cause's copy; a file written by other code may hold "message" as a
// plain string. The exception becomes an "elastic-error" event at its epoch time (UTC), on the rank its text names
// ("[Rank 3]", "[rank3]:"), which is also counted as covered by an error file.
#include "artefact.hpp"
#include "clock.hpp"
#include "document_reader.hpp"

namespace pf::doctor {
namespace {

int teRankOf(const std::string& s) {
  for (const char* mark : {"[Rank ", "[rank", " Rank ", "rank "}) {
    const std::size_t at = s.find(mark);
    if (at == std::string::npos) continue;
    std::size_t i = at + std::char_traits<char>::length(mark);
    int v = 0, n = 0;
    while (i < s.size() && n < 7 && s[i] >= '0' && s[i] <= '9') v = v * 10 + (s[i++] - '0'), ++n;
    if (n) return v;
  }
  return -1;
}

class TorchelasticReader final : public DocumentReader {
 public:
  using DocumentReader::DocumentReader;

 private:
  const char* what() const override { return "torchelastic error file"; }
  void read(const std::string& text, ArtefactOut& out) override {
    const Json doc = Json::parse(text, nullptr, false);
    TimelineEvent e;
    e.kind = "elastic-error";
    e.file = file();
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("message")) {
      e.text = "torchelastic error file that is not valid JSON of the documented shape";
      e.failure = false;
      out.events.push_back(std::move(e));
      return;
    }
    const Json& m = doc["message"];
    std::string message, stack;
    if (m.is_string()) {
      message = m.get<std::string>();
    } else if (m.is_object()) {
      if (m.contains("message") && m["message"].is_string()) message = m["message"].get<std::string>();
      if (m.contains("extraInfo") && m["extraInfo"].is_object()) {
        const Json& x = m["extraInfo"];
        if (x.contains("py_callstack") && x["py_callstack"].is_string()) stack = x["py_callstack"].get<std::string>();
        if (x.contains("timestamp") && x["timestamp"].is_string())
          e.stamp = parseEpochSeconds(x["timestamp"].get<std::string>());
        else if (x.contains("timestamp") && x["timestamp"].is_number_integer())
          e.stamp = parseEpochSeconds(std::to_string(x["timestamp"].get<int64_t>()));
      }
    }
    e.rank = teRankOf(message);
    if (e.rank < 0) e.rank = teRankOf(stack);
    // The exception's first line is the message; its last frames say where the program was.
    e.text = eventText(message.substr(0, message.find('\n')));
    if (e.text.empty()) e.text = "torchelastic error file without a message";
    out.cover("torchelastic error files", e.rank);
    out.events.push_back(std::move(e));
  }
};

class TorchelasticErrorKind final : public ArtefactKind {
 public:
  std::string description() const override { return "torchelastic error file (TORCHELASTIC_ERROR_FILE)"; }
  int recognise(std::string_view head) const override {
    if (!looksLikeJsonDocument(head) || head.find("\"message\"") == std::string_view::npos) return 0;
    return head.find("\"extraInfo\"") != std::string_view::npos ||
                   head.find("\"py_callstack\"") != std::string_view::npos
               ? 50
               : 0;
  }
  std::unique_ptr<ArtefactReader> open(const std::string& file) const override {
    return std::make_unique<TorchelasticReader>(file);
  }
};

}  // namespace

PF_REGISTER_ARTEFACT_KIND(TorchelasticErrorKind, "torchelastic-error");

}  // namespace pf::doctor
