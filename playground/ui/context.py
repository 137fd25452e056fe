"""What the tabs share: built once in the composition root and handed to every `create_<tab>_tab(ctx)`."""

import math
import secrets
import shutil
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import gradio as gr

from playground.data import PromptSource, Uploads, check_public_source
from playground.errors import PlaygroundError
from playground.models import ModelCache
from playground.sandbox import (
    CodeSession,
    programs,  # noqa: F401  (installs the code_tests reward's sandbox runner)
)
from playground.sandbox.settings import is_public
from playground.scoring import RewardChoice
from playground.spec import RunSpec, demo_spec
from playground.tempdirs import make_temp_dir, sweep_orphans
from playground.texts import Text, msg
from playground.training import access
from playground.training.job import JobManager
from playground.training.store import Run, RunInfo, RunStore
from playground.ui.settings import UISettings
from playground.validation import (
    check_public_group,
    check_public_model,
    check_public_paths,
    check_public_rewards,
    check_public_sampling,
)


# Sessions that keep a sandbox worker (each a Python process of about 20 MB): a visitor beyond this closes the least
# recently used one, which compiles its code again on its next use.
MAX_CODE_SESSIONS = 32
DOWNLOAD_SECONDS = 600  # a download folder (one per request, unguessable name) is removed this long after it was made


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
            raise PlaygroundError("sandbox.session")
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


class AppModels(ModelCache):
    """The app's inference models. In public mode only the app's own model, the embedded one or a Hub id loads:
    never a folder of the server typed by a visitor."""

    def __init__(self, public: bool, own: str):
        super().__init__()
        self.public = public
        self.own = own

    def get(self, source, progress=None, **kwargs):
        if self.public and isinstance(source, str | None):
            check_public_model(source, (self.own,))
        return super().get(source, progress, **kwargs)


