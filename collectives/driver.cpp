// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "pf/error.hpp"
#include "pf/log.hpp"
#include "pf/stats.hpp"
#include "pf/timer.hpp"
#include "pf/units.hpp"
#include "sweep.hpp"
#include "verify.hpp"

namespace pf::collectives {

namespace {

// Owns one backend allocation; releases it even when a measurement throws.
class Buffer {
 public:
  Buffer(Backend& b, size_t bytes) : backend_(b), ptr_(b.allocate(std::max<size_t>(bytes, 64))) {}
  ~Buffer() { backend_.release(ptr_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  char* get() const { return static_cast<char*>(ptr_); }

 private:
  Backend& backend_;
  void* ptr_;
};

// Everything one (size, type, op) measurement needs, so the placement loop reads as the algorithm.
struct Point {
  const Collective& coll;
  Layout layout;
  CollArgs args;
  size_t es;
  uint64_t sizeBytes;
};

struct Buffers {
  Buffer send, recv;
  std::vector<char> hostIn, hostOut, expected;
};

Launch makeLaunch(const Point& p, Buffers& b, bool inPlace) {
  Launch l;
  l.count = p.layout.paramCount;
  l.dtype = p.args.dtype;
  l.op = p.args.op;
  l.root = p.args.root;
  l.inPlace = inPlace;
  size_t rank = static_cast<size_t>(p.args.rank);
  if (inPlace) {
    l.send = b.recv.get() + p.layout.sendInPlaceOffset * rank * p.es;
    l.recv = b.recv.get() + p.layout.recvInPlaceOffset * rank * p.es;
  } else {
    l.send = b.send.get();
    l.recv = b.recv.get();
  }
  return l;
}

void writeInput(Backend& be, const Point& p, Buffers& b, const Launch& l) {
  p.coll.fillInput(b.hostIn.data(), p.layout, p.args);
  be.toDevice(const_cast<void*>(l.send), b.hostIn.data(), p.layout.sendCount * p.es);
}

// The wrong-element count of one checked operation on this rank (0 where the output is undefined).
int64_t checkOnce(Backend& be, const Point& p, Buffers& b, const Launch& l, bool haveExpected) {
  // Poison the whole receive buffer first, so an operation that writes nothing cannot pass on stale data.
  std::memset(b.hostOut.data(), 0xA5, b.hostOut.size());
  be.toDevice(b.recv.get(), b.hostOut.data(), p.layout.bufferCount() * p.es);
  writeInput(be, p, b, l);
  be.launch(l);
  be.complete();
  if (!haveExpected) return 0;
  be.toHost(b.hostOut.data(), l.recv, p.layout.recvCount * p.es);
  return countWrong(p.args.dtype, p.args.op, p.args.nranks, b.hostOut.data(), b.expected.data(), p.layout.recvCount);
}

// A row and, with per-iteration timing, every iteration's time: the slowest rank's (`times`) and each rank's
// (`rankTimes[rank]`), kept so that the document (and nccl-tests' -J layout written from it) holds them.
struct Measured {
  SweepRow row;
  std::vector<double> times;
  std::vector<std::vector<double>> rankTimes;
};

Measured measure(Backend& be, Bootstrap& boot, const Point& p, Buffers& b, const SweepOptions& o, bool inPlace,
                 bool haveExpected) {
  Launch l = makeLaunch(p, b, inPlace);
  writeInput(be, p, b, l);
  for (int i = 0; i < o.warmup; ++i) be.launch(l);
  be.complete();
  boot.barrier();

  // The aggregate loop: nothing but launches between the two clock reads, as a bare MPI/NCCL loop.
  Timer timer;
  be.launchRepeated(l, o.iters);
  be.complete();
  double localUs = timer.micros() / o.iters;
  std::vector<double> perRank = boot.allGatherDouble(localUs);
  double timeUs = 0;
  for (double t : perRank) timeUs += t;
  timeUs /= static_cast<double>(perRank.size());

  Measured m;
  SweepRow& row = m.row;
  row.collective = p.coll.key();
  row.size_bytes = p.sizeBytes;
  row.count = p.layout.paramCount;
  row.dtype = name(p.args.dtype);
  row.op = p.coll.reduces() ? name(p.args.op) : "none";
  row.root = p.coll.rooted() ? p.args.root : -1;
  row.placement = inPlace ? "in" : "out";
  row.time_us = timeUs;
  row.algbw_gbps = gbPerSecond(p.coll.algBytes(p.layout, p.args.nranks, p.es), timeUs * 1e-6);
  row.busbw_gbps = row.algbw_gbps * p.coll.busFactor(p.args.nranks);

  if (o.perIterTiming) {
    std::vector<double> mine(static_cast<size_t>(o.iters));
    boot.barrier();
    for (double& t : mine) t = be.timeOne(l);
    std::string raw(reinterpret_cast<const char*>(mine.data()), mine.size() * sizeof(double));
    std::vector<std::string> all = boot.allGather(raw);
    // An iteration is as slow as its slowest rank; skew compares the ranks' own medians.
    std::vector<double> slowest(mine.size(), 0.0), rankP50;
    for (const std::string& s : all) {
      std::vector<double> v(mine.size());
      std::memcpy(v.data(), s.data(), std::min(s.size(), v.size() * sizeof(double)));
      for (size_t i = 0; i < v.size(); ++i) slowest[i] = std::max(slowest[i], v[i]);
      rankP50.push_back(stats::median(v));
      m.rankTimes.push_back(std::move(v));
    }
    m.times = slowest;
    stats::Summary s = stats::summarize(slowest);
    row.iter_min_us = s.min;
    row.iter_p50_us = s.p50;
    row.iter_p99_us = s.p99;
    row.iter_max_us = s.max;
    double med = stats::median(rankP50);
    auto worstIt = std::max_element(rankP50.begin(), rankP50.end());
    row.rank_skew = med > 0 ? *worstIt / med : 1.0;
    row.slowest_rank = static_cast<int>(worstIt - rankP50.begin());
  }

  if (o.checkIters > 0) {
    int64_t wrong = 0;
    for (int c = 0; c < o.checkIters && wrong == 0; ++c) wrong = boot.allSum(checkOnce(be, p, b, l, haveExpected));
    row.wrong = wrong;
  }
  return m;
}

// Largest per-buffer byte count the sweep will touch, over all sizes and types.
size_t largestBuffer(const SweepOptions& o, const Collective& c, int n) {
  size_t most = 0;
  for (DataType t : o.dtypes) {
    size_t es = sizeOf(t);
    most = std::max(most, c.layout(o.maxBytes / es, n, es).bufferCount() * es);
  }
  return most;
}

}  // namespace

std::vector<uint64_t> sweepSizes(const SweepOptions& o) {
  std::vector<uint64_t> sizes;
  for (uint64_t s = o.minBytes; s <= o.maxBytes;) {
    sizes.push_back(s);
    uint64_t next = o.stepFactor > 1 ? s * o.stepFactor : s + o.stepBytes;
    if (next <= s) break;  // a zero step or an overflow would loop forever
    s = next;
  }
  return sizes;
}

void validateOptions(const SweepOptions& o, const Collective& c, int nranks) {
  if (o.minBytes > o.maxBytes)
    throw UsageError(
        fmt::format("--minbytes ({}) is larger than --maxbytes ({}); swap them or raise -e", o.minBytes, o.maxBytes));
  if (o.stepFactor <= 1 && o.stepBytes == 0)
    throw UsageError("--stepbytes 0 with --stepfactor 1 would never advance; set -i > 0 or -f > 1");
  if (o.iters < 1) throw UsageError(fmt::format("--iters must be at least 1 (got {})", o.iters));
  if (o.warmup < 0) throw UsageError(fmt::format("--warmup_iters cannot be negative (got {})", o.warmup));
  if (o.checkIters < 0) throw UsageError(fmt::format("--check cannot be negative (got {})", o.checkIters));
  if (o.cycles < 1)
    throw UsageError(fmt::format("--run_cycles must be at least 1 (got {}); Preflight has no endless mode", o.cycles));
  if (c.rooted() && (o.root < 0 || o.root >= nranks))
    throw UsageError(
        fmt::format("--root {} is not a rank of this run (0..{}); pick a root below {}", o.root, nranks - 1, nranks));
  for (DataType t : o.dtypes) {
    size_t es = sizeOf(t);
    for (uint64_t s : sweepSizes(o))
      if (s % es != 0)
        throw UsageError(
            fmt::format("size {} is not a whole number of {}-byte {} elements; use sizes that are "
                        "multiples of {} (e.g. -b {})",
                        s, es, name(t), es, ((s + es - 1) / es) * es));
  }
}

Result runSweep(Backend& be, Bootstrap& boot, const Collective& coll, const SweepOptions& optsIn,
                const SweepCallbacks& cb) {
  SweepOptions opts = optsIn;
  const int n = boot.size();
  validateOptions(opts, coll, n);
  // The backend's call for this collective, looked up once; a backend without one says so here, on every
  // rank alike, before anything is allocated.
  be.select(coll.key());

  Result result;
  result.key = "sweep." + coll.key();
  result.kind = Kind::kSweep;

  // Two backend buffers per rank; like nccl-tests, shrink the range rather than fail on a small machine.
  std::vector<double> memory = boot.allGatherDouble(static_cast<double>(be.memoryAvailable()));
  uint64_t avail = static_cast<uint64_t>(*std::min_element(memory.begin(), memory.end()));
  while (opts.maxBytes > opts.minBytes && 3 * largestBuffer(opts, coll, n) > avail / 2) opts.maxBytes /= 2;
  if (opts.maxBytes != optsIn.maxBytes) {
    result.evidence.push_back({"maxBytes reduced for memory", opts.maxBytes, "bytes", "memory of the smallest rank"});
    if (boot.rank() == 0) PF_LOG_WARN("sweep", "reducing maxBytes to {} due to memory limitation", opts.maxBytes);
  }

  const size_t bufBytes = largestBuffer(opts, coll, n);
  be.useHugePages(opts.hugePages);
  Buffers bufs{Buffer(be, bufBytes), Buffer(be, bufBytes), std::vector<char>(bufBytes), std::vector<char>(bufBytes),
               std::vector<char>(bufBytes)};

  // The (type, op) pairs to run: data-movement collectives ignore the op, and a backend may lack a pair.
  std::vector<std::pair<DataType, RedOp>> combos;
  for (DataType t : opts.dtypes) {
    for (RedOp op : coll.reduces() ? opts.ops : std::vector<RedOp>{RedOp::kNone}) {
      if (be.supports(t, op))
        combos.emplace_back(t, op);
      else
        result.evidence.push_back(
            {fmt::format("{} {} skipped", name(t), name(op)), "not supported by the backend", "", be.key()});
    }
  }
  SweepParams params;
  params.collective = coll.key();
  params.backend = be.key();
  params.ranks = n;
  params.min_bytes = opts.minBytes;
  params.max_bytes = opts.maxBytes;
  params.step_factor = opts.stepFactor;
  params.step_bytes = opts.stepBytes;
  params.iters = opts.iters;
  params.warmup_iters = opts.warmup;
  params.check_iters = opts.checkIters;
  params.per_iter_timing = opts.perIterTiming;
  params.root = coll.rooted() ? opts.root : -1;
  params.cycles = opts.cycles;
  params.huge_pages = opts.hugePages;
  // Set before the first size, so that what streams out while the sweep runs is already self-describing.
  result.params = toJson(params);

  std::vector<uint64_t> sizes = sweepSizes(opts);
  std::vector<uint64_t> unitBytes;  // every unit's size, in the order the loops below run them
  for (int cycle = 1; cycle <= opts.cycles; ++cycle)
    for (size_t c = 0; c < combos.size(); ++c) unitBytes.insert(unitBytes.end(), sizes.begin(), sizes.end());
  size_t done = 0;

  double busSum = 0;
  int64_t wrongTotal = 0, outOfBounds = 0;
  for (int cycle = 1; cycle <= opts.cycles; ++cycle) {
    for (auto [t, op] : combos) {
      for (uint64_t size : sizes) {
        size_t es = sizeOf(t);
        Layout layout = coll.layout(size / es, n, es);
        // A seed per (type, op) so that data left over from the previous pair cannot pass a check.
        uint64_t seed = opts.seed + static_cast<uint64_t>(t) * 16 + static_cast<uint64_t>(op);
        CollArgs args{boot.rank(), n, opts.root, t, op, seed};
        Point p{coll, layout, args, es, coll.sizeBytes(layout, es)};
        bool haveExpected = opts.checkIters > 0 && coll.expected(bufs.expected.data(), layout, args);
        Measured out = measure(be, boot, p, bufs, opts, false, haveExpected);
        Measured in = measure(be, boot, p, bufs, opts, true, haveExpected);
        if (opts.cycles > 1) out.row.cycle = in.row.cycle = cycle;
        for (const Measured* m : {&out, &in}) {
          const SweepRow& r = m->row;
          busSum += r.busbw_gbps;
          if (r.wrong.value_or(0) > 0) {
            ++outOfBounds;
            wrongTotal += *r.wrong;
          }
          Json row = toJson(r);
          if (!m->times.empty()) {
            row["iter_times_us"] = m->times;
            row["iter_rank_times_us"] = m->rankTimes;
          }
          result.rows.push_back(std::move(row));
        }
        if (boot.rank() == 0) {
          if (cb.onRow) cb.onRow(result, result.rows.size() - 2);
          if (cb.onProgress) cb.onProgress(++done, unitBytes);
        }
      }
    }
  }

  size_t nrows = result.rows.size();
  double peak = 0;
  for (const Json& r : result.rows) peak = std::max(peak, r["busbw_gbps"].get<double>());
  SweepMetrics metrics;
  metrics.avg_busbw_gbps = nrows ? busSum / static_cast<double>(nrows) : 0.0;
  metrics.peak_busbw_gbps = peak;
  metrics.out_of_bounds = outOfBounds;
  if (opts.checkIters > 0) metrics.wrong_total = wrongTotal;
  result.metrics = toJson(metrics);
  if (outOfBounds > 0) {
    result.status = Status::kFail;
    result.message = fmt::format("{} wrong elements in {} of {} measurements", wrongTotal, outOfBounds, nrows);
    result.remedy =
        "a collective returned wrong data: rerun with the same arguments to see whether it repeats, "
        "then test node pairs (preflight pairs) to find the rank that corrupts it";
  } else {
    result.status = Status::kPass;
    result.message = fmt::format("{} measurements, peak busbw {:.2f} GB/s{}", nrows, peak,
                                 opts.checkIters > 0 ? ", all data correct" : ", data not checked (-c 0)");
  }
  return result;
}

}  // namespace pf::collectives
