"""GRPO Reward Playground: the web app. `python app.py --help` lists the flags."""

import logging

from playground.ui.app import build_app, launch_kwargs
from playground.ui.settings import parse_settings


def main(argv: list[str] | None = None) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = parse_settings(argv)
    kwargs = launch_kwargs(settings)  # fails fast on an impossible flag, before the UI is built
    build_app(settings).launch(**kwargs)


if __name__ == "__main__":
    main()
