// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The Flight Recorder report as JSON (for the doctor's document) and as text lines (for the terminal).
#include <string>

#include "flight_recorder/analysis.hpp"

namespace pf::doctor::fr {

std::string sizesText(const std::vector<std::vector<std::int64_t>>& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) {
    out += i ? ", [" : "[";
    for (std::size_t k = 0; k < s[i].size(); ++k) out += (k ? ", " : "") + std::to_string(s[i][k]);
    out += "]";
  }
  return out + "]";
}

std::string dtypesText(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return "[" + out + "]";
}

namespace {

std::string ranksText(const std::vector<int>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (i == 16) return out + ", ... (" + std::to_string(ranks.size()) + " ranks)";
    out += (i ? ", " : "") + std::to_string(ranks[i]);
  }
  return out;
}

std::string plural(const std::vector<int>& ranks) { return ranks.size() == 1 ? "rank " : "ranks "; }

// "seq 3 gloo:all_reduce in group 0 (default_pg)", with the input sizes unless `withSizes` is false.
std::string where(const Headline& h, bool withSizes = true) {
  return std::string(h.p2p ? "p2p seq " : "seq ") + std::to_string(h.seq) + " " + h.op + " in group " + h.pg +
         (h.pgDesc.empty() ? "" : " (" + h.pgDesc + ")") +
         (withSizes ? ", input sizes " + sizesText(h.inputSizes) : "");
}

// The majority's value of a mismatched field, as the culprit's is written (Headline::culpritValue).
std::string referenceValue(const Headline& h) {
  if (h.field == "operation") return h.op;
  if (h.field == "input sizes") return sizesText(h.inputSizes);
  if (h.field == "output sizes") return sizesText(h.outputSizes);
  std::string in, out;
  for (const auto& d : h.inputDtypes) in += (in.empty() ? "" : ", ") + d;
  for (const auto& d : h.outputDtypes) out += (out.empty() ? "" : ", ") + d;
  return "[" + in + "] -> [" + out + "]";
}

// A point-to-point finding in words: who never posted the other side of whose op, or how a send and its
// receive disagree.
std::string p2pSummary(const Headline& h, const std::string& culprits) {
  const std::string peer = plural(h.waiting) + ranksText(h.waiting);
  const std::string group = " in group " + h.pg + (h.pgDesc.empty() ? "" : " (" + h.pgDesc + ")");
  const std::string waitingOp = "p2p seq " + std::to_string(h.seq) + " " + h.op + group;
  if (h.kind == VerdictKind::kMismatch) {
    std::string ref = sizesText(h.inputSizes);
    if (h.field == "dtypes") {
      ref.clear();
      for (const auto& d : h.inputDtypes) ref += (ref.empty() ? "" : ", ") + d;
      ref = "[" + ref + "]";
    }
    return culprits + "'s p2p seq " + std::to_string(h.culpritSeq) + " " + h.culpritOp + " receives " + h.field + " " +
           h.culpritValue + " where " + peer + "'s " + waitingOp + " sends " + ref;
  }
  const bool send = h.op.find(":send") != std::string::npos;
  return culprits + " never posted the " + (send ? "receive" : "send") + " matching " + peer + "'s " + waitingOp +
         ", sizes " + sizesText(h.inputSizes);
}

Json frameJson(const Frame& f) { return Json{{"name", f.name}, {"file", f.file}, {"line", f.line}}; }

Json headlineJson(const Headline& h) {
  Json j{{"kind", toString(h.kind)},
         {"ranks", h.ranks},
         {"waiting", h.waiting},
         {"pg", h.pg},
         {"pg_desc", h.pgDesc},
         {"seq", h.seq >= 0 ? Json(h.seq) : Json(nullptr)},
         {"p2p", h.p2p},
         {"op", h.op},
         {"input_sizes", h.inputSizes},
         {"output_sizes", h.outputSizes},
         {"input_dtypes", h.inputDtypes},
         {"output_dtypes", h.outputDtypes}};
  j["culprit_op"] = h.culpritOp.empty() ? Json(nullptr) : Json(h.culpritOp);
  j["culprit_seq"] = h.culpritSeq >= 0 ? Json(h.culpritSeq) : Json(nullptr);
  j["late_limit_ms"] = h.lateLimitMs ? Json(*h.lateLimitMs) : Json(nullptr);
  j["field"] = h.field.empty() ? Json(nullptr) : Json(h.field);
  j["culprit_value"] = h.culpritValue.empty() ? Json(nullptr) : Json(h.culpritValue);
  j["late_ms"] = h.lateMs ? Json(*h.lateMs) : Json(nullptr);
  j["culprit_call"] = h.culpritCall.empty() ? Json(nullptr) : Json(h.culpritCall);
  j["others_stalled"] = h.othersStalled;
  j["frames"] = Json::array();
  for (const auto& f : h.frames) j["frames"].push_back(frameJson(f));
  j["summary"] = summaryOf(h);
  return j;
}

}  // namespace

