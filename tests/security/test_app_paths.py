"""Public mode's one path rule against an attacker: a browser session reads only the files it uploaded, through every
field that takes a path (`dataset_name` of every kind, `sft_examples`, models and reward models), on the page's API
and over MCP; uploads count against a per-session quota; download zips live in folders of their own with
unguessable names. A real public app on 127.0.0.1 driven by gradio_client, and the real MCP client."""

import asyncio
import json
import os
import re
import tempfile

import pytest
from gradio_client import handle_file
from gradio_client.exceptions import AppError
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client

from playground.data.uploads import NOT_UPLOADED as NOT_UPLOADED_KEY
from playground.data.uploads import Uploads, plain_file
from playground.errors import DataError, PlaygroundError
from playground.texts import msg
from playground.validation import check_public_paths
from tests.ui.live_app import fresh_module_state
from tests.ui.test_client import TINY_RUN, client, form_kwargs


PROMPTS = '{"prompt": "the admin password is hunter2"}\n{"prompt": "Say bye."}\n'
NOT_A_HUB_ID = re.escape("is not a Hugging Face dataset id (org/name); folders of the server are not read")
NOT_UPLOADED = re.escape(str(msg(NOT_UPLOADED_KEY)))  # the English the visitor reads
NOT_A_MODEL = re.escape("the model must be the app's own or a Hugging Face Hub id (org/name)")
# A quota of 1 KB: two small prompt files fit, a third does not.
ENV = {"PLAYGROUND_PUBLIC": "1", "PLAYGROUND_UPLOAD_QUOTA_MB": str(1024 / 1024 / 1024)}


@pytest.fixture(scope="module")
def public_app(shared_public_app, tmp_path_factory):
    with fresh_module_state(shared_public_app, str(tmp_path_factory.mktemp("runs")), ENV) as live:
        yield live


@pytest.fixture
def victim_upload(public_app, tmp_path):
    """Bob uploads a prompt file through the page; returns his client and the path the server stored it at."""
    path = tmp_path / "bob.jsonl"
    path.write_text(PROMPTS)
    bob = client(public_app)
    kind, name = bob.predict(handle_file(str(path)), api_name="/upload_prompts")
    assert kind == "file" and os.path.isfile(name["value"])
    return bob, name["value"]


def refused(c, match: str, **fields) -> None:
    with pytest.raises(AppError, match=match):
        c.predict(**form_kwargs(c, **{**TINY_RUN, **fields}), api_name="/start_training")


def test_another_visitors_upload_is_refused_in_every_path_field(public_app, victim_upload, tmp_path):
    bob, stolen = victim_upload
    alice = client(public_app)
    refused(alice, NOT_UPLOADED, dataset_kind="file", dataset_name=stolen)
    refused(alice, "sft_examples: " + NOT_UPLOADED, sft_examples=stolen, sft_warmup_steps=1)
    refused(alice, NOT_A_HUB_ID, dataset_kind="hub", dataset_name=os.path.dirname(stolen))
    secret = tmp_path / "secret.jsonl"  # a server file that reads as prompts: only the rule stands in the way
    secret.write_text(PROMPTS)
    refused(alice, NOT_UPLOADED, dataset_kind="file", dataset_name=str(secret))
    assert public_app.ctx.jobs.current is None
    model = str(public_app.ctx.settings.model)
    for path in (stolen, str(secret)):  # the reward lab's dry run on the page takes a built-in set only
        with pytest.raises(AppError, match="Unknown built-in prompt set|not in the list of choices") as err:
            alice.predict(model, path, "", 2, 2, 8, 0, "group", "sum_then_normalize", api_name="/dry_run")
        assert "hunter2" not in str(err.value)
    # Bob's own upload passes the same rule (his browser's token, issued with the upload, uploaded it).
    ctx, spec = public_app.ctx, _spec(dataset_kind="file", dataset_name=stolen, sft_examples=stolen)
    (bobs,) = [owner for owner, record in ctx.uploads._records.items() if stolen in record.files]
    check_public_paths(spec, ctx.uploads, bobs, (ctx.settings.model,))
    with pytest.raises(PlaygroundError, match="prompt file must be uploaded"):
        ctx.check_spec(spec, ctx.tokens.issue())


def _spec(**fields):
    from playground.spec import RunSpec

    spec = RunSpec()
    for name, value in fields.items():
        spec.set(name, value)
    return spec


