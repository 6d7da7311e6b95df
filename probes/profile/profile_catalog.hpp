// SPDX-License-Identifier: Apache-2.0
// Copyright (c) 2026 The Preflight authors
//
// The built-in node profiles (probes/profile/builtin/*.toml, embedded in the binary when it is built, so a lone
// binary has them) and what `--profile SPEC` means: a file that exists, else a built-in name, else "auto" (the
// built-in whose [match] table fits what the node shows).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profile/node_profile.hpp"
#include "system_view.hpp"

namespace pf::probes {

struct BuiltinProfileText {
  std::string name;  ///< the file name without .toml: "azure-nd-h100-v5"
  std::string text;  ///< the TOML as written
};

/// Every built-in profile, in name order (probes/profile/builtin/*.toml, embedded by probes/CMakeLists.txt).
const std::vector<BuiltinProfileText>& builtinProfileTexts();
/// The embedded files themselves, (file name, text): the generated source pf_embed_files writes.
const std::vector<std::pair<std::string_view, std::string_view>>& embeddedProfileFiles();

/// Parses every built-in profile. @throws UsageError naming the built-in when one does not parse (a build bug)
std::vector<NodeProfile> builtinProfiles();

/// Resolves --profile SPEC: a path that exists wins; then a built-in name; "auto" defers the choice to the node
/// (autoPick, with the built-ins as its candidates: each node picks with pickProfile).
/// @throws UsageError naming the built-ins when SPEC is neither a file nor a built-in name (exit 2)
NodeProfile resolveProfile(const std::string& spec);

/// `--profile auto`: the candidate whose [match] fits the node. The most specific one wins (most criteria); when
/// none fits, or two fit equally, the returned profile's noneFits says what the node shows and why.
NodeProfile pickProfile(const NodeFacts& facts, const std::vector<NodeProfile>& candidates);
/// pickProfile among the built-in profiles.
NodeProfile pickBuiltinProfile(const NodeFacts& facts);
/// What `given` means on this node: the profile itself, or for `--profile auto` the one the node picks.
NodeProfile profileForNode(const NodeFacts& facts, const NodeProfile& given);

/// What the node shows that [match] looks at, in one line: DMI, GPU model and count, the NIC set.
std::string describeNode(const NodeFacts& facts);

}  // namespace pf::probes
