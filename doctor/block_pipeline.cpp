// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "block_pipeline.hpp"

#include <sched.h>

#include <array>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace pf::doctor {
namespace {

// Three blocks in flight: one being consumed, one prepared and waiting, one being read and prepared. Two would make
// the reader wait whenever one block's per-line work ran shorter than the next block's read, and more only hold
// memory (4 MiB of text each, and its scan): the consumer is the slower side on real logs.
constexpr std::size_t kSlots = 3;

struct Slot {
  std::string text;
  PreparedBlock prep;
};

class Pipeline {
 public:
  Pipeline(ByteSource& src, std::size_t blockSize, const LogScanner& scan)
      : src_(src), blockSize_(blockSize), scan_(scan) {
    for (std::size_t i = 0; i < kSlots; ++i) free_.push_back(i);
    reader_ = std::thread([this] { produce(); });
  }
  // Also on the way out of an exception of the consumer: the reader stops at its next block and is joined.
  ~Pipeline() {
    {
      std::lock_guard lk(m_);
      stop_ = true;
    }
    cv_.notify_all();
    reader_.join();
  }
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  void run(const std::function<void(std::string_view, const PreparedBlock&)>& consume) {
    for (;;) {
      std::size_t s = 0;
      {
        std::unique_lock lk(m_);
        cv_.wait(lk, [&] { return !ready_.empty() || done_; });
        // The blocks read before a read error are consumed first, as a single thread would have.
        if (ready_.empty()) break;
        s = ready_.front();
        ready_.pop_front();
      }
      consume(slots_[s].text, slots_[s].prep);
      {
        std::lock_guard lk(m_);
        free_.push_back(s);
      }
      cv_.notify_all();
    }
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void produce() {
    try {
      LineBlockReader reader(src_, blockSize_);
      for (std::string_view block;;) {
        std::size_t s = 0;
        {
          std::unique_lock lk(m_);
          cv_.wait(lk, [&] { return stop_ || !free_.empty(); });
          if (stop_) break;
          s = free_.back();
          free_.pop_back();
        }
        if (!reader.next(block)) break;
        Slot& slot = slots_[s];
        slot.text.assign(block);  // the reader reuses its buffer for the next block
        scan_.prepare(slot.text, slot.prep);
        {
          std::lock_guard lk(m_);
          ready_.push_back(s);
        }
        cv_.notify_all();
      }
    } catch (...) {
      std::lock_guard lk(m_);
      error_ = std::current_exception();
    }
    {
      std::lock_guard lk(m_);
      done_ = true;
    }
    cv_.notify_all();
  }

  ByteSource& src_;
  std::size_t blockSize_;
  const LogScanner& scan_;
  std::array<Slot, kSlots> slots_;
  std::mutex m_;
  std::condition_variable cv_;
  std::vector<std::size_t> free_;
  std::deque<std::size_t> ready_;
  bool done_ = false, stop_ = false;
  std::exception_ptr error_;
  std::thread reader_;  // last: started once everything it uses is constructed
};

}  // namespace

bool readsAhead() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 1;
}

void readPrepared(ByteSource& src, std::size_t blockSize, const LogScanner& scan,
                  const std::function<void(std::string_view, const PreparedBlock&)>& consume) {
  if (readsAhead()) {
    std::unique_ptr<Pipeline> pipe;
    try {
      pipe = std::make_unique<Pipeline>(src, blockSize, scan);
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
