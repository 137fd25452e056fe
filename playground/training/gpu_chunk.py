"""One chunk of a chunked run (`playground.training.chunks`), in the process that holds the GPU.

`ChunkedJob` names it by `"module:function"` for `playground.runtime.zerogpu.gpu_call`: on ZeroGPU it runs in a worker
process forked from the app, its arguments plain values.
"""

from __future__ import annotations

from playground.spec import RunSpec
from playground.training.job import TrainingJob
from playground.training.launcher import STOP_FILE
from playground.training.rank import AgreedStop
from playground.training.store import Run


def train_chunk(run_path: str, checkpoint: str | None, stop_at: int) -> dict:
    """One chunk, in the process that holds the GPU: the run's spec, continued from `checkpoint` (None: from the
    start) to step `stop_at`, checkpointed there. Returns {"status", "step", "error"}."""
    run = Run(run_path)
    spec = RunSpec.from_dict(run.spec())
    job = TrainingJob(spec, run, owner=run.status().get("owner"), resume_from=checkpoint, stop_at=stop_at)
    job.stop_requested = AgreedStop(run.path / STOP_FILE, rank=0)  # Stop reaches a forked GPU worker as a file
    job._main()
    return {"status": job.status, "step": job.step, "error": str(job.error) if job.error else None}
