// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// `preflight doctor DIR|FILE... [-]`: reads what a job left behind (NCCL / PyTorch / MPI logs and the artefacts of
// doctor/artefacts/), names the most likely causes with their evidence (file:line) and fix, summarises what NCCL did,
// puts every artefact's events on one timeline, and with --confirm checks the cause on this node.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <utility>

#include "analysis.hpp"
#include "artefacts/timeline.hpp"
#include "artefacts/walk.hpp"
#include "command.hpp"
#include "common_options.hpp"
#include "confirm.hpp"
#include "decompress.hpp"
#include "line_normalizer.hpp"
#include "log_source.hpp"
#include "pf/error.hpp"
#include "pf/progress.hpp"
#include "pf/report_io.hpp"
#include "pf/timer.hpp"
#include "pf/units.hpp"
#include "pf/verdict.hpp"
#include "report.hpp"
#include "report_memory.hpp"
#include "rule_catalog.hpp"

namespace pf::cli {
namespace {

// A progress line on stderr while the inputs are read (ProgressLine: nothing in a run's first seconds, so a
// small job's logs print none): which input, the bytes read, and the time left from the bytes still to read.
// The estimate needs every input's size: stdin and compressed inputs (whose size on disk says little about
// their text) leave it unknown.
class ReadProgress {
 public:
  explicit ReadProgress(const std::vector<std::string>& files) : line_("doctor") {
    for (const auto& f : files) sizes_.push_back(plainSize(f));
    for (const auto& s : sizes_) total_ = s && total_ ? std::optional(*total_ + *s) : std::nullopt;
  }

  doctor::InputPlanner wrap(doctor::InputPlanner inner) {
    return [this, inner = std::move(inner)](const std::string& name, std::string_view head) {
      doctor::InputPlan p = inner ? inner(name, head) : doctor::InputPlan{};
      const std::size_t input = planned_++;  // analyzeFiles plans each input once, in order
      p.progress = [this, input](std::size_t read) { update(input, read); };
      return p;
    };
  }

 private:
  static std::optional<std::uint64_t> plainSize(const std::string& path) {
    if (path == "-") return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    char head[4] = {};
    in.read(head, sizeof head);
    if (doctor::detectCompression({head, static_cast<std::size_t>(in.gcount())}) != doctor::Compression::kNone)
      return std::nullopt;
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    return ec ? std::nullopt : std::optional<std::uint64_t>(size);
  }

  void update(std::size_t input, std::size_t read) {
    while (current_ < input) {  // the inputs before this one are read
      before_ += lastRead_;
      lastRead_ = 0;
      ++current_;
    }
    lastRead_ = read;
    const double done = static_cast<double>(before_ + read);
    std::optional<double> left;
    if (total_) left = secondsLeftByShare(line_.elapsed(), done, std::max(0.0, static_cast<double>(*total_) - done));
    line_.update(fmt::format("input {} of {}, {} read", input + 1, sizes_.size(), humanBytes(before_ + read)), left);
  }

  ProgressLine line_;
  std::vector<std::optional<std::uint64_t>> sizes_;
  std::optional<std::uint64_t> total_ = 0;
  std::size_t planned_ = 0, current_ = 0;
  std::uint64_t before_ = 0, lastRead_ = 0;
};

class DoctorCommand final : public Command {
 public:
  std::string summary() const override { return "diagnose NCCL / distributed-training failures from their logs"; }

  void setup(CLI::App& app) override {
    app.add_option("files", files_,
                   "a job's logs and artefacts ('-' = stdin; .gz and .zst are decompressed; a directory is walked, "
                   "sub-directories too); each file is recognised by its content, all are read as one job")
        ->required();
    app.add_option("--utc-offset", utcOffset_,
                   "the nodes' local time zone as an offset from UTC (+02:00, -0500), for the timestamps NCCL, "
                   "PyTorch, Slurm and syslog print without one (default: taken as UTC)");
    common_.addOutputs(app);
    common_.addStrict(app);
    common_.addEnvFile(app, "NCCL_SOCKET_IFNAME for --confirm");
    app.add_flag("--confirm", confirm_, "run each diagnosis's node check here (interface, /dev/shm, memlock...)");
    app.add_option("--rules", rulesDir_,
                   "load the rules catalog from DIR (<category>.json files) instead of the "
                   "built-in one");
    app.add_option("--forget", forget_,
                   "leave out the remembered reports of this thread (URL) when comparing the log with reported "
                   "failures: measures the memory on its own cases, leave-one-thread-out (docs/doctor.md)");
    app.add_option("--root", root_, "read /sys, /dev and /etc under DIR for --confirm (a captured tree)");
    app.add_flag("-v,--verbose", common_.view.verbose,
                 "show every evidence line, the links and each process's NCCL setup");
    app.footer(
        "Reads NCCL INFO/WARN lines with any prefix (timestamps, torchrun [rankN]:, srun -l, Open MPI [1,N]<stdout>:,\n"
        "Kubernetes/Azure timestamps, ANSI colours), PyTorch tracebacks and watchdog messages, Open MPI and libfabric\n"
        "errors. Rules live in doctor/rules/<category>.json (docs/doctor-rules.md).\n"
        "Inputs: a job's artefact folder (walked, sub-directories too) or files, plain, gzip (.gz) or zstd (.zst),\n"
        "or '-' for stdin. Each file is recognised by its content: logs, Slurm outputs, kernel logs, NCCL DIAG and\n"
        "RAS output (text, JSON), torchelastic error files, nccl-tests output; other files are listed as skipped.\n"
        "Their events go on one timeline (clocks reconciled) with the first failure across them (docs/doctor.md).\n"
        "Each input is read once in 4 MiB blocks, so memory stays bounded whatever the logs' size; a second core,\n"
        "where there is one, reads ahead. A long read prints progress on stderr (PREFLIGHT_PROGRESS=never: none).\n"
        "Exit code: 0 nothing diagnosed (or only warnings, without --strict), 1 a problem was diagnosed, 2 unreadable\n"
        "input or bad rules.\n\n"
        "Examples:\n"
        "  preflight doctor slurm-1234.out\n"
        "  preflight doctor job-4242/                  # everything the job left, file by file\n"
        "  preflight doctor logs/rank*.log --json diagnosis.json\n"
        "  preflight doctor logs/                      # every file in logs/, e.g. rank0.log.gz rank1.log.zst\n"
        "  kubectl logs trainer-0 | preflight doctor -\n"
        "  preflight doctor job.log --confirm          # also check the cause on this node");
  }

