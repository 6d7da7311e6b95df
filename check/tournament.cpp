// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
#include "tournament.hpp"

#include <algorithm>

namespace pf::check {

std::vector<Round> tournamentRounds(int n) {
  std::vector<Round> rounds;
  if (n < 2) return rounds;
  // Circle method: with an even count m, seat m-1 players on a circle around a fixed one; each round pairs the
  // fixed player with the one at the top and the rest across the circle, then rotates the circle by one.
  // An odd n gets a phantom player m-1 = n: whoever meets it sits the round out (the bye).
  const int m = n % 2 == 0 ? n : n + 1;
  std::vector<int> seat(m);
  for (int i = 0; i < m; ++i) seat[i] = i;
  for (int r = 0; r < m - 1; ++r) {
    Round round;
    for (int i = 0; i < m / 2; ++i) {
      int a = seat[i], b = seat[m - 1 - i];
      if (a >= n || b >= n) continue;  // the bye
      round.emplace_back(std::min(a, b), std::max(a, b));
    }
    std::sort(round.begin(), round.end());
    rounds.push_back(std::move(round));
    // Rotate every seat but the first.
    std::rotate(seat.begin() + 1, seat.end() - 1, seat.end());
  }
  return rounds;
}

std::vector<Round> disjointRounds(const std::vector<std::pair<int, int>>& pairs) {
  std::vector<Round> rounds;
  for (const auto& p : pairs) {
    auto fits = [&](const Round& r) { return partnerIn(r, p.first) < 0 && partnerIn(r, p.second) < 0; };
    auto it = std::find_if(rounds.begin(), rounds.end(), fits);
    if (it == rounds.end()) it = rounds.insert(rounds.end(), Round{});
    it->push_back(p);
  }
  for (Round& r : rounds) std::sort(r.begin(), r.end());
  return rounds;
}

int partnerIn(const Round& round, int node) {
  for (const auto& [a, b] : round) {
    if (a == node) return b;
    if (b == node) return a;
  }
  return -1;
}

}  // namespace pf::check
