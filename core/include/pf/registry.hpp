// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// A self-registration registry: each probe, collective or backend registers itself from its own .cpp with a
// static registrar, so adding one is adding a file. The table is a function-local static (initialised on
// first use), which makes registration safe during static initialisation in any order. Libraries holding
// registrars are built as CMake OBJECT libraries so the linker cannot drop them.
//
// The key is written once, in the registration: a base that derives from pf::Registered gets it back from
// key() on every object the registry creates, so no class repeats its own key in a name() override. Deriving
// from Registered is opt-in; a base that does not (the CLI's Command, the Reporter) registers and creates
// exactly as before.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace pf {

template <typename Base>
class Registry;

/// Base for registered types that know their registry key. Registry::create hands the key over after
/// construction, so a registered class needs no constructor for it.
class Registered {
 public:
  virtual ~Registered() = default;
  /// The key this object was created under (PF_REGISTER's `key`); for an object made outside the registry,
  /// the key given to the constructor, or empty.
  const std::string& key() const { return key_; }

 protected:
  Registered() = default;
  /// For objects made outside the registry (test doubles), which name themselves.
  explicit Registered(std::string key) : key_(std::move(key)) {}

 private:
  template <typename>
  friend class Registry;
  std::string key_;
};

template <typename Base>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Base>()>;

  static Registry& instance() {
    static Registry registry;
    return registry;
  }

  /// Adds a factory under `key`; a later registration of the same key replaces the earlier one.
  void add(const std::string& key, Factory factory) { factories_[key] = std::move(factory); }

  /// Creates the entry named `key`, or nullptr when none is registered. A Registered object gets `key`.
  std::unique_ptr<Base> create(const std::string& key) const {
    auto it = factories_.find(key);
    if (it == factories_.end()) return nullptr;
    std::unique_ptr<Base> obj = it->second();
    if constexpr (std::is_base_of_v<Registered, Base>) {
      if (obj) static_cast<Registered&>(*obj).key_ = key;
    }
    return obj;
  }

  bool contains(const std::string& key) const { return factories_.count(key) != 0; }

  /// Registered keys in sorted order (std::map keeps them sorted, so listings are stable).
  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const auto& [k, f] : factories_) out.push_back(k);
    return out;
  }

 private:
  std::map<std::string, Factory> factories_;
};

/// Static registrar used by the PF_REGISTER_* macros.
template <typename Base>
struct Registrar {
  Registrar(const std::string& key, typename Registry<Base>::Factory factory) {
    Registry<Base>::instance().add(key, std::move(factory));
  }
};

}  // namespace pf

#define PF_CONCAT_INNER(a, b) a##b
#define PF_CONCAT(a, b) PF_CONCAT_INNER(a, b)
/// Registers `Type` (default-constructible, derived from `Base`) under `key`.
/// The registrar's name takes __COUNTER__, not __LINE__: the sanitizer stage compiles several sources as one
/// translation unit (CMake's unity build), where two registrations can share a line number.
#define PF_REGISTER(Base, Type, key)                                        \
  static const ::pf::Registrar<Base> PF_CONCAT(pf_registrar_, __COUNTER__)( \
      key, [] { return std::unique_ptr<Base>(new Type()); })
