import ast
import dataclasses
import json
import operator
import re
import time

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from playground.data.chat import render_prompt, to_messages
from playground.data.sources import BUILTIN_SETS, MAX_PROMPT_CHARS, PromptSource, list_builtin_sets, load_prompts
from playground.errors import DataError, PlaygroundError


MB = 1024 * 1024
SYS = {"role": "system", "content": "Be brief."}
USER = {"role": "user", "content": "Hi"}


def load_file(tmp_path, filename, content, **kwargs):
    path = tmp_path / filename
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return load_prompts(PromptSource(kind="file", name=str(path), **kwargs))


def jsonl(*rows):
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


# --------------------------------------------------------------------------------------------------------------------
# Built-in sets


@pytest.mark.parametrize("name", list(BUILTIN_SETS))
def test_builtin_sets_load(name):
    result = load_prompts(PromptSource(kind="builtin", name=name))
    ds = result.dataset
    assert result.warnings == []
    assert 20 <= len(ds) <= 40
    assert ds.column_names[0] == "prompt"
    assert all(isinstance(p, str) and p.strip() == p and len(p) >= 6 for p in ds["prompt"])
    assert len(set(ds["prompt"])) == len(ds), "prompts must be distinct"


def test_builtin_registry():
    assert list_builtin_sets() == ["writing", "arithmetic", "chinese", "code"]
    assert all(desc and "\n" not in desc for desc in BUILTIN_SETS.values())


def test_unknown_builtin_lists_valid_names():
    with pytest.raises(DataError) as info:
        load_prompts(PromptSource(kind="builtin", name="poems"))
    assert str(info.value) == "Unknown built-in prompt set 'poems'; valid sets: writing, arithmetic, chinese, code."


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def _evaluate(node):
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_evaluate(node.left), _evaluate(node.right))
    raise ValueError(f"unsupported expression node {ast.dump(node)}")


def test_arithmetic_answers_are_correct():
    ds = load_prompts(PromptSource(kind="builtin", name="arithmetic")).dataset
    assert ds.column_names == ["prompt", "answer", "expression"]
    for row in ds:
        value = _evaluate(ast.parse(row["expression"], mode="eval"))
        assert value == int(value), row
        assert row["answer"] == str(int(value)), row
        # Every number the expression uses is stated in the problem.
        assert set(re.findall(r"\d+", row["expression"])) <= set(re.findall(r"\d+", row["prompt"])), row


def test_chinese_prompts_are_chinese():
    ds = load_prompts(PromptSource(kind="builtin", name="chinese")).dataset
    for prompt in ds["prompt"]:
        cjk = sum("\u4e00" <= ch <= "\u9fff" for ch in prompt)
        assert cjk / len(prompt) > 0.6, prompt


def test_writing_has_structured_prompts():
    prompts = load_prompts(PromptSource(kind="builtin", name="writing")).dataset["prompt"]
    structured = [p for p in prompts if "<intro>" in p and "<body>" in p and "<conclusion>" in p]
    assert 5 <= len(structured) < len(prompts)


# --------------------------------------------------------------------------------------------------------------------
# PromptSource


def test_prompt_source_json_roundtrip():
    source = PromptSource(
        kind="hub",
        name="org/set",
        config="main",
        split="test",
        prompt_column="question",
        column_map={"solution": "answer"},
        system_prompt="Be brief.",
        max_rows=5,
    )
    restored = PromptSource.from_dict(json.loads(json.dumps(source.to_dict())))
    assert restored == source
    assert PromptSource.from_dict({}) == PromptSource()
    assert all(f.metadata["help"] for f in dataclasses.fields(PromptSource))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"kind": "s3"}, "Unknown prompt source kind 's3'; use one of: builtin, file, hub."),
        ({"name": "  "}, "The prompt source needs a name"),
        ({"max_rows": 0}, "max_rows must be a whole number of at least 1, got 0."),
        ({"max_rows": "10"}, "max_rows must be a whole number of at least 1, got '10'."),
        ({"column_map": {"a": ""}}, "The column mapping must map existing column names to new names"),
    ],
)
def test_prompt_source_invalid(kwargs, message):
    with pytest.raises(DataError) as info:
        PromptSource(**kwargs)
    assert message in str(info.value)


