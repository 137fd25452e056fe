#!/usr/bin/env bash
# GPU check: the playground's job against bare TRL on one CUDA GPU, bf16 (and 4-bit when bitsandbytes'
# CUDA build imports), on a random-init SmolLM2-135M-shaped model. Under 8 minutes on an H200 with --steps 5.
#
#   bash bench/gpu_check.sh --fetch_wheels   # here (PyPI reachable): the wheels a bare GPU image lacks, into .whl/
#   bash bench/gpu_check.sh --dry_run        # anywhere: can it find and import what it needs? (CI runs this)
#   bash bench/gpu_check.sh [--steps N]      # on the GPU machine, with .whl/ beside it; prints one JSON line last
#
# The GPU image is expected to hold torch, transformers, accelerate, peft, pandas, pyarrow and xxhash, but not trl,
# datasets (and its dill and multiprocess) or gradio; no network there. Wheels in .whl/ (git-ignored) are installed
# with --no-deps into /tmp/gpu-check-site, ahead of the image's packages.
set -euo pipefail
cd "$(dirname "$0")/.."

WHEELS=(trl==1.16.0 datasets==5.2.0 dill==0.4.1 multiprocess==0.70.19 transformers==5.24.0 tokenizers==0.23.3
        huggingface-hub==2.4.0 peft==0.21.2 typer)

if [[ "${1:-}" == "--fetch_wheels" ]]; then
  mkdir -p .whl
  for w in "${WHEELS[@]}"; do
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
      --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
      -d .whl "$w"
  done
  du -sh .whl
  exit 0
fi

if compgen -G ".whl/*.whl" >/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/gpu-check-site .whl/*.whl
  export PYTHONPATH="/tmp/gpu-check-site${PYTHONPATH:+:$PYTHONPATH}"
fi
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false PYTHONUNBUFFERED=1
exec python3 bench/gpu_check.py "$@"
