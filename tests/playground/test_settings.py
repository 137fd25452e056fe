"""The settings: every variable read once into one frozen object, one error for a bad value wherever it is read, the
tables in docs/security.md written from the fields, and no other module that reads the environment."""

import dataclasses
import re
from pathlib import Path

import pytest

import playground
from playground import settings
from playground.admission import Caps
from playground.cli.main import main as cli_main
from playground.data.parsers import max_file_bytes
from playground.data.uploads import upload_quota_bytes
from playground.errors import PlaygroundError
from playground.sandbox.settings import code_policy
from playground.settings import Settings, caps_table, settings_table
from playground.texts import render
from playground.training.chunks import chunked
from playground.training.store import RunStore


ROOT = Path(__file__).resolve().parents[2]
# The modules that may touch os.environ: the settings, and those that build an environment for another program (a
# sandbox worker's, the ranks' of `accelerate launch`, the CLI's `env:` section of a config file as `trl grpo` sets
# it, and uvicorn's FORWARDED_ALLOW_IPS, which uvicorn reads from the environment).
ENVIRONMENT_READERS = {
    "playground/settings.py",
    "playground/sandbox/client.py",
    "playground/training/launcher.py",
    "playground/cli/train.py",
    "playground/ui/app.py",
}
BAD = {"flag": "maybe", "choice": "sideways", "int": "lots", "number": "lots", "secret": "short"}


def _fields():
    return [f for cls in (Settings, Caps) for f in dataclasses.fields(cls) if f.metadata.get("kind") in BAD]


def test_every_bad_value_is_one_error_that_names_the_variable_and_what_it_allows():
    failures = []
    for f in _fields():
        variable, value = f.metadata["env"], BAD[f.metadata["kind"]]
        try:
            Settings.from_env({variable: value})
        except PlaygroundError as exc:
            english, chinese = str(exc), render("zh", exc)
            shown = "***" if f.metadata["kind"] == "secret" else value
            if exc.key != "settings.invalid" or not english.startswith(f"Bad setting {variable}={shown!r}: "):
                failures.append(f"{variable}: {english}")
            if "\n" in english or variable not in chinese or "takes" in chinese:
                failures.append(f"{variable} (zh): {chinese}")
        else:
            failures.append(f"{variable}={value!r} was accepted")
    assert failures == []


@pytest.mark.parametrize(
    ("variable", "value", "allowed"),
    [
        ("PLAYGROUND_PUBLIC", "maybe", "one of 1, true, yes, on (on) or off, 0, false, no, disabled (off)"),
        ("PLAYGROUND_PROXY_HEADER", "via", "one of x-forwarded-for, forwarded"),
        ("PLAYGROUND_PROXY_HOPS", "-1", "a whole number of at least 0"),
        ("PLAYGROUND_SANDBOX_MEMORY_MB", "32", "a whole number of at least 64"),
        ("PLAYGROUND_MAX_FILE_MB", "0", "a number above 0"),
        ("PLAYGROUND_GPU_SECONDS", "nan", "a number above 0"),
        ("PLAYGROUND_CHUNK_STEPS", "0", "a whole number of at least 1"),
    ],
)
def test_the_message_says_the_values_allowed(variable, value, allowed):
    with pytest.raises(PlaygroundError) as caught:
        Settings.from_env({variable: value})
    assert str(caught.value) == f"Bad setting {variable}={value!r}: {variable} takes {allowed}."


def test_a_secret_is_never_shown():
    with pytest.raises(PlaygroundError) as caught:
        Settings.from_env({"PLAYGROUND_SECRET": "hunter2"})
    assert "hunter2" not in str(caught.value) and "'***'" in str(caught.value)
    assert "hunter2" not in repr(Settings.from_env({"PLAYGROUND_SECRET": "a-long-enough-secret"}))