std::string summaryOf(const Headline& h) {
  if (!h.summary.empty()) return h.summary;
  const std::string culprits = plural(h.ranks) + ranksText(h.ranks);
  if (h.p2p && (h.kind == VerdictKind::kMismatch || h.kind == VerdictKind::kNotReached)) return p2pSummary(h, culprits);
  switch (h.kind) {
    case VerdictKind::kMismatch:
      if (h.field == "group")
        return culprits + " called " + h.culpritValue + " where " + plural(h.waiting) + ranksText(h.waiting) +
               " called " + where(h);
      return culprits + " called " + where(h, false) + " with " + h.field + " " + h.culpritValue + " where " +
             plural(h.waiting) + ranksText(h.waiting) + " have " + referenceValue(h);
    case VerdictKind::kNotReached:
      return culprits + " never reached " + where(h) + ", which " + plural(h.waiting) + ranksText(h.waiting) +
             " entered";
    case VerdictKind::kMissingRank:
      // Stalled: the given ranks are stuck in (or failed) a collective that needed the missing ones, which are
      // then the ones to read first; the dumps still cannot say what they did, so it is not guessed.
      if (h.othersStalled)
        return "dumps of " + culprits + " not given, and " + plural(h.waiting) + ranksText(h.waiting) +
               " did not complete " + where(h) + ": look at " + culprits +
               " first (no dump says what happened there; a rank killed outright writes none)";
      return "dumps of " + culprits + " not given: what they did is unknown; " + plural(h.waiting) +
             ranksText(h.waiting) + " last recorded " + where(h);
    case VerdictKind::kIncomplete: return "every rank entered " + where(h) + " and it did not complete on " + culprits;
    case VerdictKind::kStraggler:
      return culprits + " entered " + where(h) + " " + std::to_string(static_cast<long long>(*h.lateMs)) +
             " ms after the others" +
             (h.lateLimitMs
                  ? " (late in this group from " + std::to_string(static_cast<long long>(*h.lateLimitMs)) + " ms)"
                  : "");
    case VerdictKind::kCompletedOk:
      return h.seq < 0 ? "no collective recorded" : "every given rank completed up to " + where(h);
  }
  return "";
}

Json Report::toJson() const {
  Json j{{"version", version}, {"files", files}, {"ranks_given", ranksGiven}, {"ranks_missing", ranksMissing}};
  j["world_size"] = worldSize > 0 ? Json(worldSize) : Json(nullptr);
  j["headline"] = headlineJson(headline);
  j["groups"] = Json::array();
  for (const auto& g : groups)
    j["groups"].push_back(Json{{"pg", g.pg},
                               {"desc", g.desc},
                               {"members", g.members},
                               {"members_known", g.membersKnown},
                               {"dumps_missing", g.dumpsMissing},
                               {"verdict", headlineJson(g.verdict)}});
  j["notes"] = notes;
  return j;
}

std::vector<std::string> Report::lines() const {
  std::vector<std::string> out;
  out.push_back("Flight Recorder: " + std::to_string(ranksGiven.size()) + " dump(s) of " +
                (worldSize > 0 ? std::to_string(worldSize) + " ranks" : "an unknown number of ranks") +
                (version.empty() ? "" : " (format " + version + ")"));
  if (!ranksMissing.empty()) out.push_back("  dumps not given: " + plural(ranksMissing) + ranksText(ranksMissing));
  out.push_back("  " + std::string(toString(headline.kind)) + ": " + summaryOf(headline));
  if (!headline.culpritCall.empty()) {
    out.push_back("  last call of rank " + std::to_string(headline.ranks.empty() ? -1 : headline.ranks[0]) + ": " +
                  headline.culpritCall);
    for (const auto& f : headline.frames)
      out.push_back("    " + f.file + ":" + std::to_string(f.line) + " in " + f.name);
  }
  for (std::size_t i = 0; i < groups.size(); ++i)
    if (static_cast<int>(i) != headlineGroup)  // the headline is already said
      out.push_back("  group " + groups[i].pg + (groups[i].verdict.p2p ? " point-to-point: " : ": ") +
                    toString(groups[i].verdict.kind) + ": " + summaryOf(groups[i].verdict));
  for (const auto& n : notes) out.push_back("  note: " + n);
  return out;
}

}  // namespace pf::doctor::fr
