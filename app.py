"""GRPO Reward Playground: the web app. `python app.py --help` lists the flags (`grpo-playground app` is the same)."""

from playground.ui.launch import main


if __name__ == "__main__":
    main()