def test_values_are_read_as_their_kind():
    read = Settings.from_env(
        {
            "PLAYGROUND_PUBLIC": "Off",
            "SPACE_ID": "me/playground",
            "PLAYGROUND_PROXY_HEADER": " Forwarded ",
            "PLAYGROUND_SANDBOX_READ_PATHS": "/a::/b",
            "PLAYGROUND_MAX_RUN_MINUTES": "2.5",
            "PLAYGROUND_CHUNK_STEPS": "",  # blank is unset
            "HF_HUB_OFFLINE": "whatever",  # a platform's flag: what it does not know reads as off
        }
    )
    assert (read.public, read.proxy_header, read.sandbox_read_paths) == (False, "forwarded", ("/a", "/b"))
    assert (read.caps.max_minutes, read.chunk_steps, read.hf_hub_offline) == (2.5, None, False)
    assert Settings.from_env({"SPACE_ID": "me/playground"}).public is True  # public by default on a Space
    assert Settings.from_env({}).public is False


def test_the_same_bad_value_gets_the_same_error_from_every_reader(monkeypatch, capsys):
    monkeypatch.setenv("PLAYGROUND_MAX_FILE_MB", "lots")
    readers = {
        "prompt files": max_file_bytes,
        "uploads": upload_quota_bytes,
        "chunked training": chunked,
        "the sandbox policy": code_policy,
        "the caps": Caps.from_env,
        "the run store": RunStore,
        "bootstrap": playground.bootstrap,
    }
    messages = set()
    for reader in readers.values():
        with pytest.raises(PlaygroundError) as caught:
            reader()
        messages.add(str(caught.value))
    assert messages == {
        "Bad setting PLAYGROUND_MAX_FILE_MB='lots': PLAYGROUND_MAX_FILE_MB takes a number above 0.",
    }
    assert cli_main(["rewards"]) == 2  # the CLI stops before its command, with the same one line
    assert capsys.readouterr().err == f"error: {messages.pop()}\n"


def test_bootstrap_reads_once_and_what_it_installed_stays(monkeypatch):
    monkeypatch.setenv("PLAYGROUND_MAX_STEPS", "7")
    installed = playground.bootstrap()
    monkeypatch.setenv("PLAYGROUND_MAX_STEPS", "lots")  # read once: a later change reaches nothing
    assert settings.current() is installed and Caps.from_env().max_steps == 7
    with pytest.raises(dataclasses.FrozenInstanceError):
        installed.public = True
    settings.install(None)
    with pytest.raises(PlaygroundError, match="PLAYGROUND_MAX_STEPS='lots'"):
        settings.current()


def _table(name: str) -> str:
    text = (ROOT / "docs" / "security.md").read_text()
    return re.search(rf"<!-- {name} -->\n(.*?)\n<!-- /{name} -->", text, re.S).group(1)


def test_docs_show_the_tables_the_settings_write():
    assert _table("settings-table") == settings_table(), "docs/security.md: paste settings.settings_table()"
    assert _table("caps-table") == caps_table(), "docs/security.md: paste settings.caps_table()"
    documented = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", _table("settings-table") + _table("caps-table")))
    assert documented == set(settings.variables())


def test_only_the_settings_and_child_environments_touch_the_environment():
    readers = {
        str(path.relative_to(ROOT))
        for package in ("playground", "rewards")
        for path in (ROOT / package).rglob("*.py")
        if re.search(r"os\.environ|getenv\(", path.read_text(encoding="utf-8"))
    }
    assert readers == ENVIRONMENT_READERS


def test_a_space_trusts_its_own_proxy_and_nothing_else_trusts_a_header():
    assert Settings.from_env({}).proxy_hops == 0  # a bare port or --share: no forwarded header is read
    assert Settings.from_env({"SPACE_ID": "you/app"}).proxy_hops == 1  # the Space's proxy appends the address
    assert Settings.from_env({"SPACE_ID": "you/app", "PLAYGROUND_PROXY_HOPS": "0"}).proxy_hops == 0
    assert Settings.from_env({"PLAYGROUND_PROXY_HOPS": "2"}).proxy_hops == 2
