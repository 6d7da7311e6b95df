#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A current PyTorch from PyPI in a virtual environment of its own, for the test that runs PyTorch's own Flight
# Recorder analyser beside ours (ctest doctor.fr_trace_live: fr_trace on tests/fixtures/flight-recorder/). Debian 12's
# python3-torch (1.13) predates the Flight Recorder. Prints the environment's python on stdout; reuses it when it
# already imports the pinned release. The release is the one the fixtures were made with (torch_version.txt there):
# a newer one changes what fr_trace prints, so the pin moves with the fixtures (make_fixtures.py).
# About 2.5 minutes and 5.3 GB the first time (the wheel pulls CUDA's libraries; the analyser runs on the CPU).
# On failure (no PyPI) it says why on stderr and exits 1; ci/test.sh then lets the test skip with its reason.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version=$(awk '{print $2}' "$root/tests/fixtures/flight-recorder/torch_version.txt")
version=${version%%[+,]*}
venv=${PF_TORCH_VENV:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/preflight/torch-$version}
probe="import torch, torch.distributed.flight_recorder.fr_trace; assert torch.__version__.split('+')[0] == '$version'"
if [[ -x "$venv/bin/python" ]] && "$venv/bin/python" -c "$probe" 2>/dev/null; then
  echo "$venv/bin/python"
  exit 0
fi
echo "torch-venv: installing torch==$version from PyPI into $venv" >&2
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
if python3 -m venv "$venv" >&2 && "$venv/bin/pip" install -q --disable-pip-version-check "torch==$version" >&2 &&
  "$venv/bin/python" -c "$probe" >&2; then
  echo "$venv/bin/python"
  exit 0
fi
echo "torch-venv: could not install torch==$version from PyPI (above); doctor.fr_trace_live will skip" >&2
rm -rf "$venv"
exit 1
