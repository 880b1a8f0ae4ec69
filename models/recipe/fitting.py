"""What the three training recipes share: drawing data in worker processes, the optimising loop of
the two segmentation nets, and the ONNX export (torch only inside the functions: training only)."""
from __future__ import annotations

import multiprocessing as mp
import time
from pathlib import Path
from typing import Callable


def pool_map(fn, args, workers):
    """fn over args (tuples are spread as arguments), in `workers` forked processes when worth it."""
    if workers <= 1 or len(args) < 4:
        return [fn(*a) if isinstance(a, tuple) else fn(a) for a in args]
    with mp.get_context("fork").Pool(workers) as pool:
        if isinstance(args[0], tuple):
            return pool.starmap(fn, args, chunksize=4)
        return pool.map(fn, args, chunksize=4)


def fit_steps(net, steps: int, lr: float, next_batch: Callable, loss_of: Callable, log, what: str,
              started: float, pct_start: float = 0.1) -> None:
    """`steps` AdamW steps on a one-cycle schedule: `next_batch()` gives (x, y) tensors,
    `loss_of(logits, y)` the loss; a running loss is logged every 100 steps."""
    import torch

    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(steps, 1), pct_start=pct_start)
    running = None
    for step in range(steps):
        net.train()
        x, y = next_batch()
        loss = loss_of(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        running = loss.item() if running is None else 0.98 * running + 0.02 * loss.item()
        if (step + 1) % 100 == 0 or step + 1 == steps:
            log(f"{what} step {step + 1}/{steps}: loss {running:.4f} ({time.time() - started:.0f} s)")
    net.eval()


def export(net, example, path: Path, axes, input_name, output_names: str | tuple[str, ...]) -> None:
    """Write `net` to ONNX; a net whose forward returns a tuple names each output."""
    import torch

    output_names = (output_names,) if isinstance(output_names, str) else tuple(output_names)

    path.parent.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        torch.onnx.export(net, (example,), str(path), input_names=[input_name], output_names=list(output_names),
                          dynamic_axes=axes, opset_version=17, dynamo=False)
