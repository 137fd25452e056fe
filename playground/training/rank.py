"""One process of a run launched by `playground.training.launcher` (`accelerate launch -m playground.training.rank`).

Every rank builds the thread job's own trainer from the run's `spec.json` (`TrainingJob._build_trainer`: the same
rewards, sandbox, GRPOConfig and LoRA), so the two backends share one source of truth. Only rank 0 writes the run
folder, through the thread job's `PlaygroundCallback`; the others see the folder through a `FollowerRun` that reads
but never writes. Stop is agreed by all ranks at the same step (`AgreedStop`), so no rank waits forever in a collective
for one that already left. At the end each rank reports its pid, its steps and a digest of its LoRA weights; rank 0
writes them into status.json (`processes`), which is how a reader can check that every rank trained the same adapter.
"""

from __future__ import annotations

import hashlib
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path

from transformers import TrainerCallback

import playground
from playground.spec import RunSpec
from playground.training.job import TrainingJob
from playground.training.launcher import STOP_FILE
from playground.training.store import Run


logger = logging.getLogger(__name__)


class FollowerRun(Run):
    """The run folder as a rank other than 0 sees it: it reads like a `Run` and writes nothing (rank 0 writes)."""

    def write_status(self, **fields) -> dict:
        return self._read_status()

    def append_metrics(self, row: dict) -> None:
        pass

    def append_samples(self, rows: list[dict]) -> None:
        pass


class AgreedStop:
    """A stop request all ranks agree on, in place of the thread job's `threading.Event`.

    A rank asks with `set()` (on SIGINT) or rank 0 finds the run's stop file; `is_set()` reduces the flag over all
    ranks, so each rank must call it equally often, which the job does (once before training, once per step in
    `PlaygroundCallback.on_step_end`, once after). Once agreed it stays set and stops communicating.
    """

    def __init__(self, stop_file: Path, rank: int):
        self.stop_file = stop_file
        self.rank = rank
        self._asked = threading.Event()
        self._agreed = False

    def set(self) -> None:
        self._asked.set()

    def asked(self) -> bool:
        """Whether this rank was asked to stop (or, on rank 0, the stop file is there), without a collective."""
        return self._agreed or self._asked.is_set() or (self.rank == 0 and self.stop_file.exists())

    def is_set(self) -> bool:
        if self._agreed:
            return True
        wanted = self._asked.is_set() or (self.rank == 0 and self.stop_file.exists())
        self._agreed = _any_rank(wanted)
        return self._agreed


def _any_rank(flag: bool) -> bool:
    import torch
    import torch.distributed as dist

    if not (dist.is_available() and dist.is_initialized()):
        return flag
    device = torch.device("cuda", torch.cuda.current_device()) if dist.get_backend() == "nccl" else "cpu"
    value = torch.tensor([int(flag)], device=device)
    dist.all_reduce(value, op=dist.ReduceOp.MAX)
    return bool(value.item())


def lora_digest(model) -> str:
    """sha256 over the adapter's tensors (names sorted, fp32 bytes): equal digests, equal adapters."""
    from peft import get_peft_model_state_dict

    return state_digest(get_peft_model_state_dict(model))


def state_digest(state: dict) -> str:
    import torch

    digest = hashlib.sha256()
    for name in sorted(state):
        digest.update(name.encode())
        digest.update(state[name].detach().to("cpu", torch.float32).contiguous().numpy().tobytes())
    return digest.hexdigest()


class RanksCallback(TrainerCallback):
    """At the end of training every rank reports itself; rank 0 writes the list into status.json as `processes`."""

    def __init__(self, job: RankJob):
        self.job = job

    def on_train_end(self, args, state, control, model=None, **kwargs):
        import torch.distributed as dist

        mine = {
            "rank": self.job.rank,
            "pid": os.getpid(),
            "steps": state.global_step,
            "lora_sha256": lora_digest(model),
        }
        reports = [None] * self.job.world_size
        if dist.is_available() and dist.is_initialized():
            dist.all_gather_object(reports, mine)
        else:
            reports = [mine]
        self.job.run.write_status(processes=reports)


class RankJob(TrainingJob):
    """The thread job's flow (`_main`) run in the main thread of one rank."""

    def __init__(self, spec: RunSpec, run_dir: Path, rank: int, world_size: int):
        self.rank, self.world_size = rank, world_size
        run = Run(run_dir) if rank == 0 else FollowerRun(run_dir)
        owner = run.status().get("owner")
        super().__init__(spec, run, owner=owner)
        self.stop_requested = AgreedStop(run.path / STOP_FILE, rank)

    def save_adapter(self, model) -> None:
        """Under DDP every rank holds the same adapter: rank 0 writes it."""
        if self.rank == 0:
            super().save_adapter(model)

    def stop_asked(self) -> bool:
        return self.stop_requested.asked()

    def rollout_stop(self):
        """Ranks end a step together (their collectives would wait for a rank that left): Stop after the step."""
        return self.stop_asked if self.world_size == 1 else None

    def evaluate(self, model, step: int, eval_of: str) -> None:
        """The held-out eval samples without collectives: rank 0 alone runs it, the others go on to the next step."""
        if self.rank == 0:
            super().evaluate(model, step, eval_of)

    def _build_trainer(self):
        trainer = super()._build_trainer()
        trainer.add_callback(RanksCallback(self))
        state = trainer.accelerator.state
        kind = getattr(state.distributed_type, "value", str(state.distributed_type))
        logger.info("Rank %d: %s over %s on %s", self.rank, kind, state.backend, state.device)
        self.run.write_status(distributed_type=kind, backend=state.backend)
        return trainer

    def _set_status(self, status: str, **fields) -> None:
        super()._set_status(status, num_processes=self.world_size, **fields)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    run_dir = Path(argv[0])
    settings = playground.bootstrap()  # this rank's own process: `accelerate launch` set RANK and WORLD_SIZE
    rank, world_size = settings.rank, settings.world_size
    logging.basicConfig(
        level=logging.INFO if rank == 0 else logging.WARNING,
        format=f"[rank {rank}] %(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    _use_local_gpu(settings.local_rank)
    spec = RunSpec.from_dict(Run(run_dir).spec())
    job = RankJob(spec, run_dir, rank, world_size)
    signal.signal(signal.SIGINT, lambda *_: job.stop_requested.set())  # stop after this step, adapter saved
    job.started_at = time.time()
    logger.info("Rank %d of %d (pid %d) trains run %s", rank, world_size, os.getpid(), run_dir.name)
    job._main()
    return 1 if job.status == "failed" else 0


def _use_local_gpu(local_rank: int) -> None:
    """On GPUs, make "cuda" mean this rank's own device, where the job loads the model."""
    import torch

    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)


if __name__ == "__main__":
    sys.exit(main())
