"""Every setting the playground reads from the environment, read once into one frozen `Settings`.

An entry point (the app, the CLI, the MCP server, a worker) calls `playground.bootstrap()`, which reads the
environment into a `Settings`, checks every value and installs it; the engine asks `current()`. A bad value is one
kind of error wherever it is read: a `PlaygroundError` whose one line names the variable and the values it allows.
Without an entry point (a notebook, a test) `current()` reads the environment afresh at each call.

Each field's metadata holds its variable, its group and its help, and the bounds its value must meet, checked by one
reader (`_read`); docs/security.md shows the tables `settings_table()` and `caps_table()` write (a test keeps them
equal). The variables a platform sets (a Space, `accelerate launch`, the Hugging Face Hub's) follow their own rules:
an unrecognised value of a platform flag reads as off, as the platform reads it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from playground.errors import PlaygroundError
from playground.texts import msg


OFF_WORDS = ("off", "0", "false", "no", "disabled")
ON_WORDS = ("1", "true", "yes", "on")
PROXY_HEADERS = ("x-forwarded-for", "forwarded")


def _setting(default, variable: str, help: str, group: str, kind: str, low: float | None = None, **more):
    """A field read from `variable`: `kind` is flag, int, number, choice, text, paths, secret (checked, never
    shown), token (never shown) or platform (a platform's flag); `low` is the least value an int or number may take
    (a number must be above it when it is 0)."""
    metadata = {"env": variable, "help": help, "group": group, "kind": kind, "low": low, **more}
    if isinstance(default, list | dict):
        return field(default_factory=lambda: type(default)(default), metadata=metadata)
    return field(default=default, metadata=metadata, repr=kind not in ("secret", "token"))


def _cap(default, variable: str, help: str, group: str):
    return _setting(default, variable, help, group, "number" if isinstance(default, float) else "int", low=0)


# --- reading one value -----------------------------------------------------------------------------------------------


def _allowed(meta: Mapping[str, Any]):
    kind, low = meta["kind"], meta.get("low")
    if kind == "flag":
        return msg("settings.allowed.flag", on=", ".join(ON_WORDS), off=", ".join(OFF_WORDS))
    if kind == "choice":
        return msg("settings.allowed.choice", choices=", ".join(meta["choices"]))
    if kind == "secret":
        return msg("settings.allowed.secret", low=meta["min_chars"])
    if kind == "int":
        return msg("settings.allowed.int", low=int(low or 0))
    return msg("settings.allowed.number_above" if not low else "settings.allowed.number", low=f"{low:g}")


def _invalid(meta: Mapping[str, Any], value: str) -> PlaygroundError:
    shown = "***" if meta["kind"] == "secret" else value
    return PlaygroundError("settings.invalid", name=meta["env"], value=shown, allowed=_allowed(meta))


def _parse(meta: Mapping[str, Any], raw: str) -> Any:
    """`raw` (set, not blank) as the field's kind, or the one error for a bad value."""
    kind, low, value = meta["kind"], meta.get("low"), raw.strip()
    if kind == "platform":
        return value.lower() in ON_WORDS
    if kind == "flag":
        if value.lower() in ON_WORDS or value.lower() in OFF_WORDS:
            return value.lower() in ON_WORDS
        raise _invalid(meta, raw)
    if kind == "choice":
        if value.lower() not in meta["choices"]:
            raise _invalid(meta, raw)
        return value.lower()
    if kind == "paths":
        return tuple(p for p in value.split(":") if p)
    if kind == "secret":
        if len(raw.encode("utf-8")) < meta["min_chars"]:
            raise _invalid(meta, raw)
        return raw
    if kind in ("text", "token"):
        return value
    try:
        number = int(value) if kind == "int" else float(value)
    except ValueError:
        raise _invalid(meta, raw) from None
    if kind == "number" and not number == number:  # NaN
        raise _invalid(meta, raw)
    if low is not None and (number < low or (kind == "number" and not low and number <= 0)):
        raise _invalid(meta, raw)
    return number


def _read(cls, environ: Mapping[str, str]) -> dict[str, Any]:
    """The fields of dataclass `cls` whose variable is set (and not blank) in `environ`, each read by its kind."""
    values = {}
    for f in fields(cls):
        variable = f.metadata.get("env")
        raw = environ.get(variable) if variable else None
        if raw is not None and raw.strip():
            values[f.name] = _parse(f.metadata, raw)
    return values


# --- the caps of public mode -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Caps:
    """The caps of public mode (`playground.admission`), one field each, read from its variable."""

    # --- sampling from the app's model outside a run (preview, reward lab dry run, MCP preview, Compare) ---------
    min_generations: int = _cap(2, "PLAYGROUND_MIN_GENERATIONS", "Fewest completions in a sampled group.", "sampling")
    max_generations: int = _cap(16, "PLAYGROUND_MAX_GENERATIONS", "Most completions in a sampled group.", "sampling")
    max_new_tokens: int = _cap(512, "PLAYGROUND_MAX_NEW_TOKENS", "Most new tokens per completion.", "sampling")
    max_prompt_tokens: int = _cap(
        1024,
        "PLAYGROUND_MAX_PROMPT_TOKENS",
        "Most tokens in one prompt, counted before the model sees it (UTF-8 bytes / 2, see `prompt_tokens`).",
        "sampling",
    )
    max_sampled_tokens: int = _cap(
        32_768,
        "PLAYGROUND_MAX_SAMPLED_TOKENS",
        "Most tokens one request processes: prompts × G × (prompt tokens + new tokens).",
        "sampling",
    )
    max_compare_prompts: int = _cap(
        16, "PLAYGROUND_MAX_COMPARE_PROMPTS", "Most prompts one Compare samples.", "sampling"
    )
    # --- scoring (Try on text, reward tests, previews, MCP score_completions) -------------------------------------
    max_completions: int = _cap(64, "PLAYGROUND_MAX_COMPLETIONS", "Most completions in a group to score.", "scoring")
    max_completion_chars: int = _cap(
        20_000, "PLAYGROUND_MAX_COMPLETION_CHARS", "Most characters in one completion.", "scoring"
    )
    max_group_chars: int = _cap(
        200_000, "PLAYGROUND_MAX_GROUP_CHARS", "Most characters in a group's completions together.", "scoring"
    )
    max_column_chars: int = _cap(
        4_000,
        "PLAYGROUND_MAX_COLUMN_CHARS",
        "Most characters in one dataset-column value (reference, tests, solution, answer) or prompt given to score.",
        "scoring",
    )
    max_pair_chars: int = _cap(
        4_000_000,
        "PLAYGROUND_MAX_PAIR_CHARS",
        "Most completion characters × column characters in one group (what similarity rewards compare).",
        "scoring",
    )
    max_judge_tokens: int = _cap(
        4_096,
        "PLAYGROUND_MAX_JUDGE_TOKENS",
        "Most tokens a judge or reward model reads in one group: each completion with its prompt, and the judge's "
        "rubric as filled for the row (UTF-8 bytes / 2).",
        "scoring",
    )
    max_cases: int = _cap(
        64, "PLAYGROUND_MAX_REWARD_CASES", "Most reward test cases in one run of the tests.", "scoring"
    )
    # --- reward parameters and models ------------------------------------------------------------------------------
    max_param_chars: int = _cap(
        2_000,
        "PLAYGROUND_MAX_PARAM_CHARS",
        "Most characters in one reward parameter (a rubric, an expression, formula terms, keywords).",
        "rewards",
    )
    max_pattern_chars: int = _cap(
        500, "PLAYGROUND_MAX_PATTERN_CHARS", "Most characters in a regular expression (`regex` pattern).", "rewards"
    )
    max_rewards: int = _cap(16, "PLAYGROUND_MAX_REWARDS", "Most rewards in one selection.", "rewards")
    max_model_params: int = _cap(
        500_000_000,
        "PLAYGROUND_MAX_MODEL_PARAMS",
        "Most parameters of a reward or judge model, read from its config.json before it loads.",
        "rewards",
    )
    # --- the size of any request ------------------------------------------------------------------------------------
    max_field_chars: int = _cap(
        100_000, "PLAYGROUND_MAX_FIELD_CHARS", "Most characters in any one text input of any event.", "request"
    )
    max_request_chars: int = _cap(
        1_000_000, "PLAYGROUND_MAX_REQUEST_CHARS", "Most characters in all the inputs of one event.", "request"
    )
    # --- the page state Gradio keeps per session (`playground.ui.app.launch_kwargs`) --------------------------------
    max_sessions: int = _cap(
        1_000,
        "PLAYGROUND_MAX_SESSIONS",
        "Most sessions whose page state the server keeps (Gradio's `state_session_capacity`): each new session hash, "
        "a page load or an API call, holds about 1.4 MB of it; past the cap the session used longest ago is dropped.",
        "sessions",
    )
    # --- training runs (`playground.training.run_queue.PublicCaps` checks these) -------------------------------
    max_steps: int = _cap(200, "PLAYGROUND_MAX_STEPS", "Most `max_steps` a run may ask for.", "runs")
    max_minutes: float = _cap(
        30.0, "PLAYGROUND_MAX_RUN_MINUTES", "Wall-clock minutes a run may take once it starts.", "runs"
    )
    max_custom_functions: int = _cap(
        3, "PLAYGROUND_MAX_CUSTOM_FUNCTIONS", "Most custom (sandboxed) reward functions one run may use.", "runs"
    )
    max_reward_seconds: float = _cap(
        6.0,
        "PLAYGROUND_MAX_REWARD_SECONDS",
        "Most reward time one step may take: custom functions × the sandbox's per-call timeout.",
        "runs",
    )
    max_queued: int = _cap(
        10, "PLAYGROUND_MAX_QUEUED", "Most runs waiting in the queue, all visitors together.", "runs"
    )
    max_step_tokens: int = _cap(
        8192,
        "PLAYGROUND_MAX_STEP_TOKENS",
        "Most tokens one step, one held-out eval or the warm-up's examples may generate.",
        "runs",
    )
    max_lora_r: int = _cap(64, "PLAYGROUND_MAX_LORA_R", "Largest LoRA rank.", "runs")
    max_queued_per_address: int = _cap(
        1, "PLAYGROUND_MAX_QUEUED_PER_ADDRESS", "Most runs waiting from one client address.", "runs"
    )
    # --- what runs leave on disk (`playground.training.retention`) ------------------------------------------------
    run_retention_hours: float = _cap(
        6.0,
        "PLAYGROUND_RUN_RETENTION_HOURS",
        "Hours a run is kept once it ended; then it is deleted with its checkpoints.",
        "disk",
    )
    max_visitor_disk_mb: int = _cap(
        1024,
        "PLAYGROUND_MAX_VISITOR_DISK_MB",
        "Most MB one browser's runs (checkpoints included) and uploads may hold; a new run past it is refused.",
        "disk",
    )
    min_free_disk_mb: int = _cap(
        2048,
        "PLAYGROUND_MIN_FREE_DISK_MB",
        "Free MB on the runs folder's disk under which new runs are refused.",
        "disk",
    )
    # --- visitor workers (`playground.isolation.visitor.VisitorWorkers`) -------------------------------------------
    max_visitor_workers: int = _cap(
        16,
        "PLAYGROUND_MAX_VISITOR_WORKERS",
        "Most live text workers (one per browser token); past it the least recently used idle one stops.",
        "workers",
    )
    max_model_workers: int = _cap(
        2,
        "PLAYGROUND_MAX_MODEL_WORKERS",
        "Most live model workers (judge, reward model; one per browser token, about 1 GB each).",
        "workers",
    )
    worker_idle_seconds: float = _cap(
        300.0, "PLAYGROUND_WORKER_IDLE_SECONDS", "Seconds a visitor's worker may stay idle before it stops.", "workers"
    )
    anonymous_workers: int = _cap(
        1,
        "PLAYGROUND_ANONYMOUS_WORKERS",
        "Workers of each kind shared by every call without a browser token (an API client that loaded no page, MCP); "
        "such a call never gets a worker of its own.",
        "workers",
    )
    max_anonymous_calls_per_address: int = _cap(
        2,
        "PLAYGROUND_MAX_ANONYMOUS_CALLS_PER_ADDRESS",
        "Most calls without a browser token that one client address may have scoring in the shared workers at once.",
        "workers",
    )
    # --- uploads -------------------------------------------------------------------------------------------------
    max_upload_owners: int = _cap(
        1000,
        "PLAYGROUND_MAX_UPLOADERS",
        "Most browsers with upload records, all addresses together; a new one replaces only its own address's.",
        "uploads",
    )
    max_upload_owners_per_address: int = _cap(
        64,
        "PLAYGROUND_MAX_UPLOADERS_PER_ADDRESS",
        "Most browsers of one client address with upload records; a new one replaces that address's oldest.",
        "uploads",
    )
    max_upload_row_chars: int = _cap(
        100_000,
        "PLAYGROUND_MAX_UPLOAD_ROW_CHARS",
        "Most characters in one line of an uploaded CSV or JSONL file, counted before the line is parsed.",
        "uploads",
    )
    max_upload_columns: int = _cap(
        64, "PLAYGROUND_MAX_UPLOAD_COLUMNS", "Most columns of an uploaded file, all its rows together.", "uploads"
    )
    max_upload_keys: int = _cap(
        256, "PLAYGROUND_MAX_UPLOAD_KEYS", "Most keys in one row of an uploaded file, nested ones included.", "uploads"
    )
    max_upload_depth: int = _cap(
        8,
        "PLAYGROUND_MAX_UPLOAD_DEPTH",
        "Most levels of nesting in one value of an uploaded file (a chat prompt has 3).",
        "uploads",
    )
    max_upload_cell_chars: int = _cap(
        20_000, "PLAYGROUND_MAX_UPLOAD_CELL_CHARS", "Most characters in one value of an uploaded file.", "uploads"
    )
    upload_parse_seconds: float = _cap(
        20.0,
        "PLAYGROUND_UPLOAD_PARSE_SECONDS",
        "Seconds the upload worker (a process of its own) may take to read one file; it is killed past them.",
        "uploads",
    )
    upload_parse_memory_mb: int = _cap(
        1024,
        "PLAYGROUND_UPLOAD_PARSE_MEMORY_MB",
        "Address space of the upload worker in MB: a file that needs more to read is refused.",
        "uploads",
    )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None):
        """The defaults, each overridden by its variable when set: `environ`, else the current settings' caps."""
        if environ is None:
            caps = current().caps
            return caps if type(caps) is cls else cls(**{f.name: getattr(caps, f.name) for f in fields(Caps)})
        return cls(**_read(cls, environ))


