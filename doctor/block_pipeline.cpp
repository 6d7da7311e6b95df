// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "block_pipeline.hpp"

#include <sched.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace pf::doctor {
namespace {

// Workers: one per CPU this process may use besides the calling thread, up to three (on a log of real start-up
// lines the consumer does about 40% of the work, so two workers keep pace with it and a third is slack; more would
// wait). The calling thread prepares a block itself whenever the next one in order is not ready, so on two CPUs one
// worker and the consumer share them with no third thread taking turns (docs/performance.md, "doctor on real-shaped
// logs: the consumer prepares too"). The slots are the workers' blocks, the consumer's (the one it prepares or
// consumes) and three more read ahead; with two fewer, two CPUs took 4% longer. Each holds a block (4 MiB) and its
// prepared lines (about twice that), so more would only hold memory.
constexpr std::size_t kMaxWorkers = 3, kSpareSlots = 4;

struct Slot {
  std::vector<char> buf;  // the block's bytes (LineBlockReader::next hands its buffer over)
  std::string_view text;
  PreparedBlock prep;
  std::size_t seq = 0;
  enum State { kFree, kBusy, kReady } state = kFree;
  std::exception_ptr error;  // prepare() failed on this block: raised when the consumer reaches it
};

// Workers read blocks in turn (the read, and any decompression, under one lock, which numbers them) and prepare
// them side by side; the calling thread consumes them in number order, and prepares the next unread block itself
// while the one it needs is not ready. Every thread can prepare, so the CPU time left over by the one serial part,
// the consumer, goes to preparing whichever block is next, with no fixed split between a reading and a consuming
// side.
class Pipeline {
 public:
  Pipeline(ByteSource& src, std::size_t blockSize, const LogScanner& scan, std::size_t workers)
      : reader_(src, blockSize), scan_(scan), slots_(workers + kSpareSlots) {
    // A worker that cannot be started leaves the others (the destructor joins the ones that were).
    try {
      for (std::size_t i = 0; i < workers; ++i) workers_.emplace_back([this] { work(); });
    } catch (const std::system_error&) {
      if (workers_.empty()) throw;
    }
  }
  // Also on the way out of an exception of the consumer: the workers stop after their current block and are joined.
  ~Pipeline() {
    {
      std::lock_guard lk(m_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& w : workers_) w.join();
  }
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  void run(const std::function<void(std::string_view, const PreparedBlock&)>& consume) {
    for (std::size_t seq = 0;; ++seq) {
      Slot* slot = nullptr;
      for (;;) {
        Slot* spare = nullptr;
        {
          std::unique_lock lk(m_);
          cv_.wait(lk, [&] {
            if ((slot = readySlot(seq)) != nullptr || (ended_ && seq >= endSeq_)) return true;
            return !ended_ && (spare = claimFreeSlot()) != nullptr;
          });
        }
        if (slot || !spare) break;
        // Block `seq` is still being prepared elsewhere (or not read yet): prepare the next unread one meanwhile.
        if (!readAndPrepare(*spare)) continue;
      }
      // The blocks read before a read error are consumed first, as a single thread would have.
      if (!slot) break;
      if (slot->error) std::rethrow_exception(slot->error);
      consume(slot->text, slot->prep);
      {
        std::lock_guard lk(m_);
        slot->state = Slot::kFree;
      }
      cv_.notify_all();
    }
    if (readError_) std::rethrow_exception(readError_);
  }

 private:
  Slot* readySlot(std::size_t seq) {
    for (auto& s : slots_)
      if (s.state == Slot::kReady && s.seq == seq) return &s;
    return nullptr;
  }

  // Under m_: a free slot, marked busy, or null.
  Slot* claimFreeSlot() {
    for (auto& s : slots_)
      if (s.state == Slot::kFree) {
        s.state = Slot::kBusy;
        return &s;
      }
    return nullptr;
  }

  // Reads the next block into `slot` (claimed busy) and prepares it; false when the input has ended (or its read
  // failed), the slot freed again.
  bool readAndPrepare(Slot& slot) {
    bool more = false;
    {
      std::lock_guard rl(readM_);
      try {
        std::string_view block;
        more = !ended_ && reader_.next(block, slot.buf);
        if (more) {
          slot.text = block;
          slot.seq = nextSeq_++;
        }
      } catch (...) {
        std::lock_guard lk(m_);
        readError_ = std::current_exception();
      }
      if (!more) {
        std::lock_guard lk(m_);
        slot.state = Slot::kFree;
        ended_ = true;
        endSeq_ = nextSeq_;
      }
    }
    if (!more) {
      cv_.notify_all();
      return false;
    }
    try {
      scan_.prepare(slot.text, slot.prep);
      slot.error = nullptr;
    } catch (...) {
      slot.error = std::current_exception();
    }
    {
      std::lock_guard lk(m_);
      slot.state = Slot::kReady;
    }
    cv_.notify_all();
    return true;
  }

  void work() {
    for (;;) {
      Slot* slot = nullptr;
      {
        std::unique_lock lk(m_);
        cv_.wait(lk, [&] { return stop_ || ended_ || (slot = claimFreeSlot()) != nullptr; });
        if (!slot) return;  // stopped, or the input ended
      }
      if (!readAndPrepare(*slot)) return;
    }
  }

  LineBlockReader reader_;   // under readM_
  std::size_t nextSeq_ = 0;  // under readM_
  const LogScanner& scan_;
  std::vector<Slot> slots_;
  std::mutex readM_, m_;
  std::condition_variable cv_;
  bool ended_ = false, stop_ = false;  // ended_: no block follows endSeq_ - 1
  std::size_t endSeq_ = 0;
  std::exception_ptr readError_;
  std::vector<std::thread> workers_;  // last: started once everything they use is constructed
};

std::size_t cpusGiven() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 ? static_cast<std::size_t>(CPU_COUNT(&set)) : 1;
}

std::size_t defaultWorkers() { return std::min(cpusGiven() - 1, kMaxWorkers); }

}  // namespace

bool readsAhead() { return defaultWorkers() > 0; }

void readPrepared(ByteSource& src, std::size_t blockSize, const LogScanner& scan,
                  const std::function<void(std::string_view, const PreparedBlock&)>& consume,
                  std::optional<std::size_t> workersAsked) {
  const std::size_t workers = workersAsked.value_or(defaultWorkers());
  if (workers > 0) {
    std::unique_ptr<Pipeline> pipe;
    try {
      pipe = std::make_unique<Pipeline>(src, blockSize, scan, workers);
    } catch (const std::system_error&) {
      // No thread to be had (a tight ulimit -u in a prolog, say): nothing was read yet, so one thread does it all.
    }
    if (pipe) {
      pipe->run(consume);
      return;
    }
  }
  LineBlockReader reader(src, blockSize);
  PreparedBlock prep;
  for (std::string_view block; reader.next(block);) {
    scan.prepare(block, prep);
    consume(block, prep);
  }
}

}  // namespace pf::doctor
