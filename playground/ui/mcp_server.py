"""MCP tools (`python app.py --mcp`): the stateless functions of `TOOLS`, and nothing else of the page's API.

Gradio's MCP server runs every tool call through one shared Gradio session (its Streamable HTTP transport is
stateless, so MCP clients cannot be told apart), and the page's handlers keep per-session state (the reward selection,
the custom code's sandbox worker, the owner of a run). Exposed as tools, they let one MCP client change another's
scores or stop its run. So the MCP server offers only tools whose whole input is their arguments:

- `list_rewards()`: the library's rewards, their parameters and defaults;
- `score_completions(completions, rewards, prompt, code, scale_rewards, multi_objective_aggregation)`: score a group
  with TRL's advantages;
- `preview_group(prompt, rewards, num_generations, max_new_tokens, seed, code, temperature, top_p,
  completion_prefix, scale_rewards, multi_objective_aggregation)`: sample a group with the app's model, then score
  it;
- `check_reward(code)`: check custom reward code and run each function once on sample completions;
- `lab_dry_run(rewards, dataset_name, num_prompts, num_generations, max_new_tokens, seed, temperature, top_p,
  completion_prefix, scale_rewards, multi_objective_aggregation, per_device_train_batch_size)`: the reward lab's dry
  run on a built-in prompt set (playground/ui/lab_mcp.py, as are the next two);
- `lab_probe(rewards, prompt, columns, completions, scale_rewards, multi_objective_aggregation)`: score degenerate
  completions, report those that game the rewards, alone or as the weighted recipe;
- `lab_import_grader(grader)`: an OpenAI grader JSON as playground rewards.

Custom code runs in a fresh sandbox worker per call, closed before the call returns: two MCP clients share nothing.
Training, runs and downloads stay on the page (and its gradio_client API), where each visitor is a session.
"""

from typing import Any

import gradio as gr

from playground.advantages import AdvantageSettings
from playground.errors import PlaygroundError
from playground.isolation.visitor import reward_executor
from playground.preview import run_preview
from playground.sandbox import close_rewards, compile_rewards, inspect_code, trial_run
from playground.scoring import build_rewards, score_group
from playground.spec import spec_with
from playground.ui.common import bind
from playground.ui.context import AppContext, parse_selection
from playground.ui.fair import PREVIEW_SLOTS, TRY_SLOTS, fair
from playground.ui.lab_mcp import LAB_TOOLS, add_lab_tools, reward_selection, sampling_spec
from rewards.registry import list_specs


TOOLS = ("list_rewards", "score_completions", "preview_group", "check_reward", *LAB_TOOLS)


def _custom(code: str) -> dict:
    return compile_rewards(code) if (code or "").strip() else {}


def list_rewards() -> list[dict]:
    """The library's reward functions: name, description, required dataset columns, and parameters with defaults.

    Returns:
        One entry per reward, as used in the `rewards` argument of the other tools.
    """
    return [
        {
            "name": spec.name,
            "description": spec.description,
            "columns": list(spec.columns),
            "params": {p.name: {"default": p.default, "help": p.help} for p in spec.params},
        }
        for spec in list_specs()
    ]


def score_completions(
    ctx: AppContext,
    completions: list[str],
    rewards: str = "",
    prompt: str = "",
    code: str = "",
    scale_rewards: str = "group",
    multi_objective_aggregation: str = "sum_then_normalize",
) -> dict:
    """Score completions as one GRPO group: each reward, the weighted total and TRL's advantage per completion.

    Args:
        completions: Two or more completions of one prompt, scored as a group.
        rewards: JSON list of rewards, e.g. [{"name": "length", "weight": 1.0, "params": {"ideal_length": 50}}]; empty
            for the demo recipe's rewards. Names come from list_rewards or from functions defined in `code`.
        prompt: The prompt the completions answer (some rewards read it).
        code: Optional Python source defining custom reward functions, run in a sandbox for this call only.
        scale_rewards: TRL's scale_rewards: group, batch or none.
        multi_objective_aggregation: TRL's sum_then_normalize or normalize_then_sum.

    Returns:
        The completions with their rewards, totals and advantages, the group's mean and std, warnings, and the
        advantage settings used.
    """
    completions = [str(c) for c in completions or []]
    if len(completions) < 2:
        raise PlaygroundError("mcp.group_size")
    advantage = AdvantageSettings.of(
        spec_with({"scale_rewards": scale_rewards, "multi_objective_aggregation": multi_objective_aggregation}),
        whole_table=True,
    )
    ctx.check_group(completions, prompts=[prompt or ""])
    ctx.check_judges(completions, reward_selection(rewards), [prompt or ""])
    custom = _custom(code)
    try:
        funcs, weights = build_rewards(parse_selection(reward_selection(rewards)), custom, executor=reward_executor())
        n = len(completions)
        return score_group(completions, funcs, weights, prompts=[prompt or ""] * n, advantage=advantage).to_json()
    finally:
        close_rewards(custom)


