// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A large NCCL log of real shape for `preflight doctor`'s speed and memory (bench/doctor_realshape_bench.sh).
//
//   pf_doctor_realshape_gen EXAMPLES OUT BYTES PROCESSES [--world W] [--seed S]
//
// EXAMPLES is the shared file of NCCL INFO start-up lines copied from public posts
// (shared/fixtures/nccl-logs/nccl_info_startup_examples.txt). Every line of its logs and single lines becomes a
// template: its own "host:pid:tid [dev] " prefix is replaced by one of PROCESSES processes (8 per host, ranks
// 0..W-1, W = min(PROCESSES, 4096) unless given; past W the ranks start again with new pids, as after restarts
// of an elastic job), and the numbers that differ between ranks are the process's: the ranks and bus ids of a
// transport line ("3[3] -> 2[2]", "1[3000] -> 0[3000]"), an Init line's rank, nranks, cudaDev, busId and
// commId, the IPv4 addresses of its host. Lines of all processes interleave at random, each process walking
// the templates in order and starting again (a new communicator) at their end. Two things are not verbatim,
// and why: the bare "NCCL version" lines name one version (the job's, 2.19.3+cuda12.3) instead of the posts'
// three, and every Init START line is followed later by its Init COMPLETE (NCCL's own wording; the posts were
// cut before it), so that the log is of one healthy job until its end. In the last 1% of the bytes the job
// fails: the examples' WARN line ("Call to ibv_create_cq failed") on three processes of the last generation,
// then a PyTorch watchdog timeout on every other rank of it. Deterministic for a seed; writes whole lines
// until at least BYTES bytes.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// splitmix64: small, fast and the same on every platform.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
};

// A template is literal pieces with a field between them, filled per process when the line is written.
enum Field : std::uint8_t { kNone, kRank, kPeer, kDev, kPeerDev, kBus, kPeerBus, kNranks, kCommId, kCommPtr, kIp };
enum class Prefix : std::uint8_t { kNone, kFull, kRay, kDevOnly };
struct Template {
  Prefix prefix = Prefix::kNone;
  bool mainThread = false;  // the post's tid equalled its pid (the process's first lines)
  std::vector<std::pair<std::string, Field>> pieces;
};

bool isDigit(char c) { return c >= '0' && c <= '9'; }
std::size_t digitsAt(std::string_view s, std::size_t i) {
  std::size_t j = i;
  while (j < s.size() && isDigit(s[j])) ++j;
  return j - i;
}

// Splits `body` into pieces, replacing the per-rank numbers listed in the header comment.
Template parseBody(std::string_view body) {
  Template t;
  std::string lit;
  auto field = [&](Field f) {
    t.pieces.emplace_back(lit, f);
    lit.clear();
  };
  const bool transport = body.find(" -> ") != std::string_view::npos && body.find(" via ") != std::string_view::npos;
  const bool init = body.find(" - Init ") != std::string_view::npos;
  int endpoint = 0;  // transport lines: 0 before the own rank, 1 before the peer
  for (std::size_t i = 0; i < body.size();) {
    // An IPv4 address: four dotted numbers.
    if (isDigit(body[i]) && (i == 0 || !isDigit(body[i - 1]))) {
      std::size_t j = i;
      int parts = 0;
      while (parts < 4 && digitsAt(body, j) > 0) {
        j += digitsAt(body, j);
        ++parts;
        if (parts < 4 && j < body.size() && body[j] == '.' && j + 1 < body.size() && isDigit(body[j + 1]))
          ++j;
        else
          break;
      }
      if (parts == 4) {
        field(kIp);
        i = j;
        continue;
      }
    }
    // A transport line's two ranks: "3[3] -> 2[2]", "1[3000] -> 0[3000]", "15 -> 0 [send]".
    if (transport && endpoint < 2 && isDigit(body[i]) && i > 0 && body[i - 1] == ' ') {
      const std::size_t after = i + digitsAt(body, i);
      const bool own = endpoint == 0 && after < body.size() &&
                       (body[after] == '[' || body.substr(after, 4) == " -> ") &&
                       body.find(" -> ", after) != std::string_view::npos;
      const bool peer = endpoint == 1 && i >= 4 && body.substr(i - 4, 4) == " -> ";
      if (own || peer) {
        field(own ? kRank : kPeer);
        i = after;
        const std::size_t close = i < body.size() && body[i] == '[' ? body.find(']', i) : std::string_view::npos;
        if (close != std::string_view::npos) {
          lit += '[';
          const bool small = close - i - 1 <= 2;  // "3[3]": a device number; "1[3000]": a bus id
          field(own ? (small ? kDev : kBus) : (small ? kPeerDev : kPeerBus));
          i = close;
        }
        ++endpoint;
        continue;
      }
    }
    if (init) {
      bool replaced = false;
      for (auto [word, f] : {std::pair<std::string_view, Field>{"comm 0x", kCommPtr},
                             {"commId 0x", kCommId},
                             {"nranks ", kNranks},
                             {"rank ", kRank},
                             {"cudaDev ", kDev},
                             {"nvmlDev ", kDev},
                             {"busId ", kBus}}) {
        if (body.substr(i, word.size()) == word && (i == 0 || body[i - 1] == ' ')) {
          lit += word.substr(0, word.size() - (word.ends_with("0x") ? 2 : 0));
          i += word.size() - (word.ends_with("0x") ? 2 : 0);
          field(f);
          while (i < body.size() && body[i] != ' ') ++i;
          replaced = true;
          break;
        }
      }
      if (replaced) continue;
    }
    lit += body[i++];
  }
  field(kNone);
  return t;
}

