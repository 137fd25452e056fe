import pytest

from playground.errors import ModelLoadError
from playground.models import EMBEDDED, ModelCache, ModelSource, embedded_cache_dir, load_model


class TestModelSource:
    @pytest.mark.parametrize(
        "value,kind,name",
        [
            (None, EMBEDDED, EMBEDDED),
            ("", EMBEDDED, EMBEDDED),
            ("embedded", EMBEDDED, EMBEDDED),
            ("HuggingFaceTB/SmolLM2-135M-Instruct", "hub", "HuggingFaceTB/SmolLM2-135M-Instruct"),
            ("Qwen/Qwen2.5-0.5B-Instruct", "hub", "Qwen/Qwen2.5-0.5B-Instruct"),
            ("gpt2", "hub", "gpt2"),
        ],
    )
    def test_parse(self, value, kind, name):
        source = ModelSource.parse(value)
        assert (source.kind, source.name) == (kind, name)

    def test_existing_folder_is_local(self, tmp_path):
        assert ModelSource.parse(str(tmp_path)) == ModelSource("local", str(tmp_path.resolve()))

    @pytest.mark.parametrize("value,match", [("./no/such/folder", "does not exist"), ("a b/c d", "neither")])
    def test_bad_values(self, value, match):
        with pytest.raises(ModelLoadError, match=match):
            ModelSource.parse(value)


class TestLoading:
    @pytest.mark.timeout(120)  # no retries against an unreachable Hub (bench/failure_paths.py prints the time)
    def test_hub_unreachable_is_one_sentence(self, monkeypatch):
        monkeypatch.setenv("HF_HUB_OFFLINE", "1")
        with pytest.raises(ModelLoadError) as info:
            load_model("someone/definitely-not-a-real-model-xyz")
        message = str(info.value)
        assert "'someone/definitely-not-a-real-model-xyz'" in message
        assert "cannot be reached" in message
        assert "\n" not in message and "Traceback" not in message

    def test_folder_without_config(self, tmp_path):
        with pytest.raises(ModelLoadError, match="no config.json"):
            load_model(str(tmp_path))

    def test_local_folder_loads(self, tiny_model_dir):
        model, tokenizer = load_model(str(tiny_model_dir))
        assert model.config.num_hidden_layers == 2
        assert tokenizer.padding_side == "left" and tokenizer.pad_token is not None
        assert (
            next(model.parameters()).dtype.is_floating_point and str(next(model.parameters()).dtype) == "torch.float32"
        )

    def test_model_cache_reuses(self, tiny_model_dir):
        cache = ModelCache()
        first = cache.get(str(tiny_model_dir))
        assert cache.get(str(tiny_model_dir)) is first


class TestEmbedded:
    def test_cache_is_keyed_by_hash_and_complete(self, embedded_dir):
        assert embedded_dir == embedded_cache_dir()
        assert embedded_dir.name.startswith("smollm2-135m-instruct-") and len(embedded_dir.name.split("-")[-1]) == 16
        assert (embedded_dir / "config.json").is_file() and (embedded_dir / "model.safetensors").is_file()
        assert not [p for p in embedded_dir.parent.iterdir() if p.name.startswith(".tmp-")]

    def test_embedded_loads_and_generates(self, embedded_dir):
        model, tokenizer = load_model("embedded")  # bench/failure_paths.py prints how long a cached load takes
        assert model.config.vocab_size == 49152
        # The lm_head is tied to the embeddings, as in the original model.
        assert model.lm_head.weight.data_ptr() == model.model.embed_tokens.weight.data_ptr()
        text = tokenizer.apply_chat_template(
            [{"role": "user", "content": "What is the capital of France?"}], add_generation_prompt=True, tokenize=False
        )
        ids = tokenizer(text, return_tensors="pt")
        out = model.generate(**ids, max_new_tokens=12, do_sample=False)
        answer = tokenizer.decode(out[0, ids["input_ids"].shape[1] :], skip_special_tokens=True)
        assert "Paris" in answer


CHAT = [{"role": "user", "content": "Say hi."}]


@pytest.mark.integration
def test_each_tokenizer_is_its_own_and_reads_as_a_fresh_one(tiny_model_dir):
    from transformers import AutoTokenizer

    from playground.models import load_tokenizer

    source = ModelSource.parse(str(tiny_model_dir))
    first, second = load_tokenizer(source), load_tokenizer(source)
    assert first is not second and first.backend_tokenizer is not second.backend_tokenizer
    first.padding_side, first.pad_token = "right", first.bos_token
    first(["a b c", "a"], padding=True, truncation=True, max_length=2)  # sets the backend's padding and truncation
    third = load_tokenizer(source)
    fresh = AutoTokenizer.from_pretrained(str(tiny_model_dir))
    assert (third.padding_side, third.pad_token) == ("left", fresh.pad_token or fresh.eos_token)
    text = "Hello there, 你好 <|im_start|> 12345"
    assert third(text)["input_ids"] == fresh(text)["input_ids"]
    batch = third(["a b c", "a"], padding=True)["input_ids"]
    assert len(batch[0]) > 2 and batch[1][0] == third.pad_token_id != batch[1][-1]  # left padding, no truncation
    assert third.apply_chat_template(CHAT, tokenize=False) == fresh.apply_chat_template(CHAT, tokenize=False)


@pytest.mark.integration
def test_a_changed_tokenizer_file_is_read_again(tiny_model_dir, tmp_path):
    import json
    import shutil

    from playground.models import load_tokenizer

    folder = tmp_path / "model"
    shutil.copytree(tiny_model_dir, folder)
    source = ModelSource.parse(str(folder))
    assert "<|im_start|>" in load_tokenizer(source).apply_chat_template(CHAT, tokenize=False)
    config_path = folder / "tokenizer_config.json"
    config = json.loads(config_path.read_text())
    config["chat_template"] = "{% for m in messages %}[{{ m['content'] }}]{% endfor %}"
    (folder / "chat_template.jinja").unlink(missing_ok=True)
    config_path.write_text(json.dumps(config))
    assert load_tokenizer(source).apply_chat_template(CHAT, tokenize=False) == "[Say hi.]"
