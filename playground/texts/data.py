"""Prompt sets and models (playground/data/, playground/models.py): what a file, a Hub dataset or a model id can get
wrong. `{what}` is a phrase of its own ("file 'x.csv'"), rendered in the same language; file, set and column names
stay as they are."""

TEXTS: dict[str, tuple[str, str]] = {
    # what a message is about, and where in it
    "data.what.builtin": ("built-in set {name!r}", "内置提示词集 {name!r}"),
    "data.what.file": ("file {name!r}", "文件 {name!r}"),
    "data.what.dataset": ("dataset {name!r}", "数据集 {name!r}"),
    "data.at.line": ("Line {line} of the {what}", "{what} 的第 {line} 行"),
    "data.at.row": ("Row {row} of the {what}", "{what} 的第 {row} 行"),
    "data.loc.line": ("line {line}", "第 {line} 行"),
    "data.loc.row": ("row {row}", "第 {row} 行"),
    "data.kind.boolean": ("boolean", "布尔值"),
    "data.kind.number": ("number ({value!r})", "数字（{value!r}）"),
    "data.kind.string": ("string", "字符串"),
    "data.kind.list": ("list", "列表"),
    "data.kind.object": ("object", "对象"),
    "data.kind.null": ("null", "null（空值）"),
    "data.kind.other": ("{name}", "{name} 类型的值"),
    "data.article.a": ("a {kind}", "{kind}"),
    "data.article.an": ("an {kind}", "{kind}"),
    "data.more_than": ("more than {count:,}", "超过 {count:,}"),
    # the prompt source itself
    "data.column_map": (
        "column_map {text!r} is not readable; write it as existing=new, e.g. question=prompt.",
        "无法读取 column_map {text!r}；请写成 原列名=新列名，例如 question=prompt。",
    ),
    "data.kind_unknown": (
        "Unknown prompt source kind {kind!r}; use one of: {valid}.",
        "未知的提示词来源类型 {kind!r}；请使用其中之一：{valid}。",
    ),
    "data.no_name": (
        "The prompt source needs a name: a built-in set, a file path or a Hub dataset id.",
        "提示词来源需要一个名称：内置提示词集、文件路径或 Hub 数据集 id。",
    ),
    "data.max_rows": (
        "max_rows must be a whole number of at least 1, got {value!r}.",
        "max_rows 必须是不小于 1 的整数，实际为 {value!r}。",
    ),
    "data.column_map_type": (
        "The column mapping must map existing column names to new names, e.g. solution=answer.",
        "列映射必须把已有的列名映射为新列名，例如 solution=answer。",
    ),
    "data.unknown_fields": (
        "Unknown prompt source field(s): {names}; valid fields: {valid}.",
        "未知的提示词来源字段：{names}；可用的字段：{valid}。",
    ),
    "data.chat_template": (
        "The model's chat template rejected this prompt: {detail}.",
        "模型的对话模板拒绝了这个提示词：{detail}。",
    ),
    # files and uploads
    "data.no_file": ("File {name!r} does not exist.", "文件 {name!r} 不存在。"),
    "data.not_plain": (
        "{name!r} is not a plain file (a link, folder or device is not read).",
        "{name!r} 不是普通文件（不会读取链接、文件夹或设备）。",
    ),
    "data.upload_session": ("An upload needs a browser session; reload the page.", "上传需要浏览器会话；请刷新页面。"),
    "data.upload_quota": (
        "This browser session has used its upload quota ({files} files, {size} in all, PLAYGROUND_UPLOAD_QUOTA_MB); "
        "reload the page to start over.",
        "这个浏览器会话已用完上传配额（{files} 个文件，共 {size}，PLAYGROUND_UPLOAD_QUOTA_MB）；请刷新页面重新开始。",
    ),
    "data.not_uploaded": (
        "This app is public, so a prompt file must be uploaded through the page; paths on the server are not read.",
        "这是公开的应用，提示词文件必须通过页面上传；不会读取服务器上的路径。",
    ),
    "data.public_hub_id": (
        "This app is public: {name!r} is not a Hugging Face dataset id (org/name); folders of the server are not "
        "read.",
        "这是公开的应用：{name!r} 不是 Hugging Face 数据集 id（org/name）；不会读取服务器上的文件夹。",
    ),
    "data.no_rows": ("The {what} has no rows.", "{what} 中没有数据行。"),
    "data.rows_capped": (
        "The {what} has {count} rows; only the first {max:,} are used.",
        "{what} 有 {count} 行；只使用前 {max:,} 行。",
    ),
    "data.unknown_set": (
        "Unknown built-in prompt set {name!r}; valid sets: {valid}.",
        "未知的内置提示词集 {name!r}；可用的有：{valid}。",
    ),
    "data.file_missing": ("File {label} does not exist.", "文件 {label} 不存在。"),
    "data.file_folder": ("{label} is a folder, not a file.", "{label} 是文件夹，不是文件。"),
    "data.file_type": (
        "File {label} has an unsupported type {suffix}; use {allowed}.",
        "文件 {label} 的类型 {suffix} 不受支持；请使用 {allowed}。",
    ),
    "data.no_extension": ("'(no extension)'", "（无扩展名）"),
    "data.file_size": (
        "File {label} is {size}, over the {limit} limit.",
        "文件 {label} 大小为 {size}，超过了 {limit} 的上限。",
    ),
    "data.utf16": (
        "File {label} is UTF-16 text; save it as UTF-8 {kind} and try again.",
        "文件 {label} 是 UTF-16 文本；请另存为 UTF-8 编码的 {kind} 后再试。",
    ),
    "data.binary": (
        "File {label} looks like a binary file, not a valid {kind} text file.",
        "文件 {label} 看起来是二进制文件，不是有效的 {kind} 文本文件。",
    ),
    "data.not_utf8": (
        "File {label} is not valid UTF-8 text (byte 0x{byte} at position {position}), so it is not a valid {kind}; "
        "save it as UTF-8.",
        "文件 {label} 不是有效的 UTF-8 文本（位置 {position} 处的字节 0x{byte}），所以不是有效的 {kind}；"
        "请另存为 UTF-8。",
    ),
    # parsing
    "data.csv_duplicates": (
        "The {what} has duplicate column names in its header: {names}.",
        "{what} 的表头中有重复的列名：{names}。",
    ),
    "data.csv_fields": (
        "Line {line} of the {what} has {count} fields but the header has {header}, so it is not a valid CSV.",
        "{what} 的第 {line} 行有 {count} 个字段，而表头有 {header} 个，所以不是有效的 CSV。",
    ),
    "data.csv_invalid": (
        "The {what} is not a valid CSV (line {line}: {detail}).",
        "{what} 不是有效的 CSV（第 {line} 行：{detail}）。",
    ),
    "data.json_invalid": (
        "The {what} is not valid JSON (line {line}, column {column}: {detail}).",
        "{what} 不是有效的 JSON（第 {line} 行第 {column} 列：{detail}）。",
    ),
    "data.json_shape": (
        'The {what} must hold a list of objects or {{"data": [...]}}, not a JSON {kind}.',
        '{what} 必须是对象列表或 {{"data": [...]}}，而不是 JSON {kind}。',
    ),
    "data.json_item": (
        "Item {item} of the {what} is {kind}, not a JSON object.",
        "{what} 的第 {item} 项是{kind}，不是 JSON 对象。",
    ),
    "data.jsonl_invalid": (
        "Line {line} of the {what} is not valid JSON ({detail}).",
        "{what} 的第 {line} 行不是有效的 JSON（{detail}）。",
    ),
    "data.jsonl_item": (
        "Line {line} of the {what} is {kind}, not a JSON object.",
        "{what} 的第 {line} 行是{kind}，不是 JSON 对象。",
    ),
    "data.parquet_size": (
        "File {name!r} holds {size} of data once decompressed, over the {limit} a Parquet file may hold here.",
        "文件 {name!r} 解压后有 {size} 数据，超过了这里 Parquet 文件的上限 {limit}。",
    ),
    "data.parquet_invalid": (
        "File {name!r} is not a valid Parquet file ({detail}).",
        "文件 {name!r} 不是有效的 Parquet 文件（{detail}）。",
    ),
    # the Hub
    "data.hub_missing": (
        "Dataset {name!r} was not found on the Hugging Face Hub; check the id, or log in if it is private.",
        "在 Hugging Face Hub 上找不到数据集 {name!r}；请检查 id，如果是私有数据集请先登录。",
    ),
    "data.hub_offline": (
        "Could not load dataset {name!r} from the Hugging Face Hub: offline mode is on (HF_HUB_OFFLINE) and it is "
        "not cached.",
        "无法从 Hugging Face Hub 加载数据集 {name!r}：已开启离线模式（HF_HUB_OFFLINE），且本地没有缓存。",
    ),
    "data.hub_unreachable": (
        "Could not load dataset {name!r} from the Hugging Face Hub: the network is unreachable.",
        "无法从 Hugging Face Hub 加载数据集 {name!r}：网络不可达。",
    ),
    "data.hub_failed": (
        "Could not load dataset {name!r} (split {split!r}): {detail}.",
        "无法加载数据集 {name!r}（划分 {split!r}）：{detail}。",
    ),
    "data.hub_failed_config": (
        "Could not load dataset {name!r} (split {split!r}, config {config!r}): {detail}.",
        "无法加载数据集 {name!r}（划分 {split!r}，配置 {config!r}）：{detail}。",
    ),
    # columns and prompts
    "data.no_columns": ("The {what} has rows but no columns.", "{what} 有数据行但没有列。"),
    "data.no_prompt_column": (
        "The {what} has no {column!r} column (its columns are: {columns}); set prompt_column to the column that "
        "holds the prompts, e.g. prompt_column={guess}, or map it: column_map {guess}=prompt.",
        "{what} 中没有 {column!r} 列（现有的列：{columns}）；请把 prompt_column 设为存放提示词的列，"
        "例如 prompt_column={guess}，或用 column_map 映射：{guess}=prompt。",
    ),
    "data.prompt_and_mapped": (
        "Column {column!r} cannot be both the prompt and {target!r}.",
        "列 {column!r} 不能既是提示词又是 {target!r}。",
    ),
    "data.map_missing": (
        "The column mapping renames {names}, but the {what} only has: {columns}.",
        "列映射要重命名 {names}，但 {what} 中只有：{columns}。",
    ),
    "data.map_clash": (
        "The column mapping maps several columns to {names}.",
        "列映射把多个列映射到了 {names}。",
    ),
    "data.column_replaced": ("Column {new!r} was replaced by column {old!r}.", "列 {new!r} 已被列 {old!r} 替换。"),
    "data.prompt_missing": (
        "{at} has no prompt (the value is missing or null).",
        "{at}没有提示词（值缺失或为 null）。",
    ),
    "data.prompt_empty": ("{at} has an empty prompt.", "{at}的提示词为空。"),
    "data.prompt_no_messages": (
        "{at} has an empty list of chat messages as its prompt.",
        "{at}的提示词是空的对话消息列表。",
    ),
    "data.prompt_message_shape": (
        '{at}: message {index} of the prompt is not a {{"role": ..., "content": ...}} object with text.',
        '{at}：提示词的第 {index} 条消息不是带文本的 {{"role": ..., "content": ...}} 对象。',
    ),
    "data.prompt_role": (
        "{at}: message {index} has unknown role {role!r}; use one of: {valid}.",
        "{at}：第 {index} 条消息的角色 {role!r} 未知；请使用其中之一：{valid}。",
    ),
    "data.prompt_type": (
        "{at} has {kind} as its prompt, not text or a list of chat messages.",
        "{at}的提示词是{kind}，不是文本或对话消息列表。",
    ),
    "data.prompt_length": (
        "{at} has a prompt of {length:,} characters, over the {max:,} character limit.",
        "{at}的提示词有 {length:,} 个字符，超过了 {max:,} 个字符的上限。",
    ),
    "data.prompt_mixed": (
        "{at} has a prompt made of {kind} but {first_at} has {first_kind}; all prompts must be plain text or all "
        "chat messages.",
        "{at}的提示词是{kind}，而{first_at}的是{first_kind}；提示词必须全是纯文本，或全是对话消息。",
    ),
    "data.prompt_kind.text": ("text", "文本"),
    "data.prompt_kind.messages": ("messages", "对话消息"),
    "data.column_types": (
        "Column {column!r} of the {what} mixes value types (e.g. numbers and text); make them all one type.",
        "{what} 的列 {column!r} 混用了多种值类型（例如数字和文本）；请统一为一种类型。",
    ),
    "data.not_a_table": (
        "The {what} could not be turned into a table; check that each column has one value type.",
        "{what} 无法转换成表格；请检查每一列是否只有一种值类型。",
    ),
    # models
    # loading a model: the progress bar's messages
    "model.progress.ready": ("Embedded model ready", "内置模型已就绪"),
    "model.progress.converting": (
        "First start: converting the embedded SmolLM2 model (about 35 s, once)",
        "首次启动：正在转换内置的 SmolLM2 模型（约 35 秒，只需一次）",
    ),
    "model.progress.tokenizer": ("Tokenizer converted; dequantizing the weights", "分词器已转换；正在反量化权重"),
    "model.progress.weights": ("Weights dequantized; writing safetensors", "权重已反量化；正在写入 `safetensors`"),
    "model.progress.loading": ("Loading {label}", "正在加载 {label}"),
    "model.progress.loaded": ("Loaded {label}", "已加载 {label}"),
    # the SFT warm-up's examples (playground/training/warmup.py)
    "warmup.building": (
        "Building warm-up examples from the base model's answers",
        "正在用基座模型的生成结果生成预热示例",
    ),
    "warmup.none_built": (
        "The SFT warm-up could not build examples from the model's answers; give a .jsonl file.",
        "SFT 预热无法从模型的生成结果中生成示例；请给出一个 .jsonl 文件。",
    ),
    "warmup.unreadable": ("Cannot read the warm-up examples {path}: {error}.", "无法读取预热示例 {path}：{error}。"),
    "warmup.json": (
        "{path} line {line} is not valid JSON ({error}).",
        "{path} 第 {line} 行不是有效的 JSON（{error}）。",
    ),
    "warmup.row": (
        "{path} line {line} needs 'prompt' and 'completion' texts.",
        "{path} 第 {line} 行需要 'prompt' 和 'completion' 两段文本。",
    ),
    "warmup.too_few": (
        "{path} holds {count} warm-up example(s); give at least 2.",
        "{path} 中有 {count} 个预热示例；至少需要 2 个。",
    ),
    "model.no_folder": ("Model folder {name!r} does not exist.", "模型文件夹 {name!r} 不存在。"),
    "model.bad_id": (
        "Model {name!r} is neither an existing folder nor a valid Hugging Face Hub id.",
        "模型 {name!r} 既不是已有的文件夹，也不是有效的 Hugging Face Hub id。",
    ),
    "model.embedded_missing": (
        "The embedded model is not installed; install it with `{hint}`.",
        "没有安装内置模型；请用 `{hint}` 安装。",
    ),
    "model.embedded_file": (
        "The embedded model file {file} is missing; reinstall with `{hint}`.",
        "缺少内置模型文件 {file}；请用 `{hint}` 重新安装。",
    ),
    "model.no_config": (
        "Folder {name} has no config.json, so it is not a transformers model folder.",
        "文件夹 {name} 中没有 config.json，所以不是 transformers 模型文件夹。",
    ),
    "model.gated": (
        "Could not load model {name!r}: it is gated; accept its licence on the Hub and set HF_TOKEN.",
        "无法加载模型 {name!r}：它需要授权；请在 Hub 上接受其许可协议并设置 HF_TOKEN。",
    ),
    "model.not_found": (
        "Could not load model {name!r}: no such model on the Hugging Face Hub (check the id, or set HF_TOKEN).",
        "无法加载模型 {name!r}：Hugging Face Hub 上没有这个模型（请检查 id，或设置 HF_TOKEN）。",
    ),
    "model.invalid_id": (
        "Could not load model {name!r}: it is not a valid Hub id or an existing folder.",
        "无法加载模型 {name!r}：它既不是有效的 Hub id，也不是已有的文件夹。",
    ),
    "model.offline": (
        "Could not load model {name!r}: the Hugging Face Hub cannot be reached (HF_HUB_OFFLINE is set) and the model "
        "is not in the local cache.",
        "无法加载模型 {name!r}：无法连接 Hugging Face Hub（已设置 HF_HUB_OFFLINE），且本地缓存中没有该模型。",
    ),
    "model.unreachable": (
        "Could not load model {name!r}: the Hugging Face Hub cannot be reached and the model is not in the local "
        "cache.",
        "无法加载模型 {name!r}：无法连接 Hugging Face Hub，且本地缓存中没有该模型。",
    ),
    "model.folder_failed": (
        "Could not load the model in folder {name}: {detail}",
        "无法加载文件夹 {name} 中的模型：{detail}",
    ),
    "model.failed": ("Could not load model {name!r}: {detail}", "无法加载模型 {name!r}：{detail}"),
}
