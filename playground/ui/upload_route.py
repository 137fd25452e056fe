"""Who stored each file through Gradio's upload route, for public mode's rule that a browser reads only what it
uploaded.

Gradio's `/gradio_api/upload` stores a file under `<cache>/<hash of its content>/<name>` and answers the path to the
uploader alone, but any event later accepts any path of that cache: a visitor who learns another's path could name
it. `UploadRoute` (an ASGI middleware, installed through `launch_kwargs`'s `app_kwargs`) notes the client address
of each upload answer; `AppContext.record_upload` accepts a path only from an address that stored it. Two visitors
who upload the same bytes under the same name get the same path, and each is noted.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import OrderedDict

from playground import admission


UPLOAD_PATH = "/gradio_api/upload"
KEEP_SECONDS = 24 * 3600  # Gradio removes an upload after a day (the app's `delete_cache`)
MAX_PATHS = 20_000  # the oldest notes go first past this many paths
MAX_ANSWER = 64 * 1024  # an upload answer is a short JSON list of paths


class UploadLog:
    """path → {client address: when it stored the file}. Thread-safe; bounded in paths and age."""

    def __init__(self):
        self._lock = threading.Lock()
        self._paths: OrderedDict[str, dict[str, float]] = OrderedDict()

    def note(self, path: str, address: str) -> None:
        path, now = os.path.abspath(path), time.monotonic()
        with self._lock:
            senders = self._paths.pop(path, {})
            senders[address] = now
            self._paths[path] = senders
            while len(self._paths) > MAX_PATHS:
                self._paths.popitem(last=False)

    def stored_by(self, path: str, address: str | None) -> bool:
        with self._lock:
            when = self._paths.get(os.path.abspath(path), {}).get(address or "")
        return when is not None and time.monotonic() - when < KEEP_SECONDS


UPLOADS = UploadLog()  # one per process: Gradio's upload cache is one per process too


class UploadRoute:
    """ASGI middleware: after a successful POST to Gradio's upload route, note each stored path with the client's
    address (`admission.client_address`, as every per-address cap reads it)."""

    def __init__(self, app, log: UploadLog = UPLOADS):
        self.app, self.log = app, log

    async def __call__(self, scope, receive, send):
        if scope.get("type") != "http" or scope.get("method") != "POST" or not scope["path"].endswith(UPLOAD_PATH):
            return await self.app(scope, receive, send)
        status, body = [0], bytearray()

        async def watch(message):
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            elif message["type"] == "http.response.body" and len(body) < MAX_ANSWER:
                body.extend(message.get("body", b"")[: MAX_ANSWER - len(body)])
            await send(message)

        await self.app(scope, receive, watch)
        if status[0] == 200:
            self._note(scope, bytes(body))

    def _note(self, scope, body: bytes) -> None:
        try:
            paths = json.loads(body)
        except ValueError:
            return
        client = scope.get("client")
        headers = [(k.decode("latin1"), v.decode("latin1")) for k, v in scope.get("headers", [])]
        address = admission.client_address(
            client[0] if client else None, headers, admission.proxy_hops(), admission.proxy_header()
        )
        for path in paths if isinstance(paths, list) else ():
            if isinstance(path, str):
                self.log.note(path, address or "")
