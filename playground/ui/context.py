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

from playground import admission
from playground.data.sources import PromptSource
from playground.data.uploads import NOT_UPLOADED, Uploads, check_public_source
from playground.errors import PlaygroundError
from playground.models import ModelCache
from playground.runtime.tempdirs import make_temp_dir, sweep_orphans
from playground.sandbox import CodeSession
from playground.sandbox.settings import is_public
from playground.scoring import RewardChoice
from playground.spec import RunSpec, demo_spec
from playground.texts import Text, msg
from playground.training import access
from playground.training.run_queue import JobManager
from playground.training.store import Run, RunInfo, RunStore
from playground.ui.common import client_address
from playground.ui.settings import UISettings
from playground.ui.upload_route import UPLOADS
from playground.validation import check_public_paths


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
    """The app's inference models. In public mode only the app's own model, the embedded one or a Hub id within the
    gate's parameter cap loads (`admission.check_model`): never a folder of the server typed by a visitor."""

    def __init__(self, public: bool, own: str):
        super().__init__()
        self.public = public
        self.own = own

    def get(self, source, progress=None, **kwargs):
        if self.public and isinstance(source, str | None):
            admission.check_model(source, (self.own,))
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
    uploads: Uploads = field(default_factory=lambda: uploads_table(admission.Caps.from_env()))
    # the files each browser uploaded, by token and address

    @classmethod
    def create(cls, settings: UISettings) -> "AppContext":
        """The app's objects. First removes the temporary folders a killed app process left behind."""
        sweep_orphans()
        store = RunStore(settings.runs)
        public = is_public()
        uploads = uploads_table(admission.Caps.from_env())
        return cls(
            settings=settings,
            store=store,
            jobs=JobManager(store, public=public, uploaded=uploads.bytes_of),  # uploads count in the disk quota
            models=AppModels(public, settings.model),
            downloads=Path(make_temp_dir("downloads")),
            uploads=uploads,
        )

    # --- identity: browser tokens (training/access.py) ---------------------------------------------------------------

    def viewer(self, token: str | None) -> str | None:
        """The owner key of a browser token this app issued; None for anything else (a made-up or stolen hash)."""
        return self.tokens.owner(token)

    # --- public mode: files and paths (one rule: a browser reads only what it uploaded) -----------------------------

    def record_upload(self, request: gr.Request | None, token: str | None, path: str) -> tuple[str | None, str]:
        """Note that the browser of `token` uploaded `path` (public mode reads no other file for it); issues the token
        first when the browser has none. Returns the token and the path as noted. The record belongs to the token and
        the client's address: opening sessions replaces nobody else's (`Uploads`). Only a file this client's address
        stored through Gradio's upload route is noted: another visitor's path in the upload cache is refused."""
        if not self.public:
            return token, path
        address = client_address(request)
        if not UPLOADS.stored_by(path, address):
            raise PlaygroundError(NOT_UPLOADED)
        token = self.tokens.keep_or_issue(token)
        return token, self.uploads.add(self.viewer(token), path, address=address)

    def check_spec(self, spec: RunSpec, token: str | None) -> None:
        """Public mode: every path of the run spec was uploaded by this browser; models are Hub ids or the app's,
        within the gate's caps."""
        if self.public:
            check_public_paths(spec, self.uploads, self.viewer(token), (self.settings.model,))

    def check_source(self, source: PromptSource, token: str | None) -> None:
        if self.public:
            check_public_source(source, self.uploads, self.viewer(token))

    # --- public mode: the admission gate (playground/admission.py) prices each request before work starts ----------

    def check_sampling(self, prompts: list | int, num_generations: int, max_new_tokens: int) -> None:
        """Public mode: the price of sampling G completions of up to `max_new_tokens` for each of `prompts` (or for
        that many prompts, before they are read)."""
        if self.public:
            admission.check_sampling(prompts, num_generations, max_new_tokens)

    def check_group(self, completions: list[str], columns: dict | None = None, prompts: list | tuple = ()) -> None:
        """Public mode: the price of scoring a group: its completions, every column value and the prompts."""
        if self.public:
            admission.check_group(completions, columns, prompts)

    def check_judges(
        self, completions: list, selection, prompts: list | tuple = (), columns: dict | None = None
    ) -> None:
        """Public mode: the price of the judge rewards of `selection` reading `completions`, their prompts and the
        columns a rubric quotes."""
        if self.public:
            admission.check_judges(completions, selection, prompts=prompts, columns=columns)

    def check_selection(self, selection) -> None:
        """Public mode: the price of a reward selection (parameter sizes, patterns, models a reward loads)."""
        if self.public:
            admission.check_selection(selection, (self.settings.model,))

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


def uploads_table(caps: admission.Caps) -> Uploads:
    """The table of uploads, sized by the gate's caps (all browsers, and the browsers of one address)."""
    return Uploads(max_owners=caps.max_upload_owners, per_address=caps.max_upload_owners_per_address)


def default_selection() -> list[dict]:
    """The reward selection a new session starts with: the demo recipe's rewards."""
    return [choice.to_dict() for choice in demo_spec().rewards]


def parse_selection(selection: list[dict] | None) -> list[RewardChoice]:
    """The reward choices of a selection: every weight a number (`weight_problem`); in public mode priced by the gate
    first (no model folder of the server, no parameter over its cap)."""
    for item in selection or []:
        if problem := weight_problem(item):
            raise PlaygroundError(problem)
    if is_public():
        admission.check_selection(selection or [])
    return [RewardChoice.from_dict(item) for item in selection or []]


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


HUGE_WEIGHT = 1000.0  # a weight above this drowns the others (rewards score about 0..1) and the float32 total


def weight_warning(item: dict) -> Text | None:
    """What a valid but surprising weight does (a negative one penalises its reward; a huge one drowns the others and
    the float32 total's precision), or None. Said beside the selection; Start and Score take it as it is."""
    if weight_problem(item) is not None or "weight" not in item:
        return None
    weight = float(item["weight"])
    if weight < 0:
        return msg("reward.weight_negative", name=item["name"], weight=weight)
    if weight > HUGE_WEIGHT:
        return msg("reward.weight_huge", name=item["name"], weight=weight, limit=HUGE_WEIGHT)
    return None


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
