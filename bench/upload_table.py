"""The upload table at its default size, overflowed through a running public app: a victim uploads a prompt file,
then one client behind the same proxy address opens one more fresh session than the table holds (1,001 against the
default 1,000) and uploads from each; the victim's Start must still find its upload.

tests/security/test_app_gate.py runs the same attack against a table of 40 (`PLAYGROUND_MAX_UPLOADERS`) and
tests/security/test_app_admission.py overflows the default-sized table itself; this runs it at full size through the
app and prints how long the sessions took.

    HF_HUB_OFFLINE=1 python bench/upload_table.py [--owners 1000]

Figures from a shared or loaded machine are slower than on an idle Space; the printout says which CPU and load.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import app_process, cpu_name  # noqa: E402
from tests.support.queue_client import app_client, app_config, find_event, http_client, payload, raw_call  # noqa: E402
from tests.support.tiny_models import save_tiny_model  # noqa: E402


PROXY = "198.51.100.7"  # the attacker's real address, as the Space's proxy appends it
VICTIM = "198.51.100.20"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--owners", type=int, default=1000, help="the table's size (PLAYGROUND_MAX_UPLOADERS)")
    args = parser.parse_args()

    from gradio_client import handle_file
    from gradio_client.exceptions import AppError

    from tests.ui.test_client import TINY_RUN, form_kwargs

    folder = Path(tempfile.mkdtemp(prefix="upload-table-"))
    model = save_tiny_model(folder / "model")
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "PLAYGROUND_PUBLIC": "1",
        "PLAYGROUND_PROXY_HOPS": "1",
        "PLAYGROUND_MAX_UPLOADERS": str(args.owners),
    }
    prompts = folder / "victim.jsonl"
    prompts.write_text('{"prompt": "Say hi."}\n')
    with app_process(str(model), str(folder / "runs"), env, str(folder / "app.log")) as url:
        victim = app_client(url, headers={"X-Forwarded-For": VICTIM})
        kind, name = victim.predict(handle_file(str(prompts)), api_name="/upload_prompts")
        stored = name["value"]
        config = app_config(url)
        index, dep = find_event(config, lambda dep, by_id: any(event == "upload" for _, event in dep["targets"]))
        headers = {"X-Forwarded-For": PROXY}
        with http_client(60, headers) as http:
            (uploaded,) = http.post(url + "gradio_api/upload", files={"files": prompts.open("rb")}).json()
        file = {"path": uploaded, "orig_name": "a.jsonl", "meta": {"_type": "gradio.FileData"}}
        data = payload(config, dep, lambda component: file)
        sessions = args.owners + 1
        start = time.monotonic()
        with ThreadPoolExecutor(8) as pool:  # a fresh Gradio session each time, as a script makes them; eight at once
            calls = [pool.submit(raw_call, url, uuid.uuid4().hex, index, data, headers) for _ in range(sessions)]
            answers = [call.result() for call in calls]
        seconds = time.monotonic() - start
        try:  # the path rule passes (the upload is still the victim's); a cap further on refuses the run
            fields = {**TINY_RUN, "dataset_kind": "file", "dataset_name": stored, "lora_r": 100000}
            victim.predict(**form_kwargs(victim, **fields), api_name="/start_training")
            kept = "started (unexpected)"
        except AppError as err:
            kept = "kept" if "lora_r may be at most 64" in str(err) else f"lost: {err}"
    print(f"CPU: {cpu_name()}; load average {os.getloadavg()[0]:.2f}")
    print(f"{sessions} upload sessions against a table of {args.owners}: {seconds:.1f} s")
    print(f"  succeeded: {sum(a['success'] for a in answers)} of {sessions}; the victim's upload: {kept}")


if __name__ == "__main__":
    main()
