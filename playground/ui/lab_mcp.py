"""The reward lab's stateless MCP tools: a dry run, the reward-hacking probe and the OpenAI grader import.

Their whole input is their arguments (see playground/ui/mcp_server.py for why MCP tools must be stateless).
"""

import json

import gradio as gr

from playground.advantages import AdvantageSettings
from playground.data.sources import PromptSource
from playground.errors import PlaygroundError
from playground.isolation.visitor import reward_executor
from playground.lab.dryrun import run_dry_run
from playground.lab.graders import import_grader
from playground.lab.probe import probe
from playground.scoring import build_rewards
from playground.spec import spec_with
from playground.ui.common import bind
from playground.ui.context import AppContext, default_selection, parse_selection
from playground.ui.fair import PREVIEW_SLOTS, TRY_SLOTS, fair


LAB_TOOLS = ("lab_dry_run", "lab_probe", "lab_import_grader")


def sampling_spec(
    num_generations,
    max_new_tokens,
    seed,
    temperature,
    top_p,
    completion_prefix,
    scale_rewards,
    multi_objective_aggregation,
    **more,
):
    """The run spec of an MCP tool that samples a group: its sampling and advantage arguments under TRL's names."""
    values = {
        "num_generations": int(num_generations),
        "max_completion_length": int(max_new_tokens),
        "seed": int(seed),
        "temperature": temperature,
        "top_p": top_p,
        "completion_prefix": completion_prefix or "",
        "scale_rewards": scale_rewards,
        "multi_objective_aggregation": multi_objective_aggregation,
    }
    return spec_with(values | more)


def reward_selection(rewards: str) -> list[dict]:
    """An MCP tool's `rewards` argument (a JSON list of {"name", "weight", "params"}) as a selection; empty gives the
    demo recipe's rewards."""
    if not (rewards or "").strip():
        return default_selection()
    try:
        data = json.loads(rewards)
    except json.JSONDecodeError as exc:
        raise PlaygroundError("mcp.rewards_json", line=exc.lineno, error=exc.msg) from None
    if not isinstance(data, list) or not all(isinstance(item, dict) and "name" in item for item in data):
        raise PlaygroundError("mcp.rewards_shape")
    return data


def _choices(rewards: str):
    return parse_selection(reward_selection(rewards))


def lab_dry_run(
    ctx: AppContext,
    rewards: str = "",
    dataset_name: str = "writing",
    num_prompts: int = 8,
    num_generations: int = 4,
    max_new_tokens: int = 32,
    seed: int = 0,
    temperature: float = 1.0,
    top_p: float = 1.0,
    completion_prefix: str = "",
    scale_rewards: str = "group",
    multi_objective_aggregation: str = "sum_then_normalize",
    per_device_train_batch_size: int = 8,
) -> dict:
    """Sample G completions for each of the first N prompts of a built-in set with the app's model and report what TRL
    would log at step 0, the prompts whose group gives no learning signal, and a one-sentence verdict.

    Args:
        rewards: JSON list of rewards, as in score_completions; empty for the demo recipe's rewards.
        dataset_name: A built-in prompt set: writing, arithmetic or chinese (a public app reads no file path).
        num_prompts: Prompts to sample (N).
        num_generations: Completions per prompt (G).
        max_new_tokens: Most tokens per completion (the recipe's max_completion_length).
        seed: Sampling seed.
        temperature: Sampling temperature, as in training.
        top_p: Nucleus sampling share, as in training.
        completion_prefix: Text every completion starts with (the recipe's completion_prefix); rewards score it too.
        scale_rewards: TRL's scale_rewards: group, batch or none.
        multi_objective_aggregation: TRL's sum_then_normalize or normalize_then_sum.
        per_device_train_batch_size: Completions per batch, the batch that batch scaling and normalize_then_sum use.

    Returns:
        {"reward", "reward_std", "frac_reward_zero_std", "rewards", "prompts", "verdict"}.
    """
    ctx.check_sampling(int(num_prompts), int(num_generations), int(max_new_tokens))  # the shape, then the rows
    funcs, weights = build_rewards(_choices(rewards), executor=reward_executor())
    source = PromptSource.named(dataset_name)
    ctx.check_source(source, None)  # public mode: MCP clients upload nothing, so no file of the server is read
    spec = sampling_spec(
        num_generations,
        max_new_tokens,
        seed,
        temperature,
        top_p,
        completion_prefix,
        scale_rewards,
        multi_objective_aggregation,
        per_device_train_batch_size=int(per_device_train_batch_size),
    )
    spec.data = source
    _, summary = run_dry_run(
        spec,
        funcs,
        weights,
        lambda: ctx.models.get(ctx.settings.model),
        num_prompts=int(num_prompts),
        check_prompts=lambda prompts: ctx.check_sampling(prompts, int(num_generations), int(max_new_tokens)),
    )
    return summary.to_json()


def lab_probe(
    rewards: str = "",
    prompt: str = "",
    columns: str = "",
    completions: list[str] | None = None,
    scale_rewards: str = "group",
    multi_objective_aggregation: str = "sum_then_normalize",
) -> dict:
    """Score degenerate completions (empty, tags with empty sections, repetition, the answer alone, ...) with the
    rewards and report those that score at or above a real completion (the given ones, else each library reward's
    good example); with real completions and several rewards, also those the weighted recipe would push towards.

    Args:
        rewards: JSON list of library rewards, as in score_completions.
        prompt: The prompt, for the copy-the-prompt probe.
        columns: JSON object of dataset columns, e.g. {"answer": "72"}.
        completions: Real completions of the prompt to compare with.
        scale_rewards: TRL's scale_rewards: group, batch or none.
        multi_objective_aggregation: TRL's sum_then_normalize or normalize_then_sum.

    Returns:
        {"findings": [{"reward", "text", "score", "why"}]}.
    """
    choices = _choices(rewards)
    funcs, weights = build_rewards(choices, executor=reward_executor())
    values = {"scale_rewards": scale_rewards, "multi_objective_aggregation": multi_objective_aggregation}
    advantage = AdvantageSettings.of(spec_with(values), whole_table=True)
    report = probe(
        choices,
        funcs,
        prompt=prompt,
        columns=json.loads(columns) if columns.strip() else None,
        completions=[str(c) for c in completions or []] or None,
        weights=weights,
        advantage=advantage,
    )
    return report.to_json()


def lab_import_grader(grader: str) -> dict:
    """Turn an OpenAI grader JSON (string_check, text_similarity, score_model, python, multi) into playground rewards.

    Args:
        grader: The grader as JSON text.

    Returns:
        {"selection": rewards for the other tools, "code": custom code for python graders, "columns", "messages"}.
    """
    return import_grader(grader).to_json()


def add_lab_tools(ctx: AppContext) -> None:
    """Unqueued, in the page's pools, as the other MCP tools are (`playground.ui.mcp_server.add_mcp_tools`)."""
    gr.api(fair(bind(lab_dry_run, ctx), PREVIEW_SLOTS), api_name="lab_dry_run", queue=False)
    gr.api(fair(bind(lab_probe), TRY_SLOTS), api_name="lab_probe", queue=False)
    gr.api(bind(lab_import_grader), api_name="lab_import_grader", queue=False)