def preview_group(
    ctx: AppContext,
    prompt: str,
    rewards: str = "",
    num_generations: int = 4,
    max_new_tokens: int = 32,
    seed: int = 0,
    code: str = "",
    temperature: float = 1.0,
    top_p: float = 1.0,
    completion_prefix: str = "",
    scale_rewards: str = "group",
    multi_objective_aggregation: str = "sum_then_normalize",
) -> dict:
    """Sample a group of completions for a prompt with the app's model, then score it as score_completions does.

    Args:
        prompt: The prompt to complete (sent as a user message when the model has a chat template).
        rewards: JSON list of rewards, as in score_completions; empty for the demo recipe's rewards.
        num_generations: Completions in the group (2-16).
        max_new_tokens: Most tokens per completion (the recipe's max_completion_length).
        seed: Sampling seed: the same seed gives the same group.
        code: Optional Python source defining custom reward functions, run in a sandbox for this call only.
        temperature: Sampling temperature, as in training.
        top_p: Nucleus sampling share, as in training.
        completion_prefix: Text every completion starts with (the recipe's completion_prefix); rewards score it too.
        scale_rewards: TRL's scale_rewards: group, batch or none.
        multi_objective_aggregation: TRL's sum_then_normalize or normalize_then_sum.

    Returns:
        The prompt, the scored completions, the group's statistics and the advantage settings used.
    """
    ctx.check_sampling([(prompt or "") + (completion_prefix or "")], int(num_generations), int(max_new_tokens))
    spec = sampling_spec(
        num_generations,
        max_new_tokens,
        seed,
        temperature,
        top_p,
        completion_prefix,
        scale_rewards,
        multi_objective_aggregation,
    )
    custom = _custom(code)
    try:
        funcs, weights = build_rewards(parse_selection(reward_selection(rewards)), custom, executor=reward_executor())
        return run_preview(spec, prompt, funcs, weights, lambda: ctx.models.get(ctx.settings.model)).to_json()
    finally:
        close_rewards(custom)


def check_reward(code: str) -> dict:
    """Check custom reward code: static checks, then each function run once on sample completions in a sandbox.

    Args:
        code: Python source defining one or more reward functions `f(completions, **kwargs) -> list[float]`.

    Returns:
        The functions found, static issues, and for each function its values, error (with line) and output.
    """
    report = inspect_code(code or "")
    result: dict[str, Any] = {"functions": list(report.functions), "errors": [e.to_json() for e in report.errors]}
    if report.ok:
        custom = _custom(code)
        try:
            result["trial"] = [r.to_json() for r in trial_run(custom)]
        finally:
            close_rewards(custom)
    return result


def add_mcp_tools(ctx: AppContext) -> None:
    """Register the tools as API endpoints (inside the Blocks); `keep_only_mcp_tools` then hides the rest from MCP.

    Through `bind`, an error reaches the MCP client as its one-sentence message. The tools are unqueued: Gradio's MCP
    server then runs each call in this process with a session state of its own. A queued tool would be called through
    one gradio_client session shared by every MCP client, whose event stream the server closes when the session's
    last event completes; a call that joins at that moment is cancelled, and its MCP client gets an empty error. The
    page's pools bound the work instead of the queue: a preview samples when the page's previews do not (one at a
    time), and scoring and code checks share the Try on text pool."""
    gr.api(bind(list_rewards), api_name="list_rewards", queue=False)
    gr.api(fair(bind(score_completions, ctx), TRY_SLOTS), api_name="score_completions", queue=False)
    gr.api(fair(bind(preview_group, ctx), PREVIEW_SLOTS), api_name="preview_group", queue=False)
    gr.api(fair(bind(check_reward), TRY_SLOTS), api_name="check_reward", queue=False)
    add_lab_tools(ctx)  # the reward lab's dry run, probe and grader import


def keep_only_mcp_tools(demo: gr.Blocks) -> list[str]:
    """After launch: the MCP server lists and calls only `TOOLS`; returns the tool names it keeps."""
    server = getattr(demo, "mcp_server_obj", None)
    if server is None:
        return []
    wanted = {f"/{name}" for name in TOOLS}
    server.tool_to_endpoint = {k: v for k, v in server.tool_to_endpoint.items() if v in wanted}
    return sorted(server.tool_to_endpoint)
