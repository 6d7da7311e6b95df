// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "pf/bootstrap.hpp"

#include <cstring>

namespace pf {

std::vector<double> Bootstrap::allGatherDouble(double v) {
  std::string local(sizeof v, '\0');
  std::memcpy(local.data(), &v, sizeof v);
  std::vector<double> out;
  for (const std::string& s : allGather(local)) {
    double x = 0;
    std::memcpy(&x, s.data(), sizeof x);
    out.push_back(x);
  }
  return out;
}

long long Bootstrap::allSum(long long v) {
  std::string local(sizeof v, '\0');
  std::memcpy(local.data(), &v, sizeof v);
  long long sum = 0;
  for (const std::string& s : allGather(local)) {
    long long x = 0;
    std::memcpy(&x, s.data(), sizeof x);
    sum += x;
  }
  return sum;
}

namespace {
class LocalBootstrap final : public Bootstrap {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void barrier() override {}
  std::vector<std::string> allGather(const std::string& local) override { return {local}; }
  void broadcast(std::string&, int) override {}
  std::string name() const override { return "local"; }
  void abortAll(int) override {}  // one rank: returning the exit code is enough
};
}  // namespace

std::unique_ptr<Bootstrap> makeLocalBootstrap() { return std::make_unique<LocalBootstrap>(); }

}  // namespace pf
