# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
"""PyTorch DDP counterpart of `preflight scale` (same MLP, per-rank batch, MSE loss, SGD with momentum).

Run with: /usr/bin/python3 -m torch.distributed.run --nproc_per_node N ddp_bench.py [--steps ...]
(gloo on CPU). Rank 0 prints one JSON object: step times per timed step in microseconds and samples/s.
"""
import argparse, json, os, time

import torch
import torch.distributed as dist
import torch.nn as nn


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
    a = p.parse_args()
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(1234)
    dims = [a.input] + [a.width] * (a.depth - 1) + [a.output]
    layers = []
    for i in range(a.depth):
        layers.append(nn.Linear(dims[i], dims[i + 1]))
        if i != a.depth - 1:
            layers.append(nn.ReLU())
    model = nn.parallel.DistributedDataParallel(nn.Sequential(*layers), bucket_cap_mb=a.bucket_cap_mb)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    gen = torch.Generator().manual_seed(rank)
    x = torch.rand(a.batch, a.input, generator=gen) * 2 - 1
    y = torch.sin(x[:, : a.output] * 3)
    thr, steps_us = [], []
    for _ in range(a.reps):
        for _ in range(a.warmup):
            opt.zero_grad(set_to_none=False)
            nn.functional.mse_loss(model(x), y).backward()
            opt.step()
        dist.barrier()
        t0 = time.perf_counter()
        for _ in range(a.steps):
            s0 = time.perf_counter()
            opt.zero_grad(set_to_none=False)
            nn.functional.mse_loss(model(x), y).backward()
            opt.step()
            steps_us.append((time.perf_counter() - s0) * 1e6)
        wall = torch.tensor([time.perf_counter() - t0])
        dist.all_reduce(wall, op=dist.ReduceOp.MAX)
        thr.append(a.batch * world * a.steps / wall.item())
    if rank == 0:
        steps_us.sort()
        print(json.dumps({"framework": "pytorch", "torch": torch.__version__, "ranks": world,
                          "batch_per_rank": a.batch, "throughput_reps_sps": thr,
                          "step_us_p50": steps_us[len(steps_us) // 2],
                          "blas": "see torch.__config__.show()"}), flush=True)
    dist.destroy_process_group()
    os._exit(0)  # avoids the gloo exit hang seen with 2 ranks (reference/this-machine.md)


if __name__ == "__main__":
    main()
