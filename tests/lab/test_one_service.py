"""One dry run and one preview in the engine: the CLI, the MCP tools and the page call `run_dry_run` and
`run_preview` with the same run-spec fields and get the same result; none of them drops a field."""

import json

import gradio as gr
import pytest

from playground.cli.main import main
from playground.ui import lab_mcp, lab_tab, mcp_server
from playground.ui.context import AppContext
from playground.ui.settings import UISettings


# Every field of a dry run that is not its default, so a front end that drops one gives another result.
FIELDS = {"temperature": 0.7, "top_p": 0.9, "completion_prefix": "<intro>", "seed": 3}
FIELDS |= {"scale_rewards": "batch", "multi_objective_aggregation": "normalize_then_sum"}
REWARDS = [{"name": "length", "weight": 1.0, "params": {"ideal_length": 30}}, {"name": "tag_layout", "weight": 0.5}]


@pytest.fixture(scope="module")
def ctx(tiny_model_dir, tmp_path_factory):
    return AppContext.create(UISettings(model=str(tiny_model_dir), runs=str(tmp_path_factory.mktemp("runs"))))


def test_the_dry_run_is_one_service(ctx, tiny_model_dir, capsys):
    argv = ["dryrun", "--reward", "length", "--reward", "tag_layout:0.5", "--dataset_name", "writing", "--json"]
    argv += ["--model", str(tiny_model_dir), "--num_prompts", "3", "--num_generations", "4", "--max_new_tokens", "8"]
    argv += ["--per_device_train_batch_size", "8"]
    argv += [f"--{name}={value}" for name, value in FIELDS.items()]
    assert main(argv) == 0
    cli = json.loads(capsys.readouterr().out)

    cli_rewards = [{"name": "length", "weight": 1.0}, {"name": "tag_layout", "weight": 0.5}]
    mcp = lab_mcp.lab_dry_run(
        ctx, json.dumps(cli_rewards), "writing", 3, 4, 8, per_device_train_batch_size=8, **FIELDS
    )
    request = gr.Request(headers={"accept-language": "en-US"})
    page = lab_tab.run_dry_run(
        ctx,
        request,
        None,
        str(tiny_model_dir),
        "writing",
        cli_rewards,
        "",
        3,
        4,
        8,
        FIELDS["seed"],
        FIELDS["scale_rewards"],
        FIELDS["multi_objective_aggregation"],
        FIELDS["temperature"],
        FIELDS["top_p"],
        FIELDS["completion_prefix"],
        8,
        None,
        None,
        progress=lambda *args, **kwargs: None,
    )[-1]
    assert cli == mcp == page
    assert cli["rewards"]["tag_layout"]["mean"] > 0  # the prefix reached the rewards: `<intro>` earns layout credit
    plain = lab_mcp.lab_dry_run(ctx, json.dumps(cli_rewards), "writing", 3, 4, 8, seed=3)
    assert plain != mcp and plain["rewards"]["tag_layout"]["mean"] == 0


def test_the_preview_is_one_service(ctx, tiny_model_dir, capsys):
    argv = ["preview", "--reward", "length", "--reward", "tag_layout:0.5", "--prompt", "Say hi.", "--json"]
    argv += ["--model", str(tiny_model_dir), "--num_generations", "4", "--max_new_tokens", "8"]
    argv += [f"--{name}={value}" for name, value in FIELDS.items()]
    assert main(argv) == 0
    cli = json.loads(capsys.readouterr().out)
    rewards = json.dumps([{"name": "length", "weight": 1.0}, {"name": "tag_layout", "weight": 0.5}])
    mcp = mcp_server.preview_group(ctx, "Say hi.", rewards, 4, 8, **FIELDS)
    for data in (cli, mcp):
        data.pop("seconds")
    assert mcp.pop("prompt").endswith("<intro>")  # the chat template's prompt, then the prefix
    assert cli == mcp
    assert mcp["advantage"]["multi_objective_aggregation"] == "normalize_then_sum"
    assert all(c["text"].startswith("<intro>") for c in mcp["completions"])
