"""The exported recipe trained by two CPU processes, with the command its README gives for the playground's
`num_processes`: TRL's own GRPO script under `accelerate launch`, gloo between the ranks."""

import json
import subprocess
import sys
import time

import pytest
import torch

from playground.export import export_recipe
from playground.export.recipe import CPU_FLAGS
from playground.training.launcher import free_port, launch_env
from playground.training.rank import state_digest
from tests.conftest import stop_group
from tests.export.conftest import tiny_spec


pytestmark = pytest.mark.multiproc  # two training processes under accelerate launch


# TRL's script ends with `trainer.end()` after it saved and printed "Model saved", and a rank can hang there in gloo's
# teardown (docs/scale-out.md): what the test reads is written by then, so a few seconds for a clean exit, then the
# process group is killed.
EXIT_GRACE = 3


def test_the_recipe_trains_with_two_processes_as_its_readme_says(tmp_path, tiny_model_dir):
    from peft import PeftModel, get_peft_model_state_dict
    from safetensors.torch import load_file
    from transformers import AutoModelForCausalLM

    # 2 completions per process and groups of 4: only a 2-process world can take this batch.
    spec = tiny_spec(tiny_model_dir, num_processes=2, per_device_train_batch_size=2, device="cpu")
    folder = export_recipe(spec, tmp_path / "recipe")
    recipe = (folder / "recipe.yaml").read_text()
    assert "# Global batch with the 2 processes the playground used: 4 completions per step = 2 per process" in recipe
    readme = (folder / "README.md").read_text()
    command = f"accelerate launch --multi_gpu --num_processes 2 -m trl.scripts.grpo --config recipe.yaml {CPU_FLAGS}"
    assert command in readme

    args = command.split()[2:]
    log = tmp_path / "launch.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "accelerate.commands.launch", "--main_process_port", str(free_port()), *args],
            cwd=folder,
            env={**launch_env(2), "HF_HUB_OFFLINE": "1"},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    output = folder / "output"
    saved_at = None
    deadline = time.monotonic() + 400
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            if (
                saved_at is None
                and (output / "adapter_model.safetensors").is_file()
                and "Model saved" in log.read_text()
            ):
                saved_at = time.monotonic()
            if saved_at is not None and time.monotonic() - saved_at > EXIT_GRACE:
                break  # the teardown hang (README, "Export and scale-out"): the group is killed below
            time.sleep(0.25)
    finally:
        stop_group(proc)  # the launcher and both ranks, also when the launcher exited first or the wait ran out
    text = log.read_text()
    assert saved_at is not None or proc.returncode == 0, text[-3000:]
    assert "Model saved to output" in text, text[-3000:]

    used = torch.load(output / "training_args.bin", weights_only=False)
    # TRL's generation batch is per-device batch × world size × steps_per_generation: the world had 2 processes.
    assert (used.per_device_train_batch_size, used.generation_batch_size, used.num_generations) == (2, 4, 4)
    state = json.loads((output / "checkpoint-2" / "trainer_state.json").read_text())
    assert [row["step"] for row in state["log_history"] if "reward" in row] == [1, 2]

    final = load_file(output / "adapter_model.safetensors")
    assert state_digest(final) == state_digest(load_file(output / "checkpoint-2" / "adapter_model.safetensors"))
    base = AutoModelForCausalLM.from_pretrained(tiny_model_dir)
    loaded = get_peft_model_state_dict(PeftModel.from_pretrained(base, output))
    assert state_digest(loaded) == state_digest(final)
    assert any(t.abs().sum() > 0 for name, t in loaded.items() if "lora_B" in name)