def test_a_hub_name_that_is_a_local_folder_is_refused(public_app, tmp_path, monkeypatch):
    """`datasets` reads a local folder named like `org/name` before the Hub: a folder of symlinks made next to the
    app would load another visitor's samples."""
    folder = tmp_path / "evil" / "set"
    folder.mkdir(parents=True)
    (folder / "train.jsonl").symlink_to(tmp_path / "anything.jsonl")
    monkeypatch.chdir(tmp_path)
    refused(client(public_app), NOT_A_HUB_ID, dataset_kind="hub", dataset_name="evil/set")


def test_model_folders_of_the_server_are_refused(public_app, tiny_model_dir, tmp_path):
    """Only the app's own model (here a local folder), the embedded one or a Hub id: a copy elsewhere is refused,
    for training, the preview, the lab's dry run and a reward model's parameter."""
    other = tmp_path / "copy"
    os.symlink(tiny_model_dir, other)
    c = client(public_app)
    refused(c, NOT_A_MODEL, model_name_or_path=str(other))
    with pytest.raises(AppError, match=NOT_A_MODEL):
        c.predict(model=str(other), num_generations=2, max_new_tokens=8, api_name="/generate_group")
    with pytest.raises(AppError, match=NOT_A_MODEL):
        c.predict(str(other), "arithmetic", "", 2, 2, 8, 0, "group", "sum_then_normalize", api_name="/dry_run")
    rewards = json.dumps([{"name": "reward_model", "weight": 1.0, "params": {"model": str(other)}}])
    with pytest.raises(AppError, match=NOT_A_MODEL):
        c.predict(["a", "b"], rewards, "", "", api_name="/score_completions")
    formula = {"expression": "a", "terms": json.dumps({"a": {"name": "reward_model", "params": {"model": "/etc"}}})}
    rewards = json.dumps([{"name": "formula", "weight": 1.0, "params": formula}])
    with pytest.raises(AppError, match=NOT_A_MODEL):
        c.predict(["a", "b"], rewards, "", "", api_name="/score_completions")
    # The app's own model still works.
    group, _ = c.predict(num_generations=2, max_new_tokens=8, seed=1, api_name="/generate_group")
    assert len(group["data"]) == 2


def test_page_sampling_is_bounded_on_the_server(public_app):
    c = client(public_app)
    with pytest.raises(AppError, match="num_generations must be between 2 and 16, got 64"):
        c.predict(num_generations=64, max_new_tokens=8, api_name="/generate_group")
    with pytest.raises(AppError, match="Value 2048 is greater than maximum value 512"):  # Gradio's slider bound
        c.predict(num_generations=16, max_new_tokens=2048, api_name="/generate_group")
    model = str(public_app.ctx.settings.model)
    with pytest.raises(AppError, match="Value 256 is greater than maximum value 64"):  # Gradio's slider bound
        c.predict(model, "arithmetic", "", 256, 64, 2048, 0, "group", "sum_then_normalize", api_name="/dry_run")
    total = r"the tokens of one request .* may be at most 32,768 \(PLAYGROUND_MAX_SAMPLED_TOKENS\)"
    with pytest.raises(AppError, match=total):  # within every slider, over the total
        c.predict(model, "arithmetic", "", 64, 16, 256, 0, "group", "sum_then_normalize", api_name="/dry_run")


def test_uploads_count_against_a_per_session_quota(public_app, tmp_path):
    c = client(public_app)
    names = []
    for i in range(3):
        path = tmp_path / f"p{i}.jsonl"
        path.write_text(PROMPTS + " " * 300)  # about 360 bytes each: two fit in 1 KB
        if i < 2:
            names.append(c.predict(handle_file(str(path)), api_name="/upload_prompts")[1]["value"])
        else:
            with pytest.raises(AppError, match=r"used its upload quota \(20 files, 1.0 KB in all"):
                c.predict(handle_file(str(path)), api_name="/upload_prompts")
    assert len(set(names)) == 2
    other = client(public_app)  # another session has its own quota
    assert other.predict(handle_file(str(tmp_path / "p2.jsonl")), api_name="/upload_prompts")[0] == "file"


def test_uploads_are_plain_files_reached_through_no_link(tmp_path):
    real = tmp_path / "real.jsonl"
    real.write_text(PROMPTS)
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    (tmp_path / "folder").mkdir()
    (tmp_path / "via").symlink_to(tmp_path / "folder")
    (tmp_path / "folder" / "f.jsonl").write_text(PROMPTS)
    uploads = Uploads(quota_bytes=10_000, max_files=5)
    assert uploads.add("s", str(real)) == str(real)
    for bad in (link, tmp_path / "via" / "f.jsonl", tmp_path / "folder", "/dev/zero"):
        with pytest.raises(DataError, match="is not a plain file|does not exist"):
            uploads.add("s", str(bad))
    assert plain_file(str(real)) == str(real)
    with pytest.raises(DataError, match=NOT_UPLOADED):
        uploads.check("t", str(real))  # another session
    real.unlink()
    real.symlink_to("/etc/hostname")  # replaced by a link after the upload
    with pytest.raises(DataError, match="is not a plain file"):
        uploads.check("s", str(real))