struct Examples {
  std::vector<Template> lines;  // one process's walk
  Template warn;                // the WARN line of the failure
  std::string warnLocation;     // its "misc/ibvwrap.cc:268 " part
};

Examples readExamples(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "cannot read the examples file %s: give the path of nccl_info_startup_examples.txt\n",
                 path.c_str());
    std::exit(2);
  }
  Examples ex;
  bool inLog = false, single = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("--- BEGIN LOG")) inLog = true;
    if (line.starts_with("--- END LOG")) inLog = false;
    if (line.starts_with("=== SUPPLEMENTARY")) single = true;
    if ((!inLog && !single) || line.starts_with("---") || line.starts_with("===")) continue;
    if (single && line.starts_with("# ")) continue;
    std::string_view s = line;
    Template t;
    if (s.starts_with("(pid=")) {
      s.remove_prefix(s.find(") ") + 2);
      t.prefix = Prefix::kRay;
    }
    // "host:pid:tid [dev] " or "[dev] ".
    const std::size_t c1 = s.find(':'), sp = s.find(' ');
    std::size_t c2 = c1 == std::string_view::npos ? c1 : s.find(':', c1 + 1);
    if (c2 != std::string_view::npos && c2 < sp && s.substr(sp, 2) == " [") {
      t.mainThread = s.substr(c1 + 1, c2 - c1 - 1) == s.substr(c2 + 1, sp - c2 - 1);
      s.remove_prefix(s.find("] ", sp) + 2);
      if (t.prefix == Prefix::kNone) t.prefix = Prefix::kFull;
    } else if (s.starts_with("[") && s.find("] NCCL") != std::string_view::npos) {
      s.remove_prefix(s.find("] ") + 2);
      t.prefix = Prefix::kDevOnly;
    } else if (t.prefix == Prefix::kRay) {
      t.prefix = Prefix::kNone;
    }
    if (s.find_first_not_of(' ') == std::string_view::npos) continue;
    std::string body(s);
    if (body.starts_with("NCCL version ")) body = "NCCL version 2.19.3+cuda12.3";
    const std::size_t warn = body.find("NCCL WARN ");
    Template parsed = parseBody(body);
    parsed.prefix = t.prefix;
    parsed.mainThread = t.mainThread;
    if (warn != std::string::npos) {
      ex.warn = std::move(parsed);
      continue;
    }
    const bool init = body.find("Init START") != std::string::npos;
    ex.lines.push_back(parsed);
    if (init) {
      // NCCL's completion line repeats the start line's fields with "Init COMPLETE"; it comes some lines later.
      Template done = parseBody(body.substr(0, body.find("Init START")) + "Init COMPLETE");
      done.prefix = t.prefix;
      ex.lines.push_back(std::move(done));
    }
  }
  if (ex.lines.empty() || ex.warn.pieces.empty()) {
    std::fprintf(stderr, "%s holds no log lines or no NCCL WARN line: give nccl_info_startup_examples.txt\n",
                 path.c_str());
    std::exit(2);
  }
  // The completion lines were placed right after their start: move each 20 lines on, as the channel set-up
  // between them takes.
  for (std::size_t i = 0; i + 1 < ex.lines.size(); ++i) {
    const auto& p = ex.lines[i + 1].pieces;
    if (p.back().first.ends_with("Init COMPLETE")) {
      Template done = std::move(ex.lines[i + 1]);
      ex.lines.erase(ex.lines.begin() + static_cast<long>(i) + 1);
      const std::size_t to = std::min(ex.lines.size(), i + 21);
      ex.lines.insert(ex.lines.begin() + static_cast<long>(to), std::move(done));
      i = to;
    }
  }
  return ex;
}

