# shellcheck shell=bash disable=SC2154  # b, root, work: set by unpack (ci/gpu_validate.sh)
# SPDX-License-Identifier: Apache-2.0
# `ci/gpu_validate.sh run`: sourced by ci/gpu_validate.sh (which defines here, die, unpack, bundle_complete,
# find_gpu_libraries and report_dir). It must finish inside one device-tool call (570 s on a one-GPU H100/H200):
#
#  - a total budget (GPU_VALIDATE_BUDGET, default 540 s from the start, the archive included) and a short limit
#    per step (60-90 s for mpirun steps); before each step the budget is checked, a step that would not fit is cut
#    to what is left, and once under 5 s are left the rest are reported "not run: budget";
#  - every step runs in its own session under `timeout`; what it leaves behind (an mpirun's ranks) is killed with
#    its session, so one stall costs its own limit and nothing else. The risky steps (two ranks on the one GPU,
#    NCCL over sockets) come last;
#  - each step runs in its own folder under the report's folder, which keeps its full output (output.txt) and
#    every document it writes (--json, --gtest_output); the report (REPORT.md: each command, the end of its output,
#    its exit code and time) and those folders are packed into ONE archive, DATE-DEVICE.tar.gz in REPORT_DIR
#    (default $OUT, so the device tool brings it back; it brings back at most 8 files), with the report beside it
#    as DATE-DEVICE.md. The archive is written on every way out, a kill by the device tool's limit included.
#
# Steps are one line each in validation_steps below: `step ID LIMIT "what it shows" COMMAND...` (ID names its
# folder). A COMMAND may be a function of these scripts; it runs in the step's folder.
#
# Test only: GPU_VALIDATE_STANDIN=DIR puts DIR first on PATH and takes the node as having a GPU, so that the
# stand-in programs of tests/package/gpu_validate_standin.sh (nvidia-smi, mpirun, compute-sanitizer, and a bundle
# made of stand-ins) can show that the budget holds and the archive comes back (tests/package/
# gpu_validate_dry_run_test.sh). GPU_VALIDATE_LIMIT_MAX caps every step's limit (seconds), to shorten that test.

budget=${GPU_VALIDATE_BUDGET:-540}
reserve=10  # seconds kept for packing the archive
report=""
failures=0
skipped=0
note() { echo "$*" | tee -a "$report"; }

# step ID LIMIT NAME COMMAND...: runs COMMAND in $data/ID under a limit cut to the budget; keeps its output in the
# folder and the end of it in the report, and counts a failure (a skipped gtest counts too: a node with a GPU
# must run every test).
step() {
  local id=$1 limit=$2 name=$3
  shift 3
  local left=$((budget - reserve - SECONDS))
  ((limit > ${GPU_VALIDATE_LIMIT_MAX:-limit})) && limit=$GPU_VALIDATE_LIMIT_MAX
  note ""
  note "### $name"
  note ""
  if ((left < 5)); then
    note "not run: budget ($SECONDS s of $budget s used)"
    skipped=$((skipped + 1))
    return
  fi
  ((limit > left)) && limit=$left
  local dir=$data/$id
  mkdir -p "$dir"
  note '```'
  note "\$ $*"
  local t0=$SECONDS rc
  # In its own session (setsid), so that whatever it starts can be ended with it; functions through bash.
  # shellcheck disable=SC2163  # a function's name
  [[ $(type -t "$1") == function ]] && export -f "$1"
  (cd "$dir" && PF_VALIDATE_STEP=$id setsid -w bash -c 'echo $$ >../.'"$id"'.sid; exec timeout -k 5 "$@"' \
    step "$limit" bash -c '"$@"' _ "$@") >"$dir/output.txt" 2>&1
  rc=$?
  local sid
  sid=$(cat "$data/.$id.sid" 2>/dev/null) && rm -f "$data/.$id.sid"
  # The step's leftovers (ranks an mpirun left behind): its session, or at least its process group.
  [[ -n $sid ]] && { pkill -KILL -s "$sid" 2>/dev/null || kill -KILL -- "-$sid" 2>/dev/null; }
  tail -n "${TAIL_LINES:-40}" "$dir/output.txt" | tee -a "$report"
  note "(exit $rc, $((SECONDS - t0)) s of $limit s)"
  note '```'
  if ((rc == 124 || rc == 137)); then
    note "FAILED: stopped at its limit ($limit s); full output in $id/output.txt"
    failures=$((failures + 1))
  elif grep -q '\[  SKIPPED \]' "$dir/output.txt"; then
    note "FAILED: a test skipped on a node with a GPU"
    failures=$((failures + 1))
  elif ((rc != 0)); then
    note "FAILED: exit $rc"
    failures=$((failures + 1))
  fi
}

