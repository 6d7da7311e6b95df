// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A job's artefacts as one input. Every file the doctor is given (or finds in a directory) is recognised by its
// first bytes, never by its name, as one *kind*: a text log the rules read (NCCL / application logs, Slurm
// outputs, kernel logs, NCCL DIAG output, nccl-tests output), or a document of its own shape (an `ncclras` report
// or its JSON, a torchelastic error file, nccl-tests JSON). Each kind turns what it reads into events on one
// timeline (when, on which clock, where: host, rank, GPU, NIC, peer; what) and into findings.
//
// Adding a kind is adding one file (contract):
//   class MyKind final : public ArtefactKind {
//     std::string description() const override;          // "NCCL RAS report (ncclras)"
//     int recognise(std::string_view head) const override;  // 0: not mine; higher wins (kTextScore for any text)
//     std::unique_ptr<ArtefactReader> open(const std::string& file) const override;
//   };
//   PF_REGISTER_ARTEFACT_KIND(MyKind, "my-kind");
// and listing the .cpp in doctor/CMakeLists.txt. The reader gets the file's (decompressed) bytes block by block,
// each block ending at a line end, and adds what it found to ArtefactOut in finish(). readsAsLog() = true also
// hands the bytes to the rules (the log scanner). A kind whose files only mean something together (Flight Recorder
// dumps, one per rank, matched across ranks) also overrides jobState() and openInJob(): the session makes one state
// per job, each of the kind's readers fills it, and its finish() runs once after the last input.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "pf/registry.hpp"
#include "pf/result.hpp"