  int run(const Invocation& inv) override {
    common_.validateOutputs();
    RunReport report;
    report.context.command = "doctor";
    report.context.version = version();
    // File names go into the JSON document, which must be UTF-8 whatever bytes the names hold.
    for (int i = 0; i < *inv.argc; ++i) report.context.argv.push_back(doctor::validUtf8((*inv.argv)[i]));
    report.context.start_time = utcNowIso8601();
    doctor::Catalog catalog = rulesDir_.empty() ? doctor::builtinCatalog() : doctor::loadCatalogDir(rulesDir_);
    if (!forget_.empty()) catalog.reports = catalog.reports->without(forget_);
    if (std::count(files_.begin(), files_.end(), "-") > 1) throw UsageError("'-' (stdin) can be given only once");
    const doctor::InputFiles walked = doctor::collectInputs(files_);
    // One streaming pass over each input, in fixed-size blocks: memory does not grow with the logs' size. Each
    // input's kind is recognised from its first bytes; its reader puts what it says on the job's timeline.
    Timer timer;
    doctor::ArtefactSession artefacts(timelineOptions());
    ReadProgress progress(walked.files);
    doctor::Analysis analysis = doctor::analyzeFiles(catalog, walked.files, doctor::kDefaultBlockSize,
                                                     progress.wrap(artefacts.planner()), artefacts.rankLookup());
    report.phases.push_back({"analyze", timer.seconds()});
    if (artefacts.inputs().empty()) {
      std::string why;
      for (const auto& s : artefacts.skipped()) why += fmt::format("\n  {}: {}", s.file, s.reason);
      throw UsageError("no input could be read as a log or a known artefact:" + why +
                       "\ngive the job's logs, Slurm outputs, kernel logs, ncclras output or torchelastic error files");
    }
    if (confirm_) runConfirms(analysis);
    Result timeline = artefacts.result(analysis, walked.skipped);
    artefacts.alignRanks(analysis);
    artefacts.alignDiagnoses(analysis);
    report.results = doctor::toResults(analysis);
    report.results.push_back(std::move(timeline));
    report.context.end_time = utcNowIso8601();
    Json inputs = Json::array();
    for (const auto& f : files_) inputs.push_back(doctor::validUtf8(f));
    report.context.extra = {{"inputs", inputs}, {"rules", catalog.rules.size()}};
    applyVerdict(report, common_.strict);
    common_.makeOutputs().replay(report);
    return report.exit_code;
  }

 private:
  void runConfirms(doctor::Analysis& a) const {
    doctor::ConfirmContext ctx;
    ctx.root = root_.empty() ? "/" : root_;
    const Environment env = common_.environment();
    for (const char* v : {"NCCL_SOCKET_IFNAME"})
      if (auto e = env.get(v)) ctx.env[v] = *e;
    ctx.logSettings = a.settings;
    for (auto& d : a.diagnoses) {
      if (d.rule->probe.empty()) {
        d.confirm = "unknown";
        d.confirmDetail = "no node check exists for this cause; run the commands listed under fix";
        continue;
      }
      ctx.captures = d.captures;
      doctor::ConfirmOutcome o = doctor::runConfirm(d.rule->probe, ctx);
      d.confirm = o.status;
      d.confirmDetail = o.detail;
      d.confirmMeasured = o.measured;
    }
  }

  // "+02:00", "-0500", "+2" into minutes east of UTC.
  doctor::TimelineOptions timelineOptions() const {
    doctor::TimelineOptions o;
    if (utcOffset_.empty()) return o;
    const std::string& s = utcOffset_;
    int h = 0, m = 0;
    std::size_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0;
    std::size_t digits = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && digits < 2)
      h = h * 10 + (s[i++] - '0'), ++digits;
    if (i < s.size() && s[i] == ':') ++i;
    std::size_t mdigits = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && mdigits < 2)
      m = m * 10 + (s[i++] - '0'), ++mdigits;
    if (digits == 0 || i != s.size() || h > 14 || m > 59 || (mdigits != 0 && mdigits != 2))
      throw UsageError(fmt::format("--utc-offset '{}' is not an offset from UTC; write it as +02:00 or -0500", s));
    o.localOffsetMin = (s[0] == '-' ? -1 : 1) * (h * 60 + m);
    o.offsetGiven = true;
    return o;
  }

  std::vector<std::string> files_;
  std::string rulesDir_, root_, forget_, utcOffset_;
  bool confirm_ = false;
  CommonOptions common_;
};

PF_REGISTER_COMMAND(DoctorCommand, "doctor");

}  // namespace
}  // namespace pf::cli
