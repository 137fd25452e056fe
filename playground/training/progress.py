"""Progress of a run, shared by the thread job and the accelerate backend."""


def eta_seconds(elapsed: float, step: int, total: int, since_step: float) -> float | None:
    """Time left: the mean time of the finished steps times the steps left, less the time since the latest step
    ended (so it counts down within a step instead of growing with it); None before the first step."""
    if not step:
        return None
    per_step = (elapsed - since_step) / step
    return max(0.0, per_step * (total - step) - since_step)
