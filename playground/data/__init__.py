"""Prompts, from where they come to the text the model sees.

- `sources`: where prompts come from (`PromptSource`: a built-in set, a file, a Hub dataset) and `load_prompts`, which
  loads, checks and normalizes them into a `datasets.Dataset` with a `prompt` column.
- `parsers`: the file readers (CSV, JSON, JSONL, Parquet) and the file size limit.
- `chat`: prompts as chat messages and rendered through the tokenizer's chat template.
- `completion_prefix`: the pre-filled start of every answer, after the rendered prompt.
- `uploads`: public mode's per-browser uploads and its rule for a prompt source.
"""
