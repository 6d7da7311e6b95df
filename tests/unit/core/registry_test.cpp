// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "pf/registry.hpp"

namespace pf {
namespace {

struct Animal {
  virtual ~Animal() = default;
  virtual std::string sound() const = 0;
};
struct Cat : Animal {
  std::string sound() const override { return "meow"; }
};
struct Dog : Animal {
  std::string sound() const override { return "woof"; }
};
PF_REGISTER(Animal, Dog, "dog");
PF_REGISTER(Animal, Cat, "cat");

TEST(Registry, SelfRegisteredEntriesAreSortedAndCreatable) {
  auto& r = Registry<Animal>::instance();
  EXPECT_EQ(r.keys(), (std::vector<std::string>{"cat", "dog"}));
  EXPECT_EQ(r.create("dog")->sound(), "woof");
  EXPECT_EQ(r.create("cow"), nullptr);
  EXPECT_TRUE(r.contains("cat"));
}

}  // namespace
}  // namespace pf
