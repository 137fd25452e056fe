"""What the tabs share: built once in the composition root and handed to every `create_<tab>_tab(ctx)`."""

import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path

import gradio as gr

from playground.job import JobManager
from playground.models import ModelCache
from playground.scoring import RewardChoice
from playground.spec import demo_spec
from playground.store import RunStore
from playground.ui.settings import UISettings


@dataclass
class AppContext:
    """Process-wide objects. Each guards its own state with a lock (JobManager, ModelCache); the store is files."""

    settings: UISettings
    store: RunStore
    jobs: JobManager
    models: ModelCache
    downloads: Path  # adapter zips are written here, one per run, replaced atomically

    @classmethod
    def create(cls, settings: UISettings) -> "AppContext":
        store = RunStore(settings.runs)
        return cls(
            settings=settings,
            store=store,
            jobs=JobManager(store),
            models=ModelCache(),
            downloads=Path(tempfile.mkdtemp(prefix="playground-downloads-")),
        )


def new_session_id() -> str:
    return secrets.token_urlsafe(12)


def default_selection() -> list[dict]:
    """The reward selection a new session starts with: the demo recipe's rewards."""
    return [choice.to_dict() for choice in demo_spec().rewards]


def parse_selection(selection: list[dict] | None) -> list[RewardChoice]:
    return [RewardChoice.from_dict(item) for item in selection or []]


@dataclass
class Session:
    """Per-browser-session state. `browser_id` survives a page reload, so the starter of a run keeps control."""

    id: gr.State
    browser_id: gr.BrowserState
    selection: gr.State  # list of RewardChoice dicts, edited on the Rewards tab
    preview: gr.State  # the last preview group, as JSON


def create_session() -> Session:
    return Session(
        id=gr.State(None),
        browser_id=gr.BrowserState(None, storage_key="grpo-playground-session"),
        selection=gr.State(default_selection()),
        preview=gr.State(None),
    )