def test_prompt_source_from_dict_unknown_field():
    with pytest.raises(DataError) as info:
        PromptSource.from_dict({"kind": "builtin", "colour": 1, "size": 2})
    assert str(info.value) == (
        "Unknown prompt source field(s): colour, size; valid fields: "
        "kind, name, config, split, prompt_column, column_map, system_prompt, max_rows."
    )


def test_blank_system_prompt_is_none():
    assert PromptSource(system_prompt="   ").system_prompt is None


# --------------------------------------------------------------------------------------------------------------------
# Files: every format gives the same dataset

ROWS = [{"prompt": "Add 2 and 3.", "answer": "5"}, {"prompt": "Add 4 and 4.", "answer": "8"}]


def _write_parquet(path):
    pq.write_table(pa.Table.from_pylist(ROWS), path)


@pytest.mark.parametrize(
    "filename, content",
    [
        ("set.csv", "prompt,answer\nAdd 2 and 3.,5\nAdd 4 and 4.,8\n"),
        ("set.CSV", "\ufeffprompt,answer\r\n\r\nAdd 2 and 3.,5\r\nAdd 4 and 4.,8\r\n"),  # BOM, CRLF, blank line
        ("set.json", json.dumps(ROWS)),
        ("set.json", json.dumps({"data": ROWS})),
        ("set.jsonl", jsonl(*ROWS) + "\n\n"),
        ("set.parquet", None),
    ],
)
def test_file_formats(tmp_path, filename, content):
    if content is None:
        _write_parquet(tmp_path / filename)
        result = load_prompts(PromptSource(kind="file", name=str(tmp_path / filename)))
    else:
        result = load_file(tmp_path, filename, content)
    assert result.dataset.to_list() == ROWS
    assert result.warnings == []
    assert not result.conversational


def test_csv_multiline_cells_and_long_non_prompt_cells(tmp_path):
    big = "y" * 200_000  # above the csv module's default 128 KiB field limit
    content = f'prompt,notes\n"Line one\nline two",{big}\nSecond,short\n'
    ds = load_file(tmp_path, "a.csv", content).dataset
    assert ds["prompt"] == ["Line one\nline two", "Second"]
    assert len(ds[0]["notes"]) == 200_000


@pytest.mark.parametrize(
    "prompt",
    [
        "😀🎉🚀🔥💯😂👍🏽🌍✨🥳",
        "مرحبا، كيف حالك اليوم؟ اكتب قصيدة قصيرة عن البحر.",
        "שלום! כתוב סיפור קצר על חתול.",
        "Mixed: hello مرحبا שלום 😀 — done.",
        "👨‍👩‍👧‍👦 family emoji with zero-width joiners",
    ],
)
@pytest.mark.parametrize("filename", ["p.csv", "p.jsonl", "p.json"])
def test_emoji_and_right_to_left_prompts_load(tmp_path, filename, prompt):
    content = {
        "p.csv": f'prompt\n"{prompt}"\n',
        "p.jsonl": jsonl({"prompt": prompt}),
        "p.json": json.dumps([{"prompt": prompt}]),
    }[filename]
    assert load_file(tmp_path, filename, content).dataset["prompt"] == [prompt]


# --------------------------------------------------------------------------------------------------------------------
# Files: bad input gives one clear DataError