struct Process {
  std::uint32_t pid, tid, rank, host, generation, cycles = 0, cursor = 0;
};

constexpr const char* kBusIds[8] = {"18000", "2a000", "3a000", "5d000", "9a000", "ab000", "ba000", "db000"};

void hostName(std::string& out, std::uint32_t host) {
  char b[32];
  std::snprintf(b, sizeof b, "gpu-h100-%04u", host);
  out += b;
}

void writeLine(std::string& out, const Template& t, const Process& p, std::uint32_t world) {
  char b[64];
  const std::uint32_t dev = p.rank % 8, peer = (p.rank + 1) % world;
  if (t.prefix == Prefix::kRay) out += "(pid=" + std::to_string(p.pid) + ") ";
  if (t.prefix == Prefix::kFull || t.prefix == Prefix::kRay) {
    hostName(out, p.host);
    std::snprintf(b, sizeof b, ":%u:%u [%u] ", p.pid, t.mainThread ? p.pid : p.tid, dev);
    out += b;
  } else if (t.prefix == Prefix::kDevOnly) {
    std::snprintf(b, sizeof b, "[%u] ", dev);
    out += b;
  }
  // A job has a few communicators (the world, data- and model-parallel groups): 4 per generation of processes.
  const std::uint64_t comm = 0x7f3a9c000000ull ^ (std::uint64_t{p.generation} << 20) ^ (p.cycles % 4);
  for (const auto& [lit, f] : t.pieces) {
    out += lit;
    switch (f) {
      case kNone: continue;
      case kRank: std::snprintf(b, sizeof b, "%u", p.rank); break;
      case kPeer: std::snprintf(b, sizeof b, "%u", peer); break;
      case kDev: std::snprintf(b, sizeof b, "%u", dev); break;
      case kPeerDev: std::snprintf(b, sizeof b, "%u", peer % 8); break;
      case kBus: std::snprintf(b, sizeof b, "%s", kBusIds[dev]); break;
      case kPeerBus: std::snprintf(b, sizeof b, "%s", kBusIds[peer % 8]); break;
      case kNranks: std::snprintf(b, sizeof b, "%u", world); break;
      case kCommId: std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(comm * 0x9E3779B1u)); break;
      case kCommPtr: std::snprintf(b, sizeof b, "0x55%010x", p.pid * 16u + p.cycles % 4); break;
      case kIp: std::snprintf(b, sizeof b, "10.%u.%u.%u", 16 + p.host / 65536, p.host / 256 % 256, p.host % 256); break;
    }
    out += b;
  }
  out += '\n';
}

