"""Every flag takes TRL's two spellings, and the commands that take run fields name them as TRL does."""

import pytest

from playground.cli.main import build_parser
from playground.cli.train import parse_train


def test_train_takes_dash_and_underscore_spellings(tmp_path):
    spec, options = parse_train(["--max-steps", "3", "--json-log", "--lora-r", "4", "--out", str(tmp_path)])
    assert (spec.grpo.max_steps, spec.lora.lora_r, options.json_log) == (3, 4, True)
    spec, options = parse_train(["--max_steps", "5", "--json_log", "--num-generations=4", "--out", str(tmp_path)])
    assert (spec.grpo.max_steps, spec.grpo.num_generations, options.json_log) == (5, 4, True)


@pytest.mark.parametrize("given", [["--config", "{path}"], ["--config={path}"]])
def test_a_config_file_is_read_in_either_form_of_the_flag(given, tmp_path):
    config = tmp_path / "run.yaml"
    config.write_text("max_steps: 3\nlearning_rate: 0.001\n", encoding="utf-8")
    spec, _ = parse_train([arg.format(path=config) for arg in given])
    assert (spec.grpo.max_steps, spec.grpo.learning_rate) == (3, 0.001)
    spec, _ = parse_train([arg.format(path=config) for arg in given] + ["--max-steps", "5"])  # a flag overrides it
    assert (spec.grpo.max_steps, spec.grpo.learning_rate) == (5, 0.001)


@pytest.mark.parametrize("dash", [False, True])
def test_preview_takes_trls_names_and_the_older_ones(dash):
    def flag(name: str) -> str:
        return "--" + (name.replace("_", "-") if dash else name)

    argv = ["preview", "--reward", "length", "--prompt", "p", flag("model_name_or_path"), "m"]
    argv += [flag("max_completion_length"), "5", flag("num_generations"), "3", flag("top_p"), "0.5"]
    args = build_parser().parse_args(argv)
    assert (args.model_name_or_path, args.max_completion_length, args.num_generations, args.top_p) == ("m", 5, 3, 0.5)
    assert (args.seed, args.temperature, args.completion_prefix, args.system_prompt) == (0, 1.0, "", None)
    older = build_parser().parse_args(["preview", "--reward", "length", "--prompt", "p", "--model", "m"])
    assert older.model_name_or_path == "m" and older.max_completion_length == 64
    older = build_parser().parse_args(["preview", "--reward", "length", "--prompt", "p", "--max_new_tokens", "7"])
    assert older.max_completion_length == 7 and older.model_name_or_path == "embedded"


def test_dryrun_takes_run_fields_by_trls_names():
    argv = ["dryrun", "--reward", "length", "--num-prompts", "3", "--max-completion-length", "7"]
    args = build_parser().parse_args([*argv, "--multi-objective-aggregation", "normalize_then_sum"])
    assert (args.num_prompts, args.max_completion_length, args.dataset_name) == (3, 7, "writing")
    assert (args.multi_objective_aggregation, args.scale_rewards) == ("normalize_then_sum", "group")
    with pytest.raises(SystemExit):
        build_parser().parse_args([*argv, "--scale-rewards", "rank"])  # TRL's choices, from the field's metadata