namespace pf::doctor {

/// Which clock a time was read from; they are reconciled on the timeline (timeline.hpp).
enum class Clock {
  kNone,        ///< the artefact gave no time
  kUtc,         ///< a time with its zone (torchelastic's epoch seconds, ISO 8601 with Z or an offset)
  kWall,        ///< a local wall-clock date and time with no zone (NCCL, Slurm, dmesg -T)
  kWallNoYear,  ///< month, day and time with no year (PyTorch's "[E304 10:42:37.883]", syslog "Dec  2 09:19:05")
  kBoot,        ///< seconds since the node booted (dmesg "[12345.678901]")
};

/// A time as an artefact printed it.
struct Stamp {
  Clock clock = Clock::kNone;
  int year = 0, month = 0, day = 0;  ///< kUtc / kWall / kWallNoYear (year 0 for kWallNoYear)
  int64_t usOfDay = 0;               ///< microseconds since midnight
  int tzMinutes = 0;                 ///< kUtc: the printed offset from UTC
  int64_t bootUs = 0;                ///< kBoot: microseconds since boot
  std::string text;                  ///< as printed
};

/// One thing that happened, from one artefact.
struct TimelineEvent {
  Stamp stamp;
  std::string host;
  int rank = -1;
  std::string gpu, nic, peer;  ///< "" when the artefact does not say
  std::string kind;            ///< "log-error", "xid", "ib-link", "slurm-task-exit", "ras-dead", "elastic-error"...
  bool failure = true;         ///< a real error, as opposed to context (a job start, a link coming back)
  bool consequence = false;    ///< an error that usually follows another failure (a watchdog timeout)
  std::string text;            ///< what the artefact said, at most 400 bytes
  std::string file;
  std::size_t line = 0;  ///< 1-based; 0 for a document without lines
  /// The line has no stamp of its own and `stamp` is the next stamped line's of its file: printed no later.
  bool stampOfNextLine = false;
};

/// A problem an artefact states outright (a process RAS considers dead, a DIAG check that failed).
struct ArtefactFinding {
  std::string id;  ///< "ras.dead_process", "ras.collective_count_mismatch", "diag.p2p", "slurm.time_limit"...
  bool fail = true;
  std::string host;
  int rank = -1;
  std::string message, remedy;
  std::string file;
  std::size_t line = 0;
  std::string text;
};

/// What the readers found, all artefacts together.
struct ArtefactOut {
  std::vector<TimelineEvent> events;
  std::vector<ArtefactFinding> findings;
  /// Ranks each kind of per-rank artefact covers ("error files": {3}); said back as what was not given.
  std::vector<std::pair<std::string, std::set<int>>> coverage;
  /// Hosts each kind of per-node artefact names ("kernel logs": {"node3"}).
  std::vector<std::pair<std::string, std::set<std::string>>> hostCoverage;
  /// Kernel logs no line of which names a host (`dmesg`, `dmesg -T`): the result places them on the host their
  /// path names (placement.hpp).
  std::vector<std::string> hostlessKernelLogs;
  int worldSize = -1;  ///< the largest communicator size an artefact named (RAS), -1 unknown
  /// Each process's (host, pid) rank in the largest communicator an artefact lists with its processes (RAS's JSON,
  /// its text report's warnings): the rank of an NCCL line whose process printed no Init line (NCCL_DEBUG=WARN).
  std::map<std::pair<std::string, long>, int> processRanks;
  int processRanksCommSize = 0;  ///< the size of the communicator processRanks is of
  /// What only one kind can say, by section name ("flight_recorder": its cross-rank analysis). Each section is an
  /// object with `title` and `lines` (the text report prints them) besides its own fields (the JSON keeps them).
  Json sections = Json::object();
  void cover(const std::string& what, int rank);
  void coverHost(const std::string& what, const std::string& host);
  /// A process's rank in a communicator of `commSize` ranks; a larger communicator's replace a smaller one's (a
  /// tensor-parallel pair's rank 1 is not the job's).
  void nameProcessRank(const std::string& host, long pid, int rank, int commSize);
};

/// Reads one file of a kind. block() gets the bytes in order, each block ending at a line end (except maybe the
/// last); finish() adds what was read. Bad content is said in `out` (an event or a note), never thrown, except for
/// a document that cannot be read at all: UsageError naming the file.
class ArtefactReader {
 public:
  virtual ~ArtefactReader() = default;
  virtual void block(std::string_view text) = 0;
  /// Whether markedLines() may stand for block() on a file the rules scan too: the scanner's pass already found
  /// the lines that hold one of lineEventMarkers() (line_markers.hpp).
  virtual bool takesMarkedLines() const { return false; }
  /// The block, with the starts of its lines that hold a marker (ascending, each line once) and its count of
  /// newlines (which the scan counted already; SIZE_MAX: not counted).
  virtual void markedLines(std::string_view text, const std::vector<std::size_t>& starts,
                           std::size_t newlines = SIZE_MAX) {
    (void)starts;
    (void)newlines;
    block(text);
  }
  virtual void finish(ArtefactOut& out) = 0;
};

/// What a kind gathers across all of a job's files of that kind; finish() adds the result once all are read.
class ArtefactJobState {
 public:
  virtual ~ArtefactJobState() = default;
  virtual void finish(ArtefactOut& out) = 0;
};

/// The score of a kind that takes any text: a more specific kind scores higher.
inline constexpr int kTextScore = 1;
/// How many leading bytes recognition sees.
inline constexpr std::size_t kHeadBytes = 8192;

class ArtefactKind : public Registered {
 public:
  virtual std::string description() const = 0;
  /// 0 when a file that starts with `head` is not of this kind; else how specific the match is.
  virtual int recognise(std::string_view head) const = 0;
  /// Whether the rules read the file too (a log), besides this kind's reader.
  virtual bool readsAsLog() const { return false; }
  virtual std::unique_ptr<ArtefactReader> open(const std::string& file) const = 0;
  /// The state of a kind that reads its files together (nullptr: each file stands alone).
  virtual std::unique_ptr<ArtefactJobState> jobState() const { return nullptr; }
  /// A reader that adds to the job's state (called instead of open() when jobState() gave one).
  virtual std::unique_ptr<ArtefactReader> openInJob(const std::string& file, ArtefactJobState& state) const {
    (void)state;
    return open(file);
  }
};

/// The kind for a file starting with `head`, or nullptr with `why` saying what the file seems to be instead
/// (binary data, a Python pickle, a JSON document of no known shape).
const ArtefactKind* recogniseArtefact(std::string_view head, std::string& why);

/// Every registered kind, by key.
std::vector<const ArtefactKind*> artefactKinds();

/// A line's text for an event or a finding: valid UTF-8, at most 400 bytes.
std::string eventText(std::string_view line);

/// Whether `head` reads as text: no NUL byte, and under 1% control bytes other than tab, CR, LF, ESC, FF.
bool looksLikeText(std::string_view head);

/// Whether `head` is a Markdown document (a "# " heading first and a table or a fenced block): the notes people
/// keep beside a job's files, not a log.
bool looksLikeMarkdown(std::string_view head);

/// Whether `head` opens one JSON document (an object or array), as opposed to text or JSON lines (one object per
/// line, which structured loggers write and the rules read as a log).
bool looksLikeJsonDocument(std::string_view head);

}  // namespace pf::doctor

#define PF_REGISTER_ARTEFACT_KIND(Type, key) PF_REGISTER(::pf::doctor::ArtefactKind, Type, key)