# --- every setting ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """The playground's settings, one field per variable; `Settings.from_env()` reads and checks them all."""

    # --- who the app serves ------------------------------------------------------------------------------------------
    public: bool | None = _setting(
        None,
        "PLAYGROUND_PUBLIC",
        "Public mode: caps, visitor workers, a queue (unset: on where `SPACE_ID` is set).",
        "mode",
        "flag",
    )
    secret: str = _setting(
        "",
        "PLAYGROUND_SECRET",
        "The key that signs browser tokens; set it to keep tokens valid across restarts (unset: random per start).",
        "mode",
        "secret",
        min_chars=16,
    )
    proxy_hops: int | None = _setting(
        None,
        "PLAYGROUND_PROXY_HOPS",
        "Trusted proxies that append to the forwarding header (unset: 1 where `SPACE_ID` is set, its proxy; else 0).",
        "mode",
        "int",
        low=0,
    )
    proxy_header: str = _setting(
        PROXY_HEADERS[0],
        "PLAYGROUND_PROXY_HEADER",
        "The header the trusted proxy appends to (`forwarded` for RFC 7239).",
        "mode",
        "choice",
        choices=PROXY_HEADERS,
    )
    # --- custom reward code -----------------------------------------------------------------------------------------
    custom_code: bool = _setting(True, "PLAYGROUND_CUSTOM_CODE", "Off refuses custom reward code.", "sandbox", "flag")
    allow_unconfined: bool = _setting(
        False,
        "PLAYGROUND_ALLOW_UNCONFINED",
        "Run custom code and `code_tests` where seccomp or Landlock cannot be applied (accepting the risk).",
        "sandbox",
        "flag",
    )
    sandbox_timeout: float | None = _setting(
        None,
        "PLAYGROUND_SANDBOX_TIMEOUT",
        "Seconds one custom reward call may take (unset: the mode's limit).",
        "sandbox",
        "number",
        low=0,
    )
    sandbox_memory_mb: int | None = _setting(
        None,
        "PLAYGROUND_SANDBOX_MEMORY_MB",
        "The custom-code worker's address space, in MB (unset: the mode's).",
        "sandbox",
        "int",
        low=64,
    )
    sandbox_disk_mb: int | None = _setting(
        None,
        "PLAYGROUND_SANDBOX_DISK_MB",
        "Disk quota of the worker's folder, in MB (unset: the mode's).",
        "sandbox",
        "int",
        low=1,
    )
    sandbox_disk_files: int | None = _setting(
        None,
        "PLAYGROUND_SANDBOX_DISK_FILES",
        "Most files in the worker's folder (unset: the mode's).",
        "sandbox",
        "int",
        low=10,
    )
    sandbox_read_paths: tuple[str, ...] = _setting(
        (),
        "PLAYGROUND_SANDBOX_READ_PATHS",
        "More folders the worker may read, separated by `:`.",
        "sandbox",
        "paths",
    )
    # --- files -------------------------------------------------------------------------------------------------------
    runs: str = _setting("runs", "PLAYGROUND_RUNS", "The runs folder.", "files", "text")
    cache: str = _setting(
        "", "PLAYGROUND_CACHE", "Where converted models live (unset: `~/.cache/grpo-playground`).", "files", "text"
    )
    max_file_mb: float = _setting(
        50.0, "PLAYGROUND_MAX_FILE_MB", "Largest prompt file the app reads, in MB.", "files", "number", low=0
    )
    upload_quota_mb: float = _setting(
        100.0,
        "PLAYGROUND_UPLOAD_QUOTA_MB",
        "MB one browser may upload, all its files together.",
        "files",
        "number",
        low=0,
    )
    # --- training in chunks (ZeroGPU) ------------------------------------------------------------------------------
    chunk_steps: int | None = _setting(
        None,
        "PLAYGROUND_CHUNK_STEPS",
        "Train in chunks of this many steps, on any machine (unset: on ZeroGPU only, as many steps as fit in a call).",
        "training",
        "int",
        low=1,
    )
    gpu_seconds: float = _setting(
        120.0, "PLAYGROUND_GPU_SECONDS", "One ZeroGPU call's budget, in seconds.", "training", "number", low=0
    )
    # --- what a platform sets ---------------------------------------------------------------------------------------
    space_id: str = _setting("", "SPACE_ID", "The Hugging Face Space the app runs on.", "platform", "text")
    zero_gpu: bool = _setting(False, "SPACES_ZERO_GPU", "Set by a ZeroGPU Space.", "platform", "platform")
    hf_home: str = _setting(
        "", "HF_HOME", "The Hugging Face folder (unset: `~/.cache/huggingface`).", "platform", "text"
    )
    hf_hub_cache: str = _setting("", "HF_HUB_CACHE", "The Hub cache (unset: `$HF_HOME/hub`).", "platform", "text")
    hf_hub_offline: bool = _setting(False, "HF_HUB_OFFLINE", "Never reach the Hub.", "platform", "platform")
    hf_token: str = _setting("", "HF_TOKEN", "The Hub token, kept out of messages.", "platform", "token")
    server_name: str = _setting(
        "",
        "GRADIO_SERVER_NAME",
        "The address the app listens on (unset: 127.0.0.1, 0.0.0.0 on a Space).",
        "platform",
        "text",
    )
    server_port: int | None = _setting(
        None, "GRADIO_SERVER_PORT", "The app's port (unset: 7860).", "platform", "int", low=1
    )
    rank: int = _setting(0, "RANK", "This process's rank (`accelerate launch`).", "platform", "int", low=0)
    world_size: int = _setting(1, "WORLD_SIZE", "The ranks of a run (`accelerate launch`).", "platform", "int", low=1)
    local_rank: int = _setting(0, "LOCAL_RANK", "This rank's GPU (`accelerate launch`).", "platform", "int", low=0)
    # --- the caps of public mode (their own table) --------------------------------------------------------------
    caps: Caps = field(default_factory=Caps)

    def __post_init__(self):
        if self.public is None:  # public by default where the app serves a Space's visitors
            object.__setattr__(self, "public", bool(self.space_id))
        if self.proxy_hops is None:  # a Space's own proxy appends the visitor's address; elsewhere trust none
            object.__setattr__(self, "proxy_hops", 1 if self.space_id else 0)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Every setting from `environ` (the process's environment by default), each checked."""
        environ = os.environ if environ is None else environ
        return cls(**_read(cls, environ), caps=Caps(**_read(Caps, environ)))

    def cache_root(self) -> Path:
        return Path(self.cache or Path.home() / ".cache" / "grpo-playground").expanduser()

    def hub_cache(self) -> str:
        if self.hf_hub_cache:
            return self.hf_hub_cache
        return os.path.join(self.hf_home or os.path.expanduser("~/.cache/huggingface"), "hub")


# --- the process's settings ------------------------------------------------------------------------------------------

_installed: Settings | None = None


def install(settings: Settings | None) -> Settings | None:
    """Make `settings` the process's (None: read the environment at each `current()`); returns the one before."""
    global _installed
    before, _installed = _installed, settings
    return before


def current() -> Settings:
    """The installed settings, else the environment's as it is now."""
    return _installed if _installed is not None else Settings.from_env()


def is_public(public: bool | None = None) -> bool:
    """Public mode: `public` if given (a UI flag), else the settings' (`PLAYGROUND_PUBLIC`, else on a Space)."""
    return public if public is not None else bool(current().public)


# --- the tables in docs/security.md ----------------------------------------------------------------------------------


def _shown(value: Any) -> str:
    if value is None or value == "" or value == ():
        return "unset"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, int):
        return f"{value:,}"
    return f"`{value}`"


