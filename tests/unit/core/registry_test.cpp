// SPDX-License-Identifier: Apache-2.0
#include "pf/registry.hpp"

#include <gtest/gtest.h>

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

// A base that opts in to the key hand-off: its classes never write their own key.
struct Plant : Registered {
  using Registered::Registered;
  virtual int leaves() const = 0;
};
struct Fern : Plant {
  int leaves() const override { return 7; }
};
struct Moss : Plant {
  Moss() : Plant("moss") {}  // made outside the registry in the test below
  int leaves() const override { return 0; }
};
PF_REGISTER(Plant, Fern, "fern");
PF_REGISTER(Plant, Fern, "bracken");  // one class under two keys: each object gets the key it was made under

TEST(Registry, SelfRegisteredEntriesAreSortedAndCreatable) {
  auto& r = Registry<Animal>::instance();
  EXPECT_EQ(r.keys(), (std::vector<std::string>{"cat", "dog"}));
  EXPECT_EQ(r.create("dog")->sound(), "woof");
  EXPECT_EQ(r.create("cow"), nullptr);
  EXPECT_TRUE(r.contains("cat"));
}

TEST(Registry, HandsTheRegistrationKeyToRegisteredObjects) {
  auto& r = Registry<Plant>::instance();
  EXPECT_EQ(r.create("fern")->key(), "fern");
  EXPECT_EQ(r.create("bracken")->key(), "bracken");
  EXPECT_EQ(r.create("bracken")->leaves(), 7);
  EXPECT_EQ(Moss().key(), "moss");
  EXPECT_EQ(Fern().key(), "");
}

}  // namespace
}  // namespace pf