BAD_FILES = [
    # (file name, content, expected substrings)
    (
        "q.csv",
        "question,solution\nWhat is 2+2?,4\n",
        ["no 'prompt' column", "its columns are: question, solution", "column_map question=prompt"],
    ),
    ("h.csv", "prompt,answer\n", ["The file 'h.csv' has no rows."]),
    ("e.json", "[]", ["The file 'e.json' has no rows."]),
    ("e.jsonl", "\n\n", ["The file 'e.jsonl' has no rows."]),
    ("n.jsonl", jsonl({"prompt": "ok"}, {"prompt": 42}), ["Line 2 of the file 'n.jsonl'", "a number (42)"]),
    ("b.jsonl", jsonl({"prompt": "ok"}, {"prompt": True}), ["Line 2", "a boolean as its prompt"]),
    ("d.json", json.dumps([{"prompt": "ok"}, {"prompt": {"text": "x"}}]), ["Row 2 of the file 'd.json'", "an object"]),
    ("z.json", json.dumps([{"prompt": "ok"}, {"prompt": None}]), ["Row 2 of the file 'z.json'", "missing or null"]),
    ("m.json", json.dumps([{"prompt": "ok"}, {"other": 1}]), ["Row 2", "missing or null"]),
    ("blank.csv", "prompt\nhello\n   \n", ["Line 3 of the file 'blank.csv' has an empty prompt."]),
    ("blank.jsonl", jsonl({"prompt": "a"}) + "\n" + jsonl({"prompt": ""}), ["Line 3 of the file", "an empty prompt"]),
    (
        "multi.csv",
        'prompt,answer\r\n"two\nlines",1\r\n,2\r\n',
        ["Line 4 of the file 'multi.csv' has an empty prompt."],
    ),
    (
        "bin.csv",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00",
        ["File 'bin.csv' looks like a binary file, not a valid CSV text file."],
    ),
    (
        "latin.csv",
        "prompt\nCafé au lait\n".encode("latin-1"),
        ["File 'latin.csv' is not valid UTF-8 text (byte 0xE9 at position 10)", "not a valid CSV"],
    ),
    ("u16.jsonl", jsonl({"prompt": "hi"}).encode("utf-16"), ["File 'u16.jsonl' is UTF-16 text; save it as UTF-8"]),
    (
        "broken.jsonl",
        jsonl({"prompt": "a"}, {"prompt": "b"}) + '{"prompt": "c"\n',
        ["Line 3 of the file 'broken.jsonl' is not valid JSON", "column 15"],
    ),
    ("list.jsonl", jsonl({"prompt": "a"}) + '["b"]\n', ["Line 2 of the file 'list.jsonl' is a list, not a JSON"]),
    ("bad.json", '[{"prompt": "a"},\n {"prompt": }]', ["not valid JSON (line 2, column 13"]),
    ("obj.json", '{"rows": []}', ['must hold a list of objects or {"data": [...]}, not a JSON object']),
    ("str.json", '["a", "b"]', ["Item 1 of the file 'str.json' is a string, not a JSON object."]),
    (
        "ragged.csv",
        "prompt,answer\na,1\nb,2,3\n",
        ["Line 3 of the file 'ragged.csv' has 3 fields but the header has 2"],
    ),
    ("dup.csv", "prompt,prompt\na,b\n", ["duplicate column names in its header: prompt"]),
    ("quote.csv", 'prompt\n"a"b"\n', ["The file 'quote.csv' is not a valid CSV (line 2"]),
    (
        "huge.csv",
        "prompt\nok\n" + "x" * 10_000_000 + "\n",
        ["Line 3 of the file 'huge.csv' has a prompt of 10,000,000 characters, over the 20,000 character limit."],
    ),
    ("notes.txt", "hello", ["unsupported type '.txt'; use .csv, .json, .jsonl, .parquet"]),
    ("noext", "hello", ["unsupported type '(no extension)'"]),
    ("fake.parquet", "not parquet at all", ["File 'fake.parquet' is not a valid Parquet file"]),
    ("emptymsgs.json", json.dumps([{"prompt": []}]), ["Row 1", "an empty list of chat messages"]),
    ("badmsg.json", json.dumps([{"prompt": [USER, {"role": "user"}]}]), ["Row 1", "message 2 of the prompt"]),
    ("role.json", json.dumps([{"prompt": [{"role": "robot", "content": "x"}]}]), ["unknown role 'robot'"]),
    (
        "mixed.jsonl",
        jsonl({"prompt": "plain"}, {"prompt": [USER]}),
        ["Line 2", "made of messages but line 1 has text", "all prompts must be plain text or all chat messages"],
    ),
    (
        "types.json",
        json.dumps([{"prompt": "a", "answer": 1}, {"prompt": "b", "answer": "two"}]),
        ["Column 'answer' of the file 'types.json' mixes value types"],
    ),
    ("nocols.json", "[{}, {}]", ["has rows but no columns"]),
]