def settings_table() -> str:
    """Every setting but the caps as a Markdown table (group, variable, default, what it sets)."""
    lines = ["| group | variable | default | what it sets |", "| --- | --- | --- | --- |"]
    defaults = Settings(public=False)
    for f in fields(Settings):
        if "env" in f.metadata:
            value = "unset" if f.name == "public" else _shown(getattr(defaults, f.name))
            lines.append(f"| {f.metadata['group']} | `{f.metadata['env']}` | {value} | {f.metadata['help']} |")
    return "\n".join(lines)


def caps_table(caps: Caps | None = None) -> str:
    """The caps as a Markdown table (group, variable, default, what it bounds)."""
    caps = caps or Caps()
    lines = ["| group | variable | default | bounds |", "| --- | --- | --- | --- |"]
    for f in fields(caps):
        value = getattr(caps, f.name)
        shown = f"{value:g}" if isinstance(value, float) else f"{value:,}"
        lines.append(f"| {f.metadata['group']} | `{f.metadata['env']}` | {shown} | {f.metadata['help']} |")
    return "\n".join(lines)


def variables() -> list[str]:
    """Every variable the settings read, the caps' included."""
    return [f.metadata["env"] for cls in (Settings, Caps) for f in fields(cls) if "env" in f.metadata]