std::uint64_t sizeArg(const char* s) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s) return 0;
  const std::string unit = end;
  if (unit.empty()) return v;
  if (unit == "K" || unit == "KiB") return v << 10;
  if (unit == "M" || unit == "MiB") return v << 20;
  if (unit == "G" || unit == "GiB") return v << 30;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s EXAMPLES OUT BYTES[K|M|G] PROCESSES [--world W] [--seed S]\n", argv[0]);
    return 2;
  }
  const std::uint64_t bytes = sizeArg(argv[3]);
  const std::uint64_t procs = std::strtoull(argv[4], nullptr, 10);
  std::uint64_t world = 0, seed = 46;
  for (int i = 5; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--world") == 0)
      world = std::strtoull(argv[i + 1], nullptr, 10);
    else if (std::strcmp(argv[i], "--seed") == 0)
      seed = std::strtoull(argv[i + 1], nullptr, 10);
    else {
      std::fprintf(stderr, "unknown option %s: use --world W or --seed S\n", argv[i]);
      return 2;
    }
  }
  if (bytes == 0 || procs == 0 || procs > 10'000'000) {
    std::fprintf(stderr, "BYTES (e.g. 2G) and PROCESSES (1..10000000) must be positive numbers\n");
    return 2;
  }
  if (world == 0) world = std::min<std::uint64_t>(procs, 4096);
  const Examples ex = readExamples(argv[1]);
  Rng rng{seed};
  std::vector<Process> ps(procs);
  std::set<std::pair<std::uint32_t, std::uint32_t>> used;  // (host, pid): distinct processes
  for (std::uint64_t i = 0; i < procs; ++i) {
    Process& p = ps[i];
    p.rank = static_cast<std::uint32_t>(i % world);
    p.generation = static_cast<std::uint32_t>(i / world);
    p.host = p.rank / 8;
    do p.pid = 1000 + static_cast<std::uint32_t>(rng.below(4'000'000));
    while (!used.insert({p.host, p.pid}).second);
    p.tid = p.pid + 40 + static_cast<std::uint32_t>(rng.below(200));
    p.cursor = static_cast<std::uint32_t>(rng.below(ex.lines.size() / 4));  // not all in step
  }
  // The failure: WARN on three processes of the last generation, then a watchdog line on the others' ranks.
  const std::uint64_t lastGen = procs - world;
  std::vector<std::string> failure;
  std::set<std::uint32_t> culprits;
  for (int k = 0; k < 3; ++k) {
    const Process& p = ps[lastGen + rng.below(world)];
    culprits.insert(p.rank);
    std::string l;
    writeLine(l, ex.warn, p, static_cast<std::uint32_t>(world));
    failure.push_back(l.substr(0, l.size() - 1));
  }
  for (std::uint64_t r = 0; r < world; ++r) {
    if (culprits.count(static_cast<std::uint32_t>(r))) continue;
    char b[320];
    std::snprintf(b, sizeof b,
                  "[rank%llu]:[E ProcessGroupNCCL.cpp:616] [Rank %llu] Watchdog caught collective operation timeout: "
                  "WorkNCCL(SeqNum=4711, OpType=ALLREDUCE, NumelIn=262144, NumelOut=262144, Timeout(ms)=600000) "
                  "ran for %llu milliseconds before timing out.",
                  static_cast<unsigned long long>(r), static_cast<unsigned long long>(r), 600000ull + rng.below(900));
    failure.emplace_back(b);
  }
  std::FILE* out = std::fopen(argv[2], "wb");
  if (!out) {
    std::fprintf(stderr, "cannot write %s: give a writable path\n", argv[2]);
    return 2;
  }
  std::string buf;
  buf.reserve(1 << 22);
  std::uint64_t written = 0, lines = 0;
  std::size_t nextFailure = 0;
  const std::uint64_t failFrom = bytes - bytes / 100;
  while (written + buf.size() < bytes) {
    if (written + buf.size() >= failFrom && nextFailure < failure.size() && rng.below(4) == 0) {
      buf += failure[nextFailure++];
      buf += '\n';
    } else {
      Process& p = ps[rng.below(procs)];
      writeLine(buf, ex.lines[p.cursor], p, static_cast<std::uint32_t>(world));
      if (++p.cursor == ex.lines.size()) {
        p.cursor = 0;
        ++p.cycles;
      }
    }
    ++lines;
    if (buf.size() >= (1 << 22)) {
      written += std::fwrite(buf.data(), 1, buf.size(), out);
      buf.clear();
    }
  }
  while (nextFailure < failure.size()) {  // a small BYTES: the failure still ends the log
    buf += failure[nextFailure++];
    buf += '\n';
    ++lines;
  }
  written += std::fwrite(buf.data(), 1, buf.size(), out);
  if (std::fclose(out) != 0) {
    std::fprintf(stderr, "writing %s failed (disk full?)\n", argv[2]);
    std::remove(argv[2]);
    return 2;
  }
  std::printf("%s: %llu bytes, %llu lines, %llu processes, world %llu, %zu templates, %zu failure lines\n", argv[2],
              static_cast<unsigned long long>(written), static_cast<unsigned long long>(lines),
              static_cast<unsigned long long>(procs), static_cast<unsigned long long>(world), ex.lines.size(),
              failure.size());
  return 0;
}
