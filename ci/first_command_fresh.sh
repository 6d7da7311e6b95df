#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the README's first command, verbatim, on a fresh Debian 12 and times it: a new root made by debootstrap,
# given only what the project's fresh machine has (compilers, CMake, GoogleTest, Google Benchmark, git, and this
# machine's CUDA toolkit bind-mounted at /usr/local/cuda), a clone of COMMIT inside it, and COMMAND run there as
# root, timed in full (apt downloads included) and split into install / build / check where COMMAND has the usual
# three parts joined by &&. A stage of the test command (ci/test.sh): a first command that a green test suite
# would hide (a package the tests install and the first command does not) fails here.
# Needs root, debootstrap and Debian's package registry (the mirror this machine's apt uses); leaves nothing behind.
#   ci/first_command_fresh.sh [COMMIT] [COMMAND]
# COMMIT defaults to HEAD; COMMAND to the first command of that commit's README.
# Exit: COMMAND's own exit status (0 when it passed); 2 when this machine cannot make the root.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$repo" rev-parse "${1:-HEAD}")
cmd=${2:-$(git -C "$repo" show "$commit:README.md" | grep -m1 '^bash ci/install-deps.sh')}
cuda=$(readlink -f /usr/local/cuda 2>/dev/null || true)
command -v debootstrap >/dev/null || { echo "first_command_fresh: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
root=$(mktemp -d /var/tmp/pf-fresh.XXXXXX)
chmod 755 "$root"  # apt downloads as the _apt user, who must reach the root's lists and cache
# Whatever still runs inside the root (a build the time limit cut short) is killed first: a process there keeps its
# mounts busy. Each mount is then taken down, lazily where it stays busy; the root is removed only when none is left.
cleanup() {
  set +e
  local p left
  for p in /proc/[0-9]*; do
    [[ "$(readlink "$p/root" 2>/dev/null)" == "$root" ]] && kill -KILL "${p#/proc/}" 2>/dev/null
  done
  sleep 1
  for m in "$root$cuda" "$root/dev" "$root/sys" "$root/proc"; do
    mountpoint -q "$m" && { umount -R "$m" 2>/dev/null || umount -R -l "$m"; }
  done
  left=$(awk -v r="$root/" 'index($2, r) == 1' /proc/mounts)
  if [[ -n "$left" ]]; then
    echo "first_command_fresh: mounts left under $root, not removed:" >&2
    echo "$left" >&2
  else
    rm -rf --one-file-system "$root"
  fi
}
trap cleanup EXIT
echo "== debootstrap bookworm into $root"
log=$(mktemp)
# The first Debian mirror that this machine's apt is set up with, so the root reaches the same registry.
mirror=$(sed -n 's/^URIs: *\([^ ]*\/debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
[[ -z "$mirror" ]] && mirror=$(awk '$1 == "deb" && $2 ~ /\/debian$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
[[ -n "$mirror" ]] || { echo "first_command_fresh: no Debian mirror in this machine's apt sources" >&2; exit 2; }
debootstrap bookworm "$root" "$mirror" >"$log" 2>&1 || { tail "$log" >&2; rm -f "$log"; exit 2; }
rm -f "$log"
cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/" 2>/dev/null && rm -f "$root/etc/apt/sources.list"
cp /etc/resolv.conf /etc/hosts "$root/etc/"
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys"
mount --rbind /dev "$root/dev"
if [[ -n "$cuda" && -d "$cuda" ]]; then
  mkdir -p "$root$cuda"  # at the same path as here, which the toolkit's ld.so.conf.d file names
  mount --bind -o ro "$cuda" "$root$cuda"
  ln -s "$cuda" "$root/usr/local/cuda"
  cp /etc/ld.so.conf.d/*cuda* "$root/etc/ld.so.conf.d/" 2>/dev/null || true
fi
in_root() { chroot "$root" env -i HOME=/root TERM=dumb PATH=/usr/local/cuda/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
echo "== what a fresh machine has"
in_root bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  build-essential cmake libgtest-dev libbenchmark-dev git ca-certificates >/dev/null'
in_root ldconfig
before=$(in_root dpkg -l | grep -c '^ii')
git clone -q "$repo" "$root/root/preflight"
git -C "$root/root/preflight" checkout -q "$commit"
echo "== $(git -C "$repo" log --oneline -1 "$commit")"
echo "== $cmd"
# The three parts timed apart: the install, the build, the check (split at the top-level &&).
IFS='|' read -r install build check <<<"$(sed 's/ && /|/g' <<<"$cmd")"
# The whole command in a bounded time (a hung check must not hold CI); its exit status is this script's.
rc=0
in_root timeout -k 10 "${FRESH_TIMEOUT:-1800}" bash -c "cd /root/preflight && t0=\$(date +%s) && $install && t1=\$(date +%s) &&
  { $build > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }; } && t2=\$(date +%s) &&
  $check; rc=\$?; t3=\$(date +%s)
  echo \"install \$((t1 - t0)) s, build \$((t2 - t1)) s, check \$((t3 - t2)) s, whole command \$((t3 - t0)) s, exit \$rc\"
  exit \$rc" || rc=$?
echo "packages: $before before, $(in_root dpkg -l | grep -c '^ii') after"
if ((rc != 0)); then
  echo "first_command_fresh: the README's first command exited $rc on a fresh Debian 12" >&2
fi
exit $rc
