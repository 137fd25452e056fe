"""The command line's own errors come from the catalogue and still read as one English line with exit code 2; the
same keys render in Chinese for the page and the MCP server. argparse's own messages stay argparse's."""

import re

import pytest

from playground.cli.main import main
from playground.cli.train import load_spec_file
from playground.errors import PlaygroundError
from playground.lessons import LESSONS, get_lesson
from playground.ui.lab_mcp import reward_selection


CJK = re.compile(r"[\u4e00-\u9fff]")


def one_line(capsys) -> str:
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_the_clis_own_errors_read_as_before(tmp_path, capsys):
    assert main(["score", "--reward", "length", "--completion", "a", "--column", "bad"]) == 2
    assert one_line(capsys) == "error: Malformed --column 'bad'; use NAME=VALUE."
    assert main(["export", "--format", "script", "--out", str(tmp_path / "x")]) == 2
    assert one_line(capsys) == "error: Give either --run or --spec."
    assert main(["train", "--spec", "s.json", "--lesson", LESSONS[0].id]) == 2
    assert one_line(capsys) == "error: Give --spec or --lesson, not both."
    missing = tmp_path / "missing.json"
    assert main(["export", "--spec", str(missing), "--format", "script", "--out", str(tmp_path / "y")]) == 2
    assert one_line(capsys) == f"error: Cannot read spec file {missing}: No such file or directory."
    config = tmp_path / "trl.yaml"
    config.write_text("- a list\n")
    assert main(["train", "--config", str(config)]) == 2
    assert one_line(capsys) == f"error: Config file {config} must hold a YAML mapping of TRL's keys."


def test_a_bad_flag_is_argparses_one_line_and_a_bad_setting_the_catalogues(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["score", "--completion", "a"])
    assert exc.value.code == 2
    assert one_line(capsys) == "grpo-playground score: error: the following arguments are required: --reward"
    config = tmp_path / "trl.yaml"
    config.write_text("warmup_ratio: 0.1\n")
    with pytest.raises(SystemExit) as exc:
        main(["train", "--config", str(config)])
    assert exc.value.code == 2
    assert one_line(capsys).endswith(
        f"error: {config}: warmup_ratio: not a setting the playground trains with (train it with `trl grpo`)"
    )


@pytest.mark.parametrize(
    "call,key,chinese",
    [
        (lambda: get_lesson("nope"), "cli.unknown_lesson", "没有名为 'nope' 的课程"),
        (lambda: load_spec_file("/nonexistent/spec.json"), "cli.spec_unreadable", "无法读取运行规格文件"),
        (lambda: reward_selection("[1]"), "mcp.rewards_shape", "必须是形如"),
        (lambda: reward_selection("[1"), "mcp.rewards_json", "必须是 JSON 列表：第 1 行"),
    ],
    ids=["lesson", "spec-file", "mcp-shape", "mcp-json"],
)
def test_cli_and_mcp_errors_carry_a_key_that_renders_chinese(call, key, chinese):
    with pytest.raises(PlaygroundError) as caught:
        call()
    error = caught.value
    assert error.key == key and not CJK.search(str(error))  # English for the terminal and MCP clients
    assert chinese in error.render("zh")
