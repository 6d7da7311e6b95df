#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# TEST ONLY: a stand-in for the programs `ci/gpu_validate.sh run` calls on a GPU machine, so that its dry run here
# (gpu_validate_dry_run_test.sh) can show the budget and the archive without a GPU. It measures nothing and its
# documents say so. What it does depends on the name it is called by:
#   mpirun ...                      skips mpirun's options and runs the command once, as rank 0 of 2
#   compute-sanitizer ...           skips the sanitizer's options and runs the program
#   nvidia-smi                      prints "stand-in GPU"
#   anything else (preflight, a GPU test program): sleeps GPU_VALIDATE_STANDIN_SECONDS (default 0.1), writes a
#   document for --json FILE and --gtest_output=json:FILE, and exits 0; the step named by PF_VALIDATE_STEP (set by
#   the script) hangs when listed in GPU_VALIDATE_STANDIN_STALL and exits 1 when listed in GPU_VALIDATE_STANDIN_FAIL
#   (comma-separated step ids).
set -u
listed() { [[ ,$1, == *,${PF_VALIDATE_STEP:-},* ]]; }
case $(basename "$0") in
  mpirun)
    while (($#)); do
      case $1 in
        -np | -n | --mca | --bind-to | -x) shift 2 ;;
        -*) shift ;;
        *) break ;;
      esac
    done
    OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 exec "$@" ;;
  compute-sanitizer)
    while [[ ${1:-} == -* ]]; do
      case $1 in
        --tool | --error-exitcode | --report-api-errors) shift 2 ;;
        *) shift ;;
      esac
    done
    exec "$@" ;;
  nvidia-smi)
    echo "stand-in GPU"
    exit 0 ;;
esac
if listed "${GPU_VALIDATE_STANDIN_STALL:-}"; then
  echo "stand-in: step $PF_VALIDATE_STEP hangs (planted stall)"
  exec sleep 100000
fi
sleep "${GPU_VALIDATE_STANDIN_SECONDS:-0.1}"
doc="{\"standin\": true, \"step\": \"${PF_VALIDATE_STEP:-}\", \"program\": \"$(basename "$0")\"}"
while (($#)); do
  case $1 in
    --json) echo "$doc" >"$2" && shift ;;
    --gtest_output=json:*) echo "$doc" >"${1#--gtest_output=json:}" ;;
  esac
  shift
done
echo "stand-in $(basename "$0") for step ${PF_VALIDATE_STEP:-}: nothing measured"
if listed "${GPU_VALIDATE_STANDIN_FAIL:-}"; then
  echo "stand-in: step $PF_VALIDATE_STEP fails (planted)"
  exit 1
fi
exit 0
