"""Push to the Hub, for real through `HfApi` up to the network: offline it fails in one sentence, keeps the files, and
the token is nowhere but in memory."""

import logging
from pathlib import Path

import pytest
from huggingface_hub import ModelCard

from playground.errors import PlaygroundError
from playground.export.hub import describe_push_error, prepare_push, push_to_hub


TOKEN = "hf_playgroundTestToken0123456789abcdef"


def _files_containing(root: Path, secret: str) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]


def test_offline_push_keeps_the_files_and_never_the_token(trained_run, caplog, capsys, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    caplog.set_level(logging.DEBUG)
    with pytest.raises(PlaygroundError) as info:
        push_to_hub(trained_run, "alice/tiny-grpo", token=TOKEN)
    folder = trained_run.path / "export" / "hub-adapter"
    assert str(info.value) == (
        "The Hugging Face Hub cannot be reached in offline mode (HF_HUB_OFFLINE is set); nothing was uploaded, "
        f"and the files are kept in {folder}."
    )
    assert sorted(p.name for p in folder.iterdir()) == [
        "README.md",
        "adapter_config.json",
        "adapter_model.safetensors",
        "rewards",
        "rewards_module.py",
    ]
    assert ModelCard.load(folder / "README.md").data.library_name == "peft"
    captured = capsys.readouterr()
    assert TOKEN not in caplog.text and TOKEN not in captured.out and TOKEN not in captured.err
    assert _files_containing(trained_run.path, TOKEN) == []
    assert "Uploading" in caplog.text  # the log did run, without the token


def test_prepare_merged_push(trained_run, tmp_path):
    folder = prepare_push(trained_run, "alice/tiny-merged", "merged", folder=tmp_path / "hub")
    assert (folder / "model.safetensors").is_file() and (folder / "tokenizer.json").is_file()
    assert ModelCard.load(folder / "README.md").data.library_name == "transformers"
    assert "REWARD_FUNCS = [reward_length, reward_format]" in (folder / "rewards_module.py").read_text()


@pytest.mark.parametrize("repo_id", ["no-owner", "a/b/c", "alice/bad name"])
def test_bad_repo_id_fails_before_writing(trained_run, tmp_path, repo_id):
    with pytest.raises(PlaygroundError, match=f"Repo id '{repo_id}'"):
        prepare_push(trained_run, repo_id, folder=tmp_path / "hub")
    assert not (tmp_path / "hub").exists()


def test_hub_errors_become_one_sentence_without_the_token(tmp_path):
    import httpx2
    from huggingface_hub.errors import HfHubHTTPError

    request = httpx2.Request("POST", "https://huggingface.co/api/repos/create")

    def http(status):
        return HfHubHTTPError(f"{status} for token {TOKEN}", response=httpx2.Response(status, request=request))

    kept = f"nothing was uploaded, and the files are kept in {tmp_path}."
    assert describe_push_error(http(401), "a/b", tmp_path, TOKEN) == (
        f"The Hugging Face Hub refused the token (401 Unauthorized); {kept}"
    )
    assert describe_push_error(http(403), "a/b", tmp_path, TOKEN).startswith("The token may not write to a/b (403")
    assert describe_push_error(httpx2.ConnectError("Name or service not known"), "a/b", tmp_path) == (
        f"Could not reach the Hugging Face Hub (no network?); {kept}"
    )
    assert describe_push_error(RuntimeError(TOKEN), "a/b", tmp_path, TOKEN) == (
        f"Uploading to a/b failed (RuntimeError); {kept}"
    )
