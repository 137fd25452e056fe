"""Push a run's adapter or merged model to the Hugging Face Hub, with a model card.

The files are written first, into `<run>/export/hub-<kind>/` (or a folder you choose), then uploaded with
`huggingface_hub.HfApi`. When the upload fails (offline, no network, a refused token) the folder stays, so nothing
is lost: upload it later by hand. The token comes from the caller (the UI's password field) or `HF_TOKEN` / a stored
login; it is handed to `HfApi` only, never logged, written to the run folder, or put in an error message.
"""

from __future__ import annotations

import logging
import shutil
from dataclasses import dataclass
from pathlib import Path

from playground.errors import PlaygroundError
from playground.export.common import custom_code
from playground.export.model_card import KIND_ADAPTER, KIND_MERGED, build_model_card
from playground.export.recipe import REWARDS_MODULE
from playground.export.reward_code import copy_library, rewards_code
from playground.export.weights import copy_adapter, export_merged
from playground.settings import current
from playground.spec import RunSpec
from playground.texts import Text, msg
from playground.training.compare import Comparison
from playground.training.store import Run


logger = logging.getLogger(__name__)

KINDS = (KIND_ADAPTER, KIND_MERGED)
EXPORT_FOLDER = "export"


@dataclass
class PushResult:
    repo_id: str
    url: str  # the repo page
    commit_url: str | None
    folder: Path  # the uploaded files, kept


def prepare_push(
    run: Run, repo_id: str, kind: str = KIND_ADAPTER, comparison: Comparison | None = None, folder: Path | None = None
) -> Path:
    """Write what `push_to_hub` uploads: the adapter (or merged model), README.md (the model card), the rewards' code
    as `rewards_module.py` and the reward library it imports (`rewards/`). Replaces an earlier export of the same kind;
    returns the folder."""
    check_repo_id(repo_id)
    if kind not in KINDS:
        raise PlaygroundError("export.push_kind", kind=kind, valid=", ".join(KINDS))
    folder = Path(folder) if folder is not None else run.path / EXPORT_FOLDER / f"hub-{kind}"
    shutil.rmtree(folder, ignore_errors=True)
    if kind == KIND_ADAPTER:
        copy_adapter(run, folder)
    else:
        export_merged(run, folder)
    spec = RunSpec.from_dict(run.spec())
    code = rewards_code(spec.rewards, custom_code(spec), spec.grpo.completions_as_text)
    doc = f"The reward functions of GRPO Reward Playground run {run.id}: REWARD_FUNCS, weighted by REWARD_WEIGHTS."
    (folder / REWARDS_MODULE).write_text(code.source(doc), encoding="utf-8")
    copy_library(folder)
    (folder / "README.md").write_text(build_model_card(run, repo_id, kind, comparison), encoding="utf-8")
    return folder


def push_to_hub(
    run: Run,
    repo_id: str,
    *,
    kind: str = KIND_ADAPTER,
    token: str | None = None,
    private: bool = True,
    comparison: Comparison | None = None,
    folder: Path | None = None,
) -> PushResult:
    """Prepare the files (see `prepare_push`) and upload them to the model repo `repo_id` ("user/name").

    `token` defaults to `HF_TOKEN` or the stored `hf auth login`. Every failure is a `PlaygroundError` of one sentence
    that says where the prepared files are.
    """
    folder = prepare_push(run, repo_id, kind, comparison, folder)
    from huggingface_hub import HfApi

    api = HfApi(token=token or None)
    logger.info("Uploading %s to the Hub repo %s", folder, repo_id)
    try:
        api.create_repo(repo_id, private=private, exist_ok=True, repo_type="model")
        commit = api.upload_folder(
            repo_id=repo_id,
            folder_path=str(folder),
            repo_type="model",
            commit_message=f"Upload the {kind} of GRPO Reward Playground run {run.id}",
        )
    except Exception as exc:  # every Hub failure becomes one sentence; the files stay
        raise PlaygroundError(describe_push_error(exc, repo_id, folder, token)) from None
    url = f"https://huggingface.co/{repo_id}"
    logger.info("Pushed run %s to %s", run.id, url)
    return PushResult(repo_id, url, getattr(commit, "commit_url", None), folder)


def check_repo_id(repo_id: str) -> None:
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id

    if not isinstance(repo_id, str) or repo_id.count("/") != 1:
        raise PlaygroundError("export.repo_shape", repo=repo_id)
    try:
        validate_repo_id(repo_id)
    except HFValidationError:
        raise PlaygroundError("export.repo_invalid", repo=repo_id) from None


def describe_push_error(exc: BaseException, repo_id: str, folder: Path, token: str | None = None) -> Text:
    """One sentence for a failed upload, naming the kept folder and never the token."""
    from huggingface_hub import errors

    repo = _redact(str(repo_id), token)
    kept = msg("export.push_kept", folder=_redact(str(folder), token))
    status = getattr(getattr(exc, "response", None), "status_code", None)
    if isinstance(exc, errors.OfflineModeIsEnabled):
        return msg("export.push_offline", kept=kept)
    if isinstance(exc, errors.LocalTokenNotFoundError):
        return msg("export.push_no_token", kept=kept)
    if status == 401:
        return msg("export.push_401", kept=kept)
    if status == 403:
        return msg("export.push_403", repo=repo, kept=kept)
    if isinstance(exc, errors.HfHubHTTPError):
        return msg("export.push_http", status=status or msg("export.push_an_error"), repo=repo, kept=kept)
    if isinstance(exc, ConnectionError | TimeoutError | getattr(errors, "HTTPError", ConnectionError)):
        return msg("export.push_network", kept=kept)
    return msg("export.push_failed", repo=repo, error=type(exc).__name__, kept=kept)


def _redact(text: str, token: str | None) -> str:
    for secret in (token, current().hf_token):
        if secret:
            text = text.replace(secret, "***")
    return text