@dataclass
class AppContext:
    """Process-wide objects. Each guards its own state with a lock (JobManager, ModelCache, CodeSessions, Uploads;
    Tokens holds only its secret); the store is files."""

    settings: UISettings
    store: RunStore
    jobs: JobManager
    models: ModelCache
    downloads: Path  # zips are made here, each in a folder of its own with an unguessable name
    code: CodeSessions = field(default_factory=CodeSessions)  # each session's custom reward code
    tokens: access.Tokens = field(default_factory=access.Tokens)  # browser tokens, signed with this app's secret
    uploads: Uploads = field(default_factory=Uploads)  # the files each browser session uploaded

    @classmethod
    def create(cls, settings: UISettings) -> "AppContext":
        """The app's objects. First removes the temporary folders a killed app process left behind."""
        sweep_orphans()
        store = RunStore(settings.runs)
        public = is_public()
        return cls(
            settings=settings,
            store=store,
            jobs=JobManager(store, public=public),
            models=AppModels(public, settings.model),
            downloads=Path(make_temp_dir("downloads")),
        )

    # --- identity: browser tokens (training/access.py) ---------------------------------------------------------------

    def viewer(self, token: str | None) -> str | None:
        """The owner key of a browser token this app issued; None for anything else (a made-up or stolen hash)."""
        return self.tokens.owner(token)

    # --- public mode: files and paths (one rule: a session reads only what it uploaded) -----------------------------

    def record_upload(self, request: gr.Request | None, path: str) -> str:
        """Note that this browser session uploaded `path` (public mode reads no other file); returns it as noted."""
        return self.uploads.add(_session_of(request), path) if self.public else path

    def check_spec(self, spec: RunSpec, request: gr.Request | None) -> None:
        """Public mode: every path of the run spec was uploaded by this session; models are Hub ids or the app's."""
        if self.public:
            check_public_paths(spec, self.uploads, _session_of(request), (self.settings.model,))

    def check_source(self, source: PromptSource, request: gr.Request | None) -> None:
        if self.public:
            check_public_source(source, self.uploads, _session_of(request))

    def check_sampling(self, prompts: int, num_generations: int, max_new_tokens: int) -> None:
        """Public mode: the bounds of one preview or dry run (`validation.check_public_sampling`)."""
        if self.public:
            check_public_sampling(int(prompts), int(num_generations), int(max_new_tokens))

    def check_group(self, completions: list[str]) -> None:
        """Public mode: the size of a group of completions to score (`validation.check_public_group`)."""
        if self.public:
            check_public_group(completions)

    def download_folder(self) -> Path:
        """A new folder for one download, with an unguessable name; folders older than `DOWNLOAD_SECONDS` go."""
        cutoff = time.time() - DOWNLOAD_SECONDS
        for old in self.downloads.iterdir():
            try:
                if old.is_dir() and not old.is_symlink() and old.stat().st_mtime < cutoff:
                    shutil.rmtree(old, ignore_errors=True)
                elif old.is_file() and old.stat().st_mtime < cutoff:
                    old.unlink(missing_ok=True)
            except OSError:
                continue
        folder = self.downloads / secrets.token_urlsafe(24)
        folder.mkdir(mode=0o700)
        return folder

    # --- runs, as one visitor may see them (training/access.py) ----------------------------------------------------

    @property
    def public(self) -> bool:
        return self.jobs.public

    def runs_for(self, token: str | None) -> list[tuple[RunInfo, bool]]:
        """(run, readable) for each run this browser may list, newest first. Outside public mode: all, readable."""
        viewer = self.viewer(token)
        listed = []
        for info in self.store.list():
            status = {"owner": info.owner, "published": info.published, "status": info.status}
            if access.can_list(status, viewer, self.public):
                listed.append((info, access.can_read(status, viewer, self.public)))
        return listed

    def open_run(self, run_id: str, token: str | None, *, change: bool = False) -> Run:
        """The run, if this browser may read it (or, with `change`, delete or publish it); else a PlaygroundError."""
        viewer = self.viewer(token)
        run = self.store.get(run_id)
        status = run.status()
        allowed = access.can_change if change else access.can_read
        if not allowed(status, viewer, self.public):
            if change and access.can_read(status, viewer, self.public):
                raise PlaygroundError("access.published", run=run_id)
            raise PlaygroundError("access.not_yours", run=run_id)
        return run

    def may_watch(self, job, token: str | None) -> bool:
        """Whether this browser sees the live charts and samples of `job` (everyone sees its status and step)."""
        return access.can_read(job.run.status() if self.public else {}, self.viewer(token), self.public)


def _session_of(request: gr.Request | None) -> str | None:
    return getattr(request, "session_hash", None)


def client_address(request: gr.Request | None) -> str | None:
    """The client's address as the web server saw it (behind a proxy, the address the proxy reports)."""
    client = getattr(request, "client", None)
    return getattr(client, "host", None)


def default_selection() -> list[dict]:
    """The reward selection a new session starts with: the demo recipe's rewards."""
    return [choice.to_dict() for choice in demo_spec().rewards]


def parse_selection(selection: list[dict] | None) -> list[RewardChoice]:
    """The reward choices of a selection; in public mode none names a model folder of the server."""
    for item in selection or []:
        if problem := weight_problem(item):
            raise PlaygroundError(problem)
    choices = [RewardChoice.from_dict(item) for item in selection or []]
    if is_public():
        check_public_rewards(choices)
    return choices


def weight_problem(item: dict) -> Text | None:
    """Why a selected reward's weight is not a number (empty, or text), or None: the summary says so at once, and
    Start and Score refuse the selection (`parse_selection`) rather than count it as 1."""
    if "weight" not in item:  # no weight given: 1, as in TRL
        return None
    weight = item["weight"]
    try:
        if not isinstance(weight, bool) and math.isfinite(float(weight)):
            return None
    except (TypeError, ValueError):
        pass
    if weight is None or str(weight).strip() == "":
        return msg("reward.weight_empty", name=item["name"])
    return msg("reward.weight_not_number", name=item["name"], weight=weight)


@dataclass
class Session:
    """Per-browser-session state. `id` is the browser token the server issued (training/access.py); `browser_id`
    keeps it in the browser across page reloads, so the starter of a run keeps control."""

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
