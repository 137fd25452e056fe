"""The Runs tab exports a run as a standalone Python script as well as a trl recipe (the recipe's refusals point
there)."""

import zipfile

import gradio as gr
import httpx

from playground.scoring import RewardChoice
from playground.spec import RunSpec
from tests.support.queue_client import app_client


def test_a_run_downloads_as_a_script_with_its_data(app):
    spec = RunSpec()
    spec.model.model_name_or_path = str(app.ctx.settings.model)
    spec.set("completion_prefix", "<intro>")
    spec.rewards = [RewardChoice("length", 1.0, {"ideal_length": 5})]
    run = app.ctx.store.create(spec.to_dict())
    run.write_status(status="stopped")  # a run folder as a stopped run leaves it
    c = app_client(app.url)
    zipped = c.predict(run.id, api_name="/download_script")
    path = zipped["path"] if isinstance(zipped, dict) else zipped
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        script = next(z.read(n).decode() for n in names if n.endswith("train_grpo.py"))
    assert any(n.endswith("prompts.jsonl") or n.endswith(".jsonl") for n in names), names
    assert "GRPOTrainer" in script and "<intro>" in script  # the completion prefix comes with it
    assert path.endswith(f"{run.id}-script.zip")
    app.ctx.store.delete(run.id)


def test_a_shown_run_keeps_its_own_downloads_and_hides_another_runs():
    from playground.ui.runs_tab import keep_downloads_of

    kept = keep_downloads_of("r1", "/tmp/a/r1-adapter.zip", "/tmp/b/r0-recipe.zip", None)
    assert kept[0] == gr.skip() and kept[2] == gr.skip()  # the picked run's own zip stays, an empty box too
    assert (kept[1].value, kept[1].visible) == (None, False)  # another run's goes
    assert isinstance(keep_downloads_of(None, "/tmp/a/r1-adapter.zip", None, None)[0], gr.File)


def test_showing_a_run_never_empties_a_download_made_while_it_was_drawn(app):
    """A download clicked while the picked run's view was still being drawn (a slow machine) must reach the browser:
    the view's answer leaves the file boxes alone, and only the quick step after it hides another run's downloads."""
    config = httpx.get(app.url + "config", timeout=30).json()
    types = {c["id"]: c["type"] for c in config["components"]}
    dependencies = config["dependencies"]
    show = next(dep for dep in dependencies if dep.get("api_name") == "show_run")
    pick = [dep for dep in dependencies if dep["outputs"] == show["outputs"] and dep is not show]  # the picker's
    assert len(pick) == 1
    for dep in [show, *pick]:
        assert "file" not in {types[i] for i in dep["outputs"]}
        after = [d for d in dependencies if d.get("trigger_after") == dep["id"]]
        assert [sorted(types[i] for i in d["outputs"]) for d in after] == [["file"] * 3]
    # What the browser saves is read from a box that only the download itself writes.
    for name in ("download_adapter", "download_recipe", "download_script"):
        made = next(dep for dep in dependencies if dep.get("api_name") == name)
        (saved,) = made["outputs"]
        save = next(d for d in dependencies if d.get("trigger_after") == made["id"] and d.get("js"))
        assert save["inputs"] == [saved]
        assert [dep for dep in dependencies if saved in dep["outputs"]] == [made]