# The pair protocol's NCCL figure against the same bytes through the NCCL sweep's sendrecv (issue 49, defect 4):
# two ranks on the one GPU, each in its own UTS namespace with its own host name (so `pairs` takes them for two
# nodes; needs root) and its own NCCL_HOSTID, then sendrecv at the pair's message size. Fails when the pair's
# figure is off the sweep's algbw by more than PAIR_SWEEP_TOLERANCE (default 0.25).
pair_vs_sweep() {
  local pf=$1 hostid=$2 size=4194304
  mpirun -np 2 --oversubscribe bash -c "exec unshare --uts bash -c 'hostname pf-pair-\$OMPI_COMM_WORLD_RANK &&
    $hostid exec $pf pairs --engine nccl -s $size --json pairs.json'" || return
  mpirun -np 2 --oversubscribe bash -c "$hostid exec '$pf' sweep sendrecv --backend nccl -d int8 -b $size \
    -e $size -n 20 --json sendrecv.json" || return
  python3 - "${PAIR_SWEEP_TOLERANCE:-0.25}" <<'PY'
import json, sys
def rows(doc):  # every object in the document that looks like a row
    if isinstance(doc, dict):
        yield doc
        for v in doc.values(): yield from rows(v)
    elif isinstance(doc, list):
        for v in doc: yield from rows(v)
tol = float(sys.argv[1])
pair = [r for r in rows(json.load(open("pairs.json"))) if "bw_a_to_b_gbps" in r]
sweep = [r for r in rows(json.load(open("sendrecv.json"))) if r.get("placement") == "out" and "algbw_gbps" in r]
if not pair or not sweep: sys.exit("no pair row in pairs.json or no out-of-place row in sendrecv.json")
figure, ref = max(pair[0]["bw_a_to_b_gbps"], pair[0]["bw_b_to_a_gbps"]), sweep[-1]["algbw_gbps"]
print(f"pair {figure:.3f} GB/s, sendrecv algbw {ref:.3f} GB/s, ratio {figure / ref:.3f} (tolerance {tol})")
sys.exit(0 if abs(figure / ref - 1) <= tol else 1)
PY
}

# NCCL's start-up diagnostics on a 1-rank communicator, saved and read by check's parser (NcclDiagLive). An NCCL
# older than 2.31, which has no such report, is recorded as absent, not failed.
nccl_diag() {
  local pf=$1 test=$2 code
  NCCL_RUN_DIAGNOSTICS=1 NCCL_RUN_RAS_DIAGNOSTICS=1 "$pf" sweep all_reduce --backend nccl -d float -o sum -b 8 -e 8 \
    -n 1 --json sweep.json >nccl-diag.txt || return
  code=$(grep -o '"nccl_version_code": *[0-9]*' sweep.json | grep -o '[0-9]*$')
  if [[ -n $code ]] && ((code < 23100)) && ! grep -q 'NCCL DIAG' nccl-diag.txt; then
    echo "absent: NCCL $((code / 10000)).$((code / 100 % 100)).$((code % 100)) prints no DIAG report (2.31 added it)"
    return 0
  fi
  PF_NCCL_DIAG_LOG=nccl-diag.txt "$test" --gtest_filter='NcclDiagLive.*'
}