def test_download_zips_live_in_their_own_unguessable_folders(public_app):
    ctx = public_app.ctx
    first, second = ctx.download_folder(), ctx.download_folder()
    assert first.parent == second.parent == ctx.downloads and first != second
    assert len(first.name) >= 32 and (first.stat().st_mode & 0o777) == 0o700
    old = ctx.download_folder()
    (old / "x-adapter.zip").write_bytes(b"zip")
    os.utime(old, (1, 1))  # made long ago: the next download removes it
    ctx.download_folder()
    assert not old.exists() and first.exists()


# --- MCP: clients upload nothing, so no tool reads a file of the server -------------------------------------------


@pytest.fixture(scope="module")
def public_mcp(tiny_model_dir):
    from playground.ui.app import build_app, launch_kwargs
    from playground.ui.context import AppContext
    from playground.ui.mcp_server import keep_only_mcp_tools
    from playground.ui.settings import UISettings
    from tests.ui.live_app import close_demo, free_port

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PLAYGROUND_PUBLIC", "1")
        settings = UISettings(
            host="127.0.0.1", port=free_port(), model=str(tiny_model_dir), runs=tempfile.mkdtemp(), mcp=True
        )
        ctx = AppContext.create(settings)
        demo = build_app(settings, ctx=ctx)
        _, url, _ = demo.launch(prevent_thread_lock=True, quiet=True, **launch_kwargs(settings))
        keep_only_mcp_tools(demo)
        yield url + "gradio_api/mcp/"
        close_demo(demo)


async def _calls(url: str, calls: list[tuple[str, dict]]) -> list[tuple[bool, str]]:
    async with streamablehttp_client(url) as (read, write, _), ClientSession(read, write) as session:
        await session.initialize()
        out = []
        for name, args in calls:
            result = await session.call_tool(name, args)
            out.append((result.isError, result.content[0].text if result.content else ""))
        return out


def test_mcp_tools_read_no_path_and_check_their_bounds(public_mcp, tmp_path):
    secret = tmp_path / "samples.jsonl"
    secret.write_text(PROMPTS)
    reward_model = json.dumps([{"name": "reward_model", "weight": 1.0, "params": {"model": str(tmp_path)}}])
    results = asyncio.run(
        _calls(
            public_mcp,
            [
                ("lab_dry_run", {"dataset_name": str(secret), "num_prompts": 2, "num_generations": 2}),
                ("lab_dry_run", {"dataset_name": str(tmp_path), "num_prompts": 2, "num_generations": 2}),
                ("lab_dry_run", {"num_prompts": 256, "num_generations": 64, "max_new_tokens": 2048}),
                ("preview_group", {"prompt": "Hi", "num_generations": 64, "max_new_tokens": 2048}),
                ("preview_group", {"prompt": "Hi", "num_generations": 16, "max_new_tokens": 2048}),
                ("score_completions", {"completions": ["a", "b"], "rewards": reward_model}),
                ("score_completions", {"completions": ["a"] * 65}),
                ("score_completions", {"completions": ["a", "b" * 20_001]}),
                ("lab_dry_run", {"dataset_name": "arithmetic", "num_prompts": 2, "num_generations": 2}),
            ],
        )
    )
    expected = [
        str(msg(NOT_UPLOADED_KEY)),
        "is not a Hugging Face dataset id (org/name); folders of the server are not read",  # a folder reads as hub
        "num_generations must be between 2 and 16, got 64",
        "num_generations must be between 2 and 16, got 64",
        "max_new_tokens must be between 1 and 512, got 2048",
        "the model must be the app's own or a Hugging Face Hub id (org/name)",
        "the completions of a group to score may be at most 64 (PLAYGROUND_MAX_COMPLETIONS); this request has 65",
        "one completion may be at most 20,000 (PLAYGROUND_MAX_COMPLETION_CHARS); this request has 20,001",
    ]
    for (error, text), message in zip(results, expected, strict=False):
        assert error and message in text, text
        assert "hunter2" not in text
    error, text = results[-1]
    assert not error and "reward" in text  # a built-in set within the bounds runs