@pytest.mark.parametrize("filename, content, expected", BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_bad_files(tmp_path, filename, content, expected):
    with pytest.raises(DataError) as info:
        load_file(tmp_path, filename, content)
    message = str(info.value)
    for part in expected:
        assert part in message
    assert "Traceback" not in message and "\n" not in message
    assert message.endswith((".", ")")), message


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(DataError, match=r"^File 'nope.csv' does not exist\.$"):
        load_prompts(PromptSource(kind="file", name=str(tmp_path / "nope.csv")))
    (tmp_path / "dir.csv").mkdir()
    with pytest.raises(DataError, match=r"^'dir.csv' is a folder, not a file\.$"):
        load_prompts(PromptSource(kind="file", name=str(tmp_path / "dir.csv")))


def test_size_limit_is_checked_before_reading(tmp_path, monkeypatch):
    path = tmp_path / "big.csv"
    with open(path, "wb") as f:  # sparse: 60 MB on paper, nothing to read
        f.truncate(60 * MB)
    monkeypatch.setattr(type(path), "read_bytes", lambda self: pytest.fail("the file was read"))
    monkeypatch.delenv("PLAYGROUND_MAX_FILE_MB", raising=False)
    with pytest.raises(DataError, match=r"^File 'big.csv' is 60\.0 MB, over the 50\.0 MB limit\.$"):
        load_prompts(PromptSource(kind="file", name=str(path)))


@pytest.mark.parametrize(
    "env, message",
    [("1", "File 'p.jsonl' is 1.5 MB, over the 1.0 MB limit."), ("0.5", "is 1.5 MB, over the 512.0 KB limit.")],
)
def test_size_limit_env_override(tmp_path, monkeypatch, env, message):
    monkeypatch.setenv("PLAYGROUND_MAX_FILE_MB", env)
    with pytest.raises(DataError) as info:
        load_file(tmp_path, "p.jsonl", jsonl({"prompt": "x" * (3 * MB // 2 - 15)}))
    assert message in str(info.value)


def test_size_limit_env_override_raises_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_MAX_FILE_MB", str(10 / MB))
    with pytest.raises(DataError, match="over the 10 bytes limit"):
        load_file(tmp_path, "p.jsonl", jsonl({"prompt": "hello"}))
    monkeypatch.setenv("PLAYGROUND_MAX_FILE_MB", "1")
    assert load_file(tmp_path, "p.jsonl", jsonl({"prompt": "hello"})).dataset["prompt"] == ["hello"]


def test_prompt_at_the_length_limit_is_fine(tmp_path):
    ds = load_file(tmp_path, "p.jsonl", jsonl({"prompt": "x" * MAX_PROMPT_CHARS})).dataset
    assert len(ds[0]["prompt"]) == MAX_PROMPT_CHARS


def test_conversation_over_the_length_limit(tmp_path):
    half = {"role": "user", "content": "x" * (MAX_PROMPT_CHARS // 2 + 1)}
    with pytest.raises(DataError, match="Row 1 of the file 'c.json' has a prompt of 20,002 characters"):
        load_file(tmp_path, "c.json", json.dumps([{"prompt": [half, half]}]))


# --------------------------------------------------------------------------------------------------------------------
# Columns, rows, system prompt


def test_prompt_column_and_column_map(tmp_path):
    content = jsonl({"question": "What is 1+1?", "solution": "2", "id": 7})
    result = load_file(tmp_path, "q.jsonl", content, prompt_column="question", column_map={"solution": "answer"})
    assert result.dataset.to_list() == [{"prompt": "What is 1+1?", "answer": "2", "id": 7}]
    mapped = load_file(tmp_path, "q.jsonl", content, column_map={"question": "prompt"})
    assert mapped.dataset.column_names == ["prompt", "solution", "id"]


def test_column_map_replacing_a_column_warns(tmp_path):
    content = jsonl({"prompt": "old", "question": "new"})
    result = load_file(tmp_path, "q.jsonl", content, prompt_column="question")
    assert result.dataset.to_list() == [{"prompt": "new"}]
    assert result.warnings == ["Column 'prompt' was replaced by column 'question'."]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"prompt_column": "text"},
            "The file 'q.jsonl' has no 'text' column (its columns are: question, solution); "
            "set prompt_column to the column that holds the prompts, e.g. prompt_column=question, "
            "or map it: column_map question=prompt.",
        ),
        (
            {"prompt_column": "question", "column_map": {"answer": "solution_text"}},
            "The column mapping renames 'answer', but the file 'q.jsonl' only has: question, solution.",
        ),
        (
            {"column_map": {"question": "prompt", "solution": "prompt"}},
            "The column mapping maps several columns to 'prompt'.",
        ),
        (
            {"prompt_column": "question", "column_map": {"question": "q"}},
            "Column 'question' cannot be both the prompt and 'q'.",
        ),
    ],
)
def test_column_errors(tmp_path, kwargs, message):
    with pytest.raises(DataError) as info:
        load_file(tmp_path, "q.jsonl", jsonl({"question": "Q", "solution": "S"}), **kwargs)
    assert str(info.value) == message


def test_max_rows_keeps_first_rows_and_warns(tmp_path):
    rows = [{"prompt": f"p{i}"} for i in range(12)]
    result = load_file(tmp_path, "p.jsonl", jsonl(*rows), max_rows=5)
    assert result.dataset["prompt"] == ["p0", "p1", "p2", "p3", "p4"]
    assert result.warnings == ["The file 'p.jsonl' has more than 5 rows; only the first 5 are used."]


def test_rows_past_max_rows_are_not_checked(tmp_path):
    result = load_file(tmp_path, "p.jsonl", jsonl({"prompt": "ok"}, {"prompt": ""}), max_rows=1)
    assert result.dataset["prompt"] == ["ok"]


@pytest.mark.parametrize(
    "prompt, system_prompt, expected",
    [
        ("Hi", None, "Hi"),
        ("Hi", "Be brief.", [SYS, USER]),
        ([USER], None, [USER]),
        ([USER], "Be brief.", [SYS, USER]),
        ([{"role": "system", "content": "Mine."}, USER], "Be brief.", [{"role": "system", "content": "Mine."}, USER]),
    ],
)
def test_system_prompt_wrapping(tmp_path, prompt, system_prompt, expected):
    content = json.dumps([{"prompt": prompt, "answer": "1"}])
    result = load_file(tmp_path, "p.json", content, system_prompt=system_prompt)
    assert result.dataset.to_list() == [{"prompt": expected, "answer": "1"}]
    assert result.conversational == isinstance(expected, list)


def test_conversational_messages_are_normalized(tmp_path):
    prompt = [{"role": "user", "content": "Hi", "name": "bob"}]
    assert load_file(tmp_path, "p.json", json.dumps([{"prompt": prompt}])).dataset["prompt"] == [[USER]]


def test_parquet_conversational(tmp_path):
    path = tmp_path / "c.parquet"
    pq.write_table(pa.Table.from_pylist([{"prompt": [SYS, USER]}, {"prompt": [USER]}]), path)
    result = load_prompts(PromptSource(kind="file", name=str(path)))
    assert result.dataset["prompt"] == [[SYS, USER], [USER]]
    assert result.conversational


# --------------------------------------------------------------------------------------------------------------------
# Hub


@pytest.fixture
def offline(monkeypatch, tmp_path):
    import huggingface_hub.constants

    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "cache")


def test_hub_unreachable_made_up_id(offline):
    start = time.monotonic()
    with pytest.raises(DataError) as info:
        load_prompts(PromptSource(kind="hub", name="nobody-xyz/made-up-prompts-123"))
    assert time.monotonic() - start < 30
    assert str(info.value) == (
        "Could not load dataset 'nobody-xyz/made-up-prompts-123' from the Hugging Face Hub: "
        "offline mode is on (HF_HUB_OFFLINE) and it is not cached."
    )
    assert isinstance(info.value, PlaygroundError)


@pytest.mark.parametrize("streaming", [False, True])
def test_hub_code_path_with_local_dataset_folder(tmp_path, monkeypatch, offline, streaming):
    # `load_dataset` also takes a local folder; offline it uses the regular path, online it streams.
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", not streaming)
    folder = tmp_path / "ds"
    folder.mkdir()
    (folder / "train.jsonl").write_text(jsonl(*[{"question": f"q{i}", "solution": str(i)} for i in range(4)]))
    source = PromptSource(kind="hub", name=str(folder), prompt_column="question", max_rows=3)
    result = load_prompts(source)
    assert result.dataset.to_list() == [{"prompt": f"q{i}", "solution": str(i)} for i in range(3)]
    assert result.warnings == [f"The dataset '{folder}' has more than 3 rows; only the first 3 are used."]
    with pytest.raises(DataError) as info:
        load_prompts(PromptSource(kind="hub", name=str(folder), split="test"))
    message = str(info.value)
    assert message.startswith(f"Could not load dataset '{folder}' (split 'test'): ")
    assert "'train'" in message and "\n" not in message  # the available splits


# --------------------------------------------------------------------------------------------------------------------
# Messages and rendering


@pytest.mark.parametrize(
    "prompt, system_prompt, expected",
    [
        ("Hi", None, [USER]),
        ("Hi", "Be brief.", [SYS, USER]),
        ([USER], "Be brief.", [SYS, USER]),
        ([SYS, USER], "Other.", [SYS, USER]),
        ([USER], "", [USER]),
    ],
)
def test_to_messages(prompt, system_prompt, expected):
    assert to_messages(prompt, system_prompt) == expected


def test_to_messages_does_not_mutate_input():
    prompt = [USER]
    to_messages(prompt, "Be brief.")
    assert prompt == [USER]


TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


@pytest.fixture(scope="module")
def make_tokenizer():
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    def make(chat_template):
        backend = Tokenizer(models.WordLevel({"[UNK]": 0, "hi": 1}, unk_token="[UNK]"))
        backend.pre_tokenizer = pre_tokenizers.Whitespace()
        tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, unk_token="[UNK]")
        tokenizer.chat_template = chat_template
        return tokenizer

    return make


@pytest.mark.parametrize(
    "template, prompt, use_chat_template, expected",
    [
        (TEMPLATE, "Hi", True, "<|user|>Hi\n<|assistant|>"),
        (TEMPLATE, "Hi", False, "Hi"),
        (TEMPLATE, [SYS, USER], True, "<|system|>Be brief.\n<|user|>Hi\n<|assistant|>"),
        (TEMPLATE, [SYS, USER], False, "<|system|>Be brief.\n<|user|>Hi\n<|assistant|>"),
        (None, "Hi", True, "Hi"),
        (None, [SYS, USER], True, "Be brief.\nHi"),
    ],
)
def test_render_prompt(make_tokenizer, template, prompt, use_chat_template, expected):
    assert render_prompt(make_tokenizer(template), prompt, use_chat_template=use_chat_template) == expected


def test_render_prompt_template_error(make_tokenizer):
    tokenizer = make_tokenizer("{{ raise_exception('Conversation roles must alternate') }}")
    with pytest.raises(DataError, match=r"^The model's chat template rejected this prompt: .*roles must alternate\.$"):
        render_prompt(tokenizer, "Hi")


def test_broken_jsonl_message_reads_cleanly(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"prompt": "ok"}\n{"prompt": "unfinished\n', encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_prompts(PromptSource(kind="file", name=str(path)))
    assert str(info.value) == (
        "Line 2 of the file 'broken.jsonl' is not valid JSON (Unterminated string starting at column 12)."
    )