# The steps, in order: the cheap and safe first, the risky last (two ranks on one GPU, NCCL over sockets).
validation_steps() {
  step version 20 "preflight --version (the bundle's runtime loads)" "$pf" --version
  step libraries 30 "every library from the bundle, glibc or the GPU machine's CUDA" bundle_complete "$root" "$pf" \
    "$PREFLIGHT_GPU_MODULE" "$b/build/tests/unit/scaling/pf_scaling_cuda_test"
  step mpi-sweep 60 "the bundle's Open MPI: 2 ranks, MPI backend" mpirun -np 2 --oversubscribe "$pf" sweep \
    all_reduce -b 8 -e 64K -f 8 -n 5 --json sweep.json
  if [[ $gpu == no ]]; then
    note ""
    note "No NVIDIA GPU on this node (no /dev/nvidia<N>): every GPU step below is absent, not run."
    for s in nvidia-smi ldd "GPU tests" "collectives, 1 rank" "scale --device cuda and PyTorch DDP" probe \
      "NCCL DIAG" compute-sanitizer "collectives, 2 ranks on one GPU" "pair against sendrecv"; do
      note "- $s: absent (no GPU)"
    done
    return
  fi
  step nvidia-smi 20 nvidia-smi nvidia-smi
  step driver 10 "the kernel module's banner, read by the gpu probe" bash -c 'cat /proc/driver/nvidia/version ||
    echo "no /proc/driver/nvidia/version here: the gpu probe goes by the bound driver and CUDA"'
  step ldd 20 ldd bash -c "ldd '$pf' '$PREFLIGHT_GPU_MODULE' | grep -E 'cuda|nccl|not found' || true"
  local t
  for t in probes/probes_gpu_live_test scaling/pf_scaling_cuda_test collectives/pf_nccl_calls_test \
    check/pf_nccl_pair_engine_test; do
    # NcclDiagLive reads a saved NCCL DIAG report: the nccl-diag step below makes one and runs it.
    step "test-${t##*/}" 90 "GPU test ${t##*/}" "$b/build/tests/unit/$t" --gtest_filter='-NcclDiagLive.*' \
      --gtest_output=json:tests.json
  done
  local c
  for c in all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv; do
    step "$c-1" 60 "$c, NCCL, 1 rank" "$pf" sweep "$c" --backend nccl -d all -o all -b 8 -e 4M -f 8 -n 5 \
      --json sweep.json
  done
  step scale-1 60 "scale --device cuda, 1 rank" "$pf" scale --device cuda --ranks 1 --steps 10 --json scale.json
  step scale-torch 90 "PyTorch DDP on the GPU (the bundled ddp_bench.py), 1 rank" "$pf" scale --framework pytorch \
    --device cuda --ranks 1 --steps 10 --json scale.json
  step probe 45 "probe gpu,p2p on the live node" "$pf" probe --only gpu,p2p --json probe.json
  # NCCL's own diagnostics (2.31 and later) on a 1-rank communicator: its report, read by check's parser.
  step nccl-diag 60 "NCCL DIAG report, read by check/nccl_diag.cpp" nccl_diag "$pf" \
    "$b/build/tests/unit/check/pf_nccl_pair_engine_test"
  # memcheck on the CUDA trainer and the copy paths only. The trainer's NCCL and cuBLAS probe symbols through
  # API calls that fail harmlessly, which memcheck would count as errors (NVIDIA/nccl#727): not reported there.
  step sanitizer-trainer 150 "compute-sanitizer on the CUDA trainer (NCCL: --report-api-errors no)" \
    compute-sanitizer --tool memcheck --error-exitcode 1 --report-api-errors no \
    "$b/build/tests/unit/scaling/pf_scaling_cuda_test" --gtest_output=json:tests.json
  step sanitizer-copies 90 "compute-sanitizer on the p2p probe's copies" compute-sanitizer --tool memcheck \
    --error-exitcode 1 "$b/build/tests/unit/probes/probes_gpu_live_test" --gtest_filter='GpuLive.P2p*' \
    --gtest_output=json:tests.json
  # Risky, last: two ranks on the one GPU, each its own NCCL_HOSTID, so NCCL takes them for two hosts and talks
  # over sockets (issue 15, item 4: whether NCCL accepts that is what the run finds out).
  local hostid='NCCL_HOSTID=validate-$OMPI_COMM_WORLD_RANK NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1'
  for c in all_reduce alltoall sendrecv; do
    step "$c-2" 75 "$c, NCCL, 2 ranks sharing the GPU" mpirun -np 2 --oversubscribe bash -c \
      "$hostid exec '$pf' sweep $c --backend nccl -d float -o all -b 8 -e 1M -f 16 -n 5 --json sweep.json"
  done
  step scale-2 90 "scale --device cuda, 2 ranks sharing the GPU" mpirun -np 2 --oversubscribe bash -c \
    "$hostid exec '$pf' scale --device cuda --ranks 1,2 --steps 10 --json scale.json"
  step pair-vs-sweep 150 "pairs --engine nccl against sweep sendrecv, same bytes, 2 ranks as 2 hosts" \
    pair_vs_sweep "$pf" "$hostid"
}

# Packs the report and every step's folder into one archive beside the report's copy; once, on any way out.
pack_report() {
  [[ -n $report && -d $data && ! -e $archive ]] || return 0
  note ""
  note "Steps failed: $failures; not run for the budget: $skipped; $SECONDS s of $budget s."
  cp "$report" "$dir/$stem.md"
  tar -C "$(dirname "$data")" -czf "$archive" "$(basename "$data")" && echo "gpu_validate: archive $archive"
  echo "gpu_validate: report $dir/$stem.md"
}

run() {
  local bundle=${1:-$here/.gpu-bundle/preflight-gpu-bundle.tar.gz}
  unpack "$bundle"
  pf=$b/build/bin/preflight gpu=no
  local device="no GPU" day
  day=$(date -u +%Y-%m-%d)
  compgen -G "/dev/nvidia[0-9]*" >/dev/null && gpu=yes
  if [[ -n ${GPU_VALIDATE_STANDIN:-} ]]; then  # test only (see the top)
    export PATH=$GPU_VALIDATE_STANDIN:$PATH
    gpu=yes
  fi
  [[ $gpu == yes ]] && device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
  dir=$(report_dir) || exit 2
  stem=$day-$(tr -c 'A-Za-z0-9\n' '-' <<<"${device:-gpu}" | tr -s '-' | sed 's/-$//')
  data=$work/$stem archive=$dir/$stem.tar.gz
  rm -f "$archive"
  mkdir -p "$data"
  report=$data/REPORT.md
  trap 'pack_report; rm -rf "$work"' EXIT
  trap 'exit 143' TERM INT  # the EXIT trap packs what was measured so far
  : >"$report"
  note "# GPU validation, $day: ${device:-unknown device}"
  note ""
  note "Bundle: $(basename "$bundle") of commit $(cat "$b/commit"), made by \`ci/gpu_validate.sh pack\`; run by"
  note "\`ci/gpu_validate.sh run\` on $(hostname) ($(uname -r)), budget $budget s. Full outputs and documents: $stem.tar.gz."
  if [[ $gpu == yes ]]; then
    export PATH=$PATH:/usr/local/cuda/bin  # compute-sanitizer
    find_gpu_libraries
  fi
  validation_steps
  return $((failures > 0))
}
