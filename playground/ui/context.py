"""What the tabs share: built once in the composition root and handed to every `create_<tab>_tab(ctx)`."""

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import gradio as gr

from playground.errors import PlaygroundError
from playground.models import ModelCache
from playground.sandbox import (
    CodeSession,
    programs,  # noqa: F401  (installs the code_tests reward's sandbox runner)
)
from playground.sandbox.settings import is_public
from playground.scoring import RewardChoice
from playground.spec import demo_spec
from playground.tempdirs import make_temp_dir, sweep_orphans
from playground.training import access
from playground.training.job import JobManager
from playground.training.store import Run, RunInfo, RunStore
from playground.ui.settings import UISettings


# Sessions that keep a sandbox worker (each a Python process of about 20 MB): a visitor beyond this closes the least
# recently used one, which compiles its code again on its next use.
MAX_CODE_SESSIONS = 32


class CodeSessions:
    """Each UI session's custom code (`CodeSession`: compiled into one sandbox worker), by Gradio session hash.

    A handler reaches only the session of its own request. At most `limit` are kept, and the app closes a session's
    worker when its page unloads. Why not a `gr.State`: `demo.unload` gets no state, only the request, and a state's
    `delete_callback` runs an hour after the tab closes, if at all.
    """

    def __init__(self, limit: int = MAX_CODE_SESSIONS):
        self.limit = limit
        self._lock = threading.Lock()
        self._sessions: OrderedDict[str, CodeSession] = OrderedDict()

    def get(self, key: str | None) -> CodeSession:
        if not key:
            raise PlaygroundError("Custom code needs a session; reload the page.")
        with self._lock:
            session = self._sessions.pop(key, None) or CodeSession()
            self._sessions[key] = session
            evicted = [self._sessions.popitem(last=False)[1] for _ in range(len(self._sessions) - self.limit)]
        for old in evicted:
            old.close()
        return session

    def close(self, key: str | None) -> None:
        with self._lock:
            session = self._sessions.pop(key, None) if key else None
        if session is not None:
            session.close()

    def close_all(self) -> None:
        with self._lock:
            sessions, self._sessions = list(self._sessions.values()), OrderedDict()
        for session in sessions:
            session.close()

    def __contains__(self, key: str) -> bool:
        return key in self._sessions

    def __len__(self) -> int:
        return len(self._sessions)


@dataclass
class AppContext:
    """Process-wide objects. Each guards its own state with a lock (JobManager, ModelCache, CodeSessions); the store
    is files."""

    settings: UISettings
    store: RunStore
    jobs: JobManager
    models: ModelCache
    downloads: Path  # adapter zips are written here, one per run, replaced atomically
    code: CodeSessions = field(default_factory=CodeSessions)  # each session's custom reward code

    @classmethod
    def create(cls, settings: UISettings) -> "AppContext":
        """The app's objects. First removes the temporary folders a killed app process left behind."""
        sweep_orphans()
        store = RunStore(settings.runs)
        return cls(
            settings=settings,
            store=store,
            jobs=JobManager(store, public=is_public()),
            models=ModelCache(),
            downloads=Path(make_temp_dir("downloads")),
        )

    # --- runs, as one visitor may see them (training/access.py) ----------------------------------------------------

    @property
    def public(self) -> bool:
        return self.jobs.public

    def runs_for(self, viewer: str | None) -> list[tuple[RunInfo, bool]]:
        """(run, readable) for each run this viewer may list, newest first. Outside public mode: all, readable."""
        listed = []
        for info in self.store.list():
            status = {"owner": info.owner, "published": info.published, "status": info.status}
            if access.can_list(status, viewer, self.public):
                listed.append((info, access.can_read(status, viewer, self.public)))
        return listed

    def open_run(self, run_id: str, viewer: str | None, *, change: bool = False) -> Run:
        """The run, if this viewer may read it (or, with `change`, delete or publish it); else a PlaygroundError."""
        run = self.store.get(run_id)
        status = run.status()
        allowed = access.can_change if change else access.can_read
        if not allowed(status, viewer, self.public):
            if change and access.can_read(status, viewer, self.public):
                raise PlaygroundError(f"Run '{run_id}' was published by another visitor; it is read-only for you.")
            raise PlaygroundError(
                f"Run '{run_id}' belongs to another visitor of this public app; only its owner can open, download "
                "or delete it (unless they publish it)."
            )
        return run

    def may_watch(self, job, viewer: str | None) -> bool:
        """Whether this viewer sees the live charts and samples of `job` (everyone sees its status and step)."""
        return access.can_read(job.run.status() if self.public else {}, viewer, self.public)


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
