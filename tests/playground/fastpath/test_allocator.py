"""The training allocator settings keep freed memory in the process: reusing it costs no page faults."""

import resource

import pytest
import torch

from playground.fastpath import allocator
from playground.fastpath.allocator import training_allocator


glibc = pytest.mark.skipif(allocator._libc() is None, reason="needs glibc")


def faults_of_a_step(tensors: int = 20, megabytes: int = 10) -> int:
    """Page faults of allocating (and touching) what a training step holds at its peak, then freeing it all."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    held = [torch.ones(megabytes * 1024 * 1024 // 4) for _ in range(tensors)]
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    del held
    return faults


@pytest.mark.integration  # ctypes finds the C library through a subprocess (ldconfig)
@glibc
def test_memory_freed_inside_the_block_is_reused_without_page_faults():
    pages = 20 * 10 * 1024 * 1024 // resource.getpagesize()
    with training_allocator() as applied:
        assert applied is True
        faults_of_a_step()  # the first step faults its pages in
        # With glibc's defaults the freed 200 MB go back to the OS and the next step faults all of them in again
        # (measured: 100%); here it reuses them (0-35% here, where the kernel also reclaims idle pages).
        assert faults_of_a_step() < pages // 2


@pytest.mark.integration  # ctypes finds the C library through a subprocess (ldconfig)
@glibc
def test_blocks_nest_and_the_last_one_out_restores_the_defaults():
    with training_allocator():
        with training_allocator():
            assert allocator._depth == 2
        assert allocator._depth == 1
    assert allocator._depth == 0


def test_disabled_block_changes_nothing():
    with training_allocator(enabled=False) as applied:
        assert applied is False
        assert allocator._depth == 0
