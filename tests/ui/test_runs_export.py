"""The Runs tab exports a run as a standalone Python script as well as a trl recipe (the recipe's refusals point
there)."""

import zipfile

from gradio_client import Client

from playground.scoring import RewardChoice
from playground.spec import RunSpec


def test_a_run_downloads_as_a_script_with_its_data(app):
    spec = RunSpec()
    spec.model.model_name_or_path = str(app.ctx.settings.model)
    spec.set("completion_prefix", "<intro>")
    spec.rewards = [RewardChoice("length", 1.0, {"ideal_length": 5})]
    run = app.ctx.store.create(spec.to_dict())
    run.write_status(status="stopped")  # a run folder as a stopped run leaves it
    c = Client(app.url, verbose=False, download_files=False)
    zipped = c.predict(run.id, api_name="/download_script")
    path = zipped["path"] if isinstance(zipped, dict) else zipped
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        script = next(z.read(n).decode() for n in names if n.endswith("train_grpo.py"))
    assert any(n.endswith("prompts.jsonl") or n.endswith(".jsonl") for n in names), names
    assert "GRPOTrainer" in script and "<intro>" in script  # the completion prefix comes with it
    assert path.endswith(f"{run.id}-script.zip")
    app.ctx.store.delete(run.id)
