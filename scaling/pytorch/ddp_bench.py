# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
"""PyTorch DDP counterpart of `preflight scale` (same MLP, per-rank batch, MSE loss, SGD with momentum or Adam).

Run with: /usr/bin/python3 -m torch.distributed.run --standalone --nproc_per_node N ddp_bench.py [--steps ...]
(gloo on CPU; `--device cuda`: NCCL, one GPU per local rank, as ci/gpu_validate.sh runs it beside
`preflight scale --device cuda`). `preflight scale --framework pytorch` runs it once per world size. Rank 0 prints ONE line
starting with `PF_DDP_RESULT ` followed by a JSON object with the fields of a `preflight scale` row (times in
microseconds, docs/scale.md), which the C++ side parses; everything else on stdout is ignored.

What is measured, and how it maps onto the native row:
  step_us_p50/p90  per timed step (zero_grad + forward + backward + optimizer), the slowest rank's time
  throughput       global samples per second of each repetition's timed steps (wall clock, slowest rank)
  compute_us       forward + backward of a plain (non-DDP) copy of the module on the same per-rank batch,
                   measured after the timed repetitions while every rank does the same (no communication)
  exposed_comm_us  median DDP forward + backward minus compute_us (the all-reduce DDP could not hide)
  comm_us          median of a standalone dist.all_reduce of all gradient bytes (0 at one rank); DDP's own
                   bucket timings are not observable without the profiler
  ranks_identical  max and min of every rank's parameter checksum agree
  equal_to_single_rank  rank 0 retrains a single-process copy on the whole global batch (it regenerates every
                   rank's shard) for the same steps; max |parameter difference| <= 1e-4
"""
import argparse, copy, json, os, time

import torch
import torch.distributed as dist
import torch.nn as nn


DEVICE = torch.device("cpu")  # --device cuda: this rank's GPU (main)


def build(a):
    torch.manual_seed(a.seed)
    dims = [a.input] + [a.width] * (a.depth - 1) + [a.output]
    layers = []
    for i in range(a.depth):
        layers.append(nn.Linear(dims[i], dims[i + 1]))
        if i != a.depth - 1:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


def optimizer(a, params):
    if a.optimizer == "adam":
        return torch.optim.Adam(params, lr=a.lr)
    return torch.optim.SGD(params, lr=a.lr, momentum=0.9)


def shard(a, rank):
    # Rank r's fixed batch; rank 0 can regenerate any rank's shard for the single-rank reference. Made on the CPU
    # (the same numbers on every device), then moved.
    gen = torch.Generator().manual_seed(a.seed + 1 + rank)
    x = torch.rand(a.batch, a.input, generator=gen) * 2 - 1
    return x.to(DEVICE), torch.sin(x[:, : a.output] * 3).to(DEVICE)


def step(model, opt, x, y):
    opt.zero_grad(set_to_none=False)
    nn.functional.mse_loss(model(x), y).backward()
    opt.step()


def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * (len(v) - 1) + 0.5))] if v else 0.0


def sync():
    # CUDA work is asynchronous: a clock read must wait for it, or it times the launches.
    if DEVICE.type == "cuda":
        torch.cuda.synchronize()


def allmax(v):
    t = torch.tensor([float(v)], dtype=torch.float64, device=DEVICE)
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    return t.item()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--input", type=int, default=256)
    p.add_argument("--width", type=int, default=512)
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--output", type=int, default=16)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--bucket-cap-mb", type=float, default=25)
    p.add_argument("--optimizer", choices=["sgd", "adam"], default="sgd")
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--tolerance", type=float, default=1e-4)
    p.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    a = p.parse_args()
    global DEVICE
    if a.device == "cuda":
        local = int(os.environ.get("LOCAL_RANK", "0"))
        torch.cuda.set_device(local)
        DEVICE = torch.device("cuda", local)
    dist.init_process_group("nccl" if a.device == "cuda" else "gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    plain = build(a).to(DEVICE)
    reference = copy.deepcopy(plain)  # untouched initial parameters for the single-rank replica
    ids = [DEVICE.index] if DEVICE.type == "cuda" else None
    model = nn.parallel.DistributedDataParallel(plain, device_ids=ids, bucket_cap_mb=a.bucket_cap_mb)
    opt = optimizer(a, model.parameters())
    x, y = shard(a, rank)
    thr, steps_us, fb_us = [], [], []
    for _ in range(a.reps):
        for _ in range(a.warmup):
            step(model, opt, x, y)
        sync()
        dist.barrier()
        t0 = time.perf_counter()
        for _ in range(a.steps):
            s0 = time.perf_counter()
            opt.zero_grad(set_to_none=False)
            nn.functional.mse_loss(model(x), y).backward()  # DDP: returns once every bucket is reduced
            sync()
            s1 = time.perf_counter()
            opt.step()
            sync()
            s2 = time.perf_counter()
            steps_us.append(allmax((s2 - s0) * 1e6))  # a step is as slow as its slowest rank
            fb_us.append((s1 - s0) * 1e6)
        wall = allmax(time.perf_counter() - t0)
        thr.append(a.batch * world * a.steps / wall)

    # Pure compute on a plain copy (no hooks, no communication), all ranks at once as in the timed steps.
    probe = copy.deepcopy(model.module)
    comp_us = []
    for _ in range(a.warmup + a.steps):
        s0 = time.perf_counter()
        probe.zero_grad(set_to_none=False)
        nn.functional.mse_loss(probe(x), y).backward()
        sync()
        comp_us.append((time.perf_counter() - s0) * 1e6)
    comp_us = comp_us[a.warmup:]
    compute = allmax(pct(comp_us, 0.5))
    # Standalone all-reduce of every gradient byte, for comm_us.
    comm = 0.0
    if world > 1:
        flat = torch.zeros(sum(q.numel() for q in model.parameters()), device=DEVICE)
        ar = []
        for _ in range(a.warmup + a.steps):
            dist.barrier()
            s0 = time.perf_counter()
            dist.all_reduce(flat)
            sync()
            ar.append(allmax((time.perf_counter() - s0) * 1e6))
        comm = pct(ar[a.warmup:], 0.5)
    # Every rank must hold the same parameters.
    with torch.no_grad():
        checksum = sum(float(q.double().sum()) + float((q.double() * 1e-3).square().sum()) for q in model.parameters())
    identical = allmax(checksum) == -allmax(-checksum)

    if rank == 0:
        xs, ys = zip(*(shard(a, r) for r in range(world)))
        gx, gy = torch.cat(xs), torch.cat(ys)
        ropt = optimizer(a, reference.parameters())
        for _ in range(a.reps * (a.warmup + a.steps)):
            step(reference, ropt, gx, gy)
        diff = max(float((q - r).abs().max()) for q, r in zip(model.module.parameters(), reference.parameters()))
        fb = pct(fb_us, 0.5)
        print("PF_DDP_RESULT " + json.dumps({
            "framework": "pytorch", "torch": torch.__version__, "ranks": world,
            "batch_per_rank": a.batch, "global_batch": a.batch * world, "reps": a.reps, "steps": a.steps,
            "throughput_reps_sps": thr,
            "step_us_p50": pct(steps_us, 0.5), "step_us_p90": pct(steps_us, 0.9), "step_us_samples": steps_us,
            "compute_us": compute, "comm_us": comm, "exposed_comm_us": max(0.0, fb - compute) if world > 1 else 0.0,
            "checksum": checksum, "ranks_identical": identical,
            "max_param_diff_vs_single_rank": diff, "equal_to_single_rank": diff <= a.tolerance,
            "torch_threads": torch.get_num_threads()}), flush=True)
    dist.barrier()
    dist.destroy_process_group()
    os._exit(0)  # avoids the gloo exit hang seen with 2 ranks (docs/scale.md)


if __name__ == "__main__":
    main()
