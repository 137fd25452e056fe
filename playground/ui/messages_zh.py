"""Chinese for the engine's messages: the engine raises one English sentence (`PlaygroundError`), and the UI shows it
in the visitor's language. Each entry is an English template, with `{name}` where the message carries a value, and
its Chinese; `translate_error` matches a message against the templates and fills the Chinese in. A message that
matches none is shown as it is (the test in tests/ui/test_i18n.py lists the messages a first session meets).
"""

import re
from functools import lru_cache


# The hint of playground/sandbox/custom.py's CHAT_HINT, which ends several messages.
_CHAT_HINT = (
    "With a system prompt or a conversational dataset, TRL hands each completion over as a list of messages: read "
    'the text with c if isinstance(c, str) else c[-1]["content"], or set completions_as_text.'
)
_CHAT_HINT_ZH = (
    "有系统提示词或对话式数据集时，TRL 把每个生成结果作为消息列表传入："
    '用 c if isinstance(c, str) else c[-1]["content"] 读取文本，或设置 completions_as_text。'
)


MESSAGES: tuple[tuple[str, str], ...] = (
    # playground/sandbox/client.py: custom rewards in the sandbox
    (
        "Reward {name} must return a list of floats, got {got} (a generator: wrap it in list(...)).",
        "奖励 {name} 必须返回浮点数列表，实际返回了 {got}（这是生成器：请用 list(...) 包起来）。",
    ),
    ("Reward {name} must return a list of floats, got {got}.", "奖励 {name} 必须返回浮点数列表，实际返回了 {got}。"),
    (
        "Reward {name} returned {count} values for {n} completions.",
        "奖励 {name} 为 {n} 个生成结果返回了 {count} 个值。",
    ),
    ("Reward {name} timed out after {s} s.", "奖励 {name} 超时（{s} 秒）。"),
    ("Loading the custom code timed out after {s} s.", "加载自定义代码超时（{s} 秒）。"),
    ("Reward {name} exceeded the {mb} MB memory limit.", "奖励 {name} 超出了 {mb} MB 的内存上限。"),
    ("Loading the custom code exceeded the {mb} MB memory limit.", "加载自定义代码超出了 {mb} MB 的内存上限。"),
    ("Reward {name} raised {error}", "奖励 {name} 抛出了 {error}"),
    ("Loading the custom code raised {error}", "加载自定义代码时抛出了 {error}"),
    # playground/training/health.py: the live alerts, with their reward names and figures
    (
        "In the last {k} steps, all of the groups gave every completion the same reward, so GRPO has no advantage "
        "to learn from.",
        "最近 {k} 步里，所有组都给每个生成结果打了同样的分，GRPO 没有可学习的优势。",
    ),
    (
        "In the last {k} steps, at least {pct} of the groups gave every completion the same reward, so GRPO has no "
        "advantage to learn from.",
        "最近 {k} 步里，至少 {pct} 的组给每个生成结果打了同样的分，GRPO 没有可学习的优势。",
    ),
    (
        "Over the last {k} steps, {pct} of the groups on average gave every completion the same reward, so GRPO has "
        "almost no advantage to learn from.",
        "最近 {k} 步里，平均 {pct} 的组给每个生成结果打了同样的分，GRPO 几乎没有可学习的优势。",
    ),
    (
        "Make the reward more graded (partial credit instead of pass/fail), or raise temperature or num_generations "
        "so the completions of a group differ.",
        "让奖励更有层次（给部分分，而不是只分对错），或调高 temperature 或 num_generations，让组内生成结果有差异。",
    ),
    (
        "No weighting can help a reward that never varies; use a cold start: an SFT warm-up (sft_warmup_steps), a "
        "completion prefix such as the first tag (completion_prefix) or a partial-credit reward (tag_layout).",
        "权重帮不了一个从不变化的奖励；请用冷启动：SFT 热身（sft_warmup_steps）、以第一个标签作为生成前缀"
        "（completion_prefix），或给部分分的奖励（tag_layout）。",
    ),
    (
        "{listed} gave every completion the same score in all {steps} steps, so it adds nothing to the advantages, "
        "whatever the weights.",
        "{listed} 在全部 {steps} 步里给每个生成结果打了同样的分，无论权重多少，它对优势都没有贡献。",
    ),
    (
        "{listed} gave every completion the same score in all {steps} steps, so they add nothing to the advantages, "
        "whatever the weights.",
        "{listed} 在全部 {steps} 步里给每个生成结果打了同样的分，无论权重多少，它们对优势都没有贡献。",
    ),
    (
        "In the last {k} steps, all of the completions hit max_completion_length and were cut off before they "
        "finished.",
        "最近 {k} 步里，所有生成结果都达到 max_completion_length，没写完就被截断。",
    ),
    (
        "In the last {k} steps, at least {pct} of the completions hit max_completion_length and were cut off before "
        "they finished.",
        "最近 {k} 步里，至少 {pct} 的生成结果达到 max_completion_length，没写完就被截断。",
    ),
    (
        "Raise max_completion_length, or reward shorter answers (for example with a length penalty).",
        "请调大 max_completion_length，或奖励更短的回答（例如加长度惩罚）。",
    ),
    (
        "Completions collapsed to {latest} tokens on average (they were {first} at step {step}).",
        "生成结果平均塌缩到 {latest} 个 token（第 {step} 步时为 {first}）。",
    ),
    (
        "Lower learning_rate and raise beta (the KL weight) so the policy stays near the base model, and check that "
        "the reward does not pay for empty or one-token answers.",
        "请降低 learning_rate、调高 beta（KL 权重），让策略靠近基础模型，并检查奖励是否在给空回答或只有一个 token 的"
        "回答加分。",
    ),
    (
        "The KL to the base model jumped to {latest} at step {step}, more than {factor}x its median so far "
        "({median}): the policy is moving away from the base model fast.",
        "第 {step} 步时与基础模型的 KL 跳升到 {latest}，超过此前中位数（{median}）的 {factor} 倍：策略正在快速偏离"
        "基础模型。",
    ),
    (
        "Lower learning_rate or raise beta (the KL weight) to keep each update small.",
        "请降低 learning_rate 或调高 beta（KL 权重），让每次更新保持很小。",
    ),
    (
        "'{fn}' makes up {pct} of the weighted reward, so the other rewards ({others}) barely change the advantages.",
        "'{fn}' 占加权奖励的 {pct}，其他奖励（{others}）几乎改变不了优势。",
    ),
    (
        "Rescale the rewards to similar ranges (for example 0 to 1) or lower the weight of '{fn}', so every reward "
        "counts.",
        "请把各奖励缩放到相近的范围（例如 0 到 1），或调低 '{fn}' 的权重，让每个奖励都起作用。",
    ),
    (
        "Only '{fn}' varies: {scores} gave every completion of a group the same score at step {step}, so there is "
        "nothing to weigh against it yet.",
        "只有 '{fn}' 在变化：{scores} 在第 {step} 步给一组里的每个生成结果打了同样的分，所以现在还没有什么可以和它"
        "权衡。",
    ),
    (
        "No weight can make a reward count before it varies; give it a cold start (sft_warmup_steps, "
        "completion_prefix, a partial-credit reward such as tag_layout) and weigh the rewards once each varies.",
        "奖励在变化之前，任何权重都不能让它起作用；请先给它冷启动（sft_warmup_steps、completion_prefix、"
        "tag_layout 这样给部分分的奖励），等每个奖励都在变化后再权衡。",
    ),
    (
        "After {n} steps the mean reward is {last}, about what it was over the first {window} steps ({first}): the "
        "policy is not learning.",
        "{n} 步之后平均奖励为 {last}，和最初 {window} 步（{first}）差不多：策略没有在学习。",
    ),
    (
        "After {n} steps the eval reward on the held-out prompts is {after}, about what it was when GRPO started "
        "({before}): the policy is not learning.",
        "{n} 步之后留出提示词上的评估奖励为 {after}，和 GRPO 开始时（{before}）差不多：策略没有在学习。",
    ),
    (
        "Raise learning_rate, check that the reward function tells good completions from bad ones, or raise "
        "num_generations for more varied groups; a reward that never varies needs a cold start.",
        "请调高 learning_rate，检查奖励函数能否区分好坏生成结果，或调高 num_generations 让组内更多样；从不变化的奖励"
        "需要冷启动。",
    ),
    (
        "Raise learning_rate, check that the reward function tells good completions from bad ones, or raise "
        "num_generations for more varied groups.",
        "请调高 learning_rate，检查奖励函数能否区分好坏生成结果，或调高 num_generations 让组内更多样。",
    ),
    (
        "Completions grew from {before} to {after} tokens on average while the other rewards ({listed}) did not "
        "improve: the policy may be gaming the reward with length.",
        "生成结果平均从 {before} 个 token 增长到 {after} 个，而其他奖励（{listed}）没有提升：策略可能在靠长度钻"
        "奖励的空子。",
    ),
    (
        "Cap max_completion_length, add a length penalty (for example soft_overlong), and check that the reward "
        "cannot be raised by padding the answer.",
        "请限制 max_completion_length，加上长度惩罚（例如 soft_overlong），并检查奖励不能靠填充回答来提高。",
    ),
    # playground/ui/train_form.py
    ("{name} needs a number.", "{name} 需要一个数字。"),
    (
        "max_steps {value} would take at least {days} days, even at one second a step; give at most {cap} steps.",
        "max_steps {value} 即使每步只用一秒也至少需要 {days} 天；请设为不超过 {cap} 步。",
    ),
    # playground/sandbox/custom.py: custom code on chat completions
    (_CHAT_HINT, _CHAT_HINT_ZH),
    (
        "Fails on chat completions ({error}). " + _CHAT_HINT,
        "在聊天形式的生成结果上出错（{error}）。" + _CHAT_HINT_ZH,
    ),
    (
        "Gives every chat completion the same value ({value}) where their texts differ: it treats the list of "
        "messages as text (len(c) of a one-message list is 1). " + _CHAT_HINT,
        "对每个聊天形式的生成结果都给出同一个值（{value}），而它们的文本各不相同：它把消息列表当成了文本"
        "（单条消息列表的 len(c) 是 1）。" + _CHAT_HINT_ZH,
    ),
    # playground/validation.py
    (
        "reward_error_policy must be fail or none, got {value}.",
        "reward_error_policy 必须是 fail 或 none，实际为 {value}。",
    ),
    (
        "num_generations must be at least 2 (GRPO compares completions within a group), got {value}.",
        "num_generations 至少为 2（GRPO 在组内比较生成结果），实际为 {value}。",
    ),
    ("per_device_train_batch_size must be at least 1.", "per_device_train_batch_size 至少为 1。"),
    (
        "report_to {name} cannot log here; the trackers installed are: {names} (pip install trackio adds trackio).",
        "report_to {name} 无法在此记录；已安装的跟踪工具：{names}（pip install trackio 可添加 trackio）。",
    ),
    ("gradient_accumulation_steps must be at least 1.", "gradient_accumulation_steps 至少为 1。"),
    ("steps_per_generation must be at least 1 or empty.", "steps_per_generation 至少为 1，或留空。"),
    (
        "The generation batch (per_device_train_batch_size × steps_per_generation = {batch}) must be divisible by "
        "num_generations ({g}); per_device_train_batch_size counts completions, not prompts.",
        "生成批量（per_device_train_batch_size × steps_per_generation = {batch}）必须能被 num_generations（{g}）"
        "整除；per_device_train_batch_size 计的是生成结果数，不是提示词数。",
    ),
    ("max_steps must be at least 1, got {value}.", "max_steps 至少为 1，实际为 {value}。"),
    (
        "max_completion_length must be between 1 and {max}, got {value}.",
        "max_completion_length 必须在 1 到 {max} 之间，实际为 {value}。",
    ),
    (
        "learning_rate must be above 0 and at most 0.01, got {value}.",
        "learning_rate 必须大于 0 且不超过 0.01，实际为 {value}。",
    ),
    (
        "beta (the KL weight) must be between 0 and 10, got {value}.",
        "beta（KL 权重）必须在 0 到 10 之间，实际为 {value}。",
    ),
    (
        "epsilon (the clipping range) must be between 0 and 1, got {value}.",
        "epsilon（裁剪范围）必须在 0 到 1 之间，实际为 {value}。",
    ),
    ("temperature must be above 0 and at most 5, got {value}.", "temperature 必须大于 0 且不超过 5，实际为 {value}。"),
    ("top_p must be above 0 and at most 1, got {value}.", "top_p 必须大于 0 且不超过 1，实际为 {value}。"),
    ("Unknown loss_type {value}; TRL supports {valid}.", "未知的 loss_type {value}；TRL 支持：{valid}。"),
    ("scale_rewards must be one of {valid}, got {value}.", "scale_rewards 必须是 {valid} 之一，实际为 {value}。"),
    (
        "multi_objective_aggregation must be one of {valid}, got {value}.",
        "multi_objective_aggregation 必须是 {valid} 之一，实际为 {value}。",
    ),
    # bf16 rollout and TRL's importance-sampling correction
    (
        "fast_rollout bfloat16 needs a CPU with native bf16 (AVX512-BF16 or AMX); here it would be slower than "
        "float32: use auto.",
        "fast_rollout 设为 bfloat16 需要原生支持 bf16 的 CPU（AVX512-BF16 或 AMX）；在这台机器上它会比 float32 "
        "更慢：请用 auto。",
    ),
    (
        "vllm_importance_sampling_mode must be one of {valid}, got {value}.",
        "vllm_importance_sampling_mode 必须是 {valid} 之一，实际为 {value}。",
    ),
    (
        "vllm_importance_sampling_clip_max must be above 1 or empty, got {value}.",
        "vllm_importance_sampling_clip_max 必须大于 1，或留空，实际为 {value}。",
    ),
    (
        "off_policy_mask_threshold must be above 0 or empty, got {value}.",
        "off_policy_mask_threshold 必须大于 0，或留空，实际为 {value}。",
    ),
    (
        "The vespo loss needs a token-level vllm_importance_sampling_mode (token_truncate or token_mask).",
        "vespo 损失需要词元级的 vllm_importance_sampling_mode（token_truncate 或 token_mask）。",
    ),
    ("save_steps must be at least 1.", "save_steps 至少为 1。"),
    ("lora_r must be at least 1, got {value}.", "lora_r 至少为 1，实际为 {value}。"),
    ("lora_alpha must be above 0, got {value}.", "lora_alpha 必须大于 0，实际为 {value}。"),
    ("lora_dropout must be in [0, 1), got {value}.", "lora_dropout 必须在 [0, 1) 范围内，实际为 {value}。"),
    ("lora_target_modules must name at least one module.", "lora_target_modules 至少要指定一个模块。"),
    ("Choose 4-bit or 8-bit quantization, not both.", "4 位和 8 位量化只能选一种。"),
    (
        "device is cuda but no CUDA GPU is available here; use auto or cpu.",
        "device 为 cuda，但这里没有可用的 CUDA GPU；请使用 auto 或 cpu。",
    ),
    ("Pick at least one reward.", "请至少选择一个奖励。"),
    ("The weight of reward {name} must be a finite number.", "奖励 {name} 的权重必须是有限的数。"),
    (
        "Reward {name} needs the dataset column {column}, but the data has only: {columns}. Map a column to "
        "{column2} or pick another prompt set.",
        "奖励 {name} 需要数据集列 {column}，但数据中只有：{columns}。请把某一列映射为 {column2}，或换一个提示词集。",
    ),
    # rewards/registry.py
    ("Unknown reward {name}. Valid rewards: {valid}.", "未知的奖励 {name}。可用的奖励：{valid}。"),
    (
        "Reward {name}: parameter {param} must be >= {min}, got {value}.",
        "奖励 {name}：参数 {param} 必须 >= {min}，实际为 {value}。",
    ),
    (
        "Reward {name}: parameter {param} must be <= {max}, got {value}.",
        "奖励 {name}：参数 {param} 必须 <= {max}，实际为 {value}。",
    ),
    (
        "Reward {name}: parameter {param} must be one of {valid}, got {value}.",
        "奖励 {name}：参数 {param} 必须是 {valid} 之一，实际为 {value}。",
    ),
    (
        "Reward {name}: parameter {param} must be {type}, got {value}.",
        "奖励 {name}：参数 {param} 的类型必须是 {type}，实际为 {value}。",
    ),
    # playground/preview.py
    (
        "num_generations must be between 2 and {max} (GRPO compares completions within a group), got {value}.",
        "num_generations 必须在 2 到 {max} 之间（GRPO 在组内比较生成结果），实际为 {value}。",
    ),
    (
        "max_new_tokens must be between 1 and {max}, got {value}.",
        "max_new_tokens 必须在 1 到 {max} 之间，实际为 {value}。",
    ),
    # playground/models.py
    ("Model folder {name} does not exist.", "模型文件夹 {name} 不存在。"),
    (
        "Model {name} is neither an existing folder nor a valid Hugging Face Hub id.",
        "模型 {name} 既不是已有的文件夹，也不是有效的 Hugging Face Hub id。",
    ),
    (
        "Folder {name} has no config.json, so it is not a transformers model folder.",
        "文件夹 {name} 中没有 config.json，所以不是 transformers 模型文件夹。",
    ),
    (
        "Could not load model {name}: it is gated; accept its licence on the Hub and set HF_TOKEN.",
        "无法加载模型 {name}：它需要授权；请在 Hub 上接受其许可协议并设置 HF_TOKEN。",
    ),
    (
        "Could not load model {name}: no such model on the Hugging Face Hub (check the id, or set HF_TOKEN).",
        "无法加载模型 {name}：Hugging Face Hub 上没有这个模型（请检查 id，或设置 HF_TOKEN）。",
    ),
    (
        "Could not load model {name}: it is not a valid Hub id or an existing folder.",
        "无法加载模型 {name}：它既不是有效的 Hub id，也不是已有的文件夹。",
    ),
    (
        "Could not load model {name}: the Hugging Face Hub cannot be reached (HF_HUB_OFFLINE is set) and the model "
        "is not in the local cache.",
        "无法加载模型 {name}：无法连接 Hugging Face Hub（已设置 HF_HUB_OFFLINE），且本地缓存中没有该模型。",
    ),
    (
        "Could not load model {name}: the Hugging Face Hub cannot be reached and the model is not in the local cache.",
        "无法加载模型 {name}：无法连接 Hugging Face Hub，且本地缓存中没有该模型。",
    ),
    ("Could not load the model in folder {name}: {detail}", "无法加载文件夹 {name} 中的模型：{detail}"),
    ("Could not load model {name}: {detail}", "无法加载模型 {name}：{detail}"),
    # playground/data.py
    ("Unknown built-in prompt set {name}; valid sets: {valid}.", "未知的内置提示词集 {name}；可用的有：{valid}。"),
    ("File {name} does not exist.", "文件 {name} 不存在。"),
    (
        "The {what} has no {column} column (its columns are: {columns}); set prompt_column to the column that holds "
        "the prompts, e.g. prompt_column={guess}, or map it: column_map {guess2}=prompt.",
        "{what} 中没有 {column} 列（现有的列：{columns}）；请把 prompt_column 设为存放提示词的列，"
        "例如 prompt_column={guess}，或用 column_map 映射：{guess2}=prompt。",
    ),
    (
        "The column mapping renames {names}, but the {what} only has: {columns}.",
        "列映射要重命名 {names}，但 {what} 中只有：{columns}。",
    ),
    (
        "column_map {text} is not readable; write it as existing=new, e.g. question=prompt.",
        "无法读取 column_map {text}；请写成 原列名=新列名，例如 question=prompt。",
    ),
    (
        "Dataset {name} was not found on the Hugging Face Hub; check the id, or log in if it is private.",
        "在 Hugging Face Hub 上找不到数据集 {name}；请检查 id，如果是私有数据集请先登录。",
    ),
    (
        "Could not load dataset {name} from the Hugging Face Hub: offline mode is on (HF_HUB_OFFLINE) and it is not "
        "cached.",
        "无法从 Hugging Face Hub 加载数据集 {name}：已开启离线模式（HF_HUB_OFFLINE），且本地没有缓存。",
    ),
    (
        "Could not load dataset {name} from the Hugging Face Hub: the network is unreachable.",
        "无法从 Hugging Face Hub 加载数据集 {name}：网络不可达。",
    ),
    ("Could not load dataset {name} (split {split}): {detail}.", "无法加载数据集 {name}（划分 {split}）：{detail}。"),
    ("The {what} has {count} rows; only the first {max} are used.", "{what} 有 {count} 行；只使用前 {max} 行。"),
    ("Column {new} was replaced by column {old}.", "列 {new} 已被列 {old} 替换。"),
    (
        "This app is public, so a prompt file must be uploaded through the page; paths on the server are not read.",
        "这是公开的应用，提示词文件必须通过页面上传；不会读取服务器上的路径。",
    ),
    # playground/training/job.py
    (
        "A training run is already in progress ({run}, step {step} of {total}); wait for it to finish or stop it "
        "first.",
        "已有训练正在进行（{run}，第 {step} / {total} 步）；请等它结束，或先停止它。",
    ),
    ("Run {run} is still {status}; stop it before deleting it.", "训练 {run} 仍处于 {status} 状态；请先停止再删除。"),
    ("Custom code needs a session; reload the page.", "自定义代码需要会话；请刷新页面。"),
    # playground/scoring.py (the flags of a scored group)
    (
        "Reward {name} makes up {share} of the spread of the weighted total, so {others} have little effect on the "
        "advantage; rescale it or lower its weight.",
        "奖励 {name} 占加权总分离散程度的 {share}，所以 {others} 几乎影响不了优势；请调整它的尺度或降低它的权重。",
    ),
    (
        "Reward {name} makes up {share} of the size of the weighted total, so {others} have little effect on the "
        "advantage; rescale it or lower its weight.",
        "奖励 {name} 占加权总分大小的 {share}，所以 {others} 几乎影响不了优势；请调整它的尺度或降低它的权重。",
    ),
    (
        "Reward {name} returned NaN or inf for {bad} of {n} completions; treated as None.",
        "奖励 {name} 对 {n} 个生成结果中的 {bad} 个返回了 NaN 或无穷大；按 None 处理。",
    ),
    (
        "Reward {name} returned None for {count} of {n} completions, so they are skipped for it.",
        "奖励 {name} 对 {n} 个生成结果中的 {count} 个返回了 None，这些结果在该奖励上被跳过。",
    ),
    (
        "{count} of {n} completions got None from every reward; their advantage is 0.",
        "{n} 个生成结果中有 {count} 个在所有奖励上都是 None；它们的优势为 0。",
    ),
    (
        "All {n} completions scored the same, so this group gives no learning signal (every advantage is 0).",
        "全部 {n} 个生成结果得分相同，所以这一组没有学习信号（所有优势都是 0）。",
    ),
    # playground/sandbox/checks.py
    ("Custom code: {message}", "自定义代码：{message}"),
    ("The code is empty; define a reward like {example}.", "代码为空；请像这样定义一个奖励：{example}。"),
    ("No function found; define a reward like {example}.", "没有找到函数；请像这样定义一个奖励：{example}。"),
    ("Syntax error at line {line}, column {column}: {detail}.", "第 {line} 行第 {column} 列有语法错误：{detail}。"),
    ("Syntax error at line {line}: {detail}.", "第 {line} 行有语法错误：{detail}。"),
    ("The code cannot be parsed: {detail}.", "代码无法解析：{detail}。"),
    (
        "found {signature}: a reward must accept `completions` and `**kwargs` (TRL passes prompts, completion_ids, "
        "trainer_state and the dataset columns as keywords too).{where}",
        "找到的是 {signature}：奖励函数必须接受 `completions` 和 `**kwargs`（TRL 还会以关键字参数传入 prompts、"
        "completion_ids、trainer_state 和数据集各列）。{where}",
    ),
    # --- public mode (playground/ui/context.py, playground/training/job.py and queue.py) ---
    (
        "Run '{run}' belongs to another visitor of this public app; only its owner can open, download or delete it "
        "(unless they publish it).",
        "训练 '{run}' 属于这个公开应用的另一位访客；只有它的主人能打开、下载或删除它（除非对方将其公开）。",
    ),
    (
        "Run '{run}' was published by another visitor; it is read-only for you.",
        "训练 '{run}' 由另一位访客公开；对你来说是只读的。",
    ),
    (
        "You already have a run waiting in the queue (position {position}); cancel it before queueing another, or "
        "wait for it to start.",
        "你已有一个训练在排队（第 {position} 位）；请先取消它再排新的，或等它开始。",
    ),
    (
        "The training queue is full ({count} runs waiting, PLAYGROUND_MAX_QUEUED); try again when one has started.",
        "训练队列已满（{count} 个在等待，PLAYGROUND_MAX_QUEUED）；请等其中一个开始后再试。",
    ),
    ("You have no run waiting in the queue.", "你没有在排队的训练。"),
    (
        "A run is in progress; a queued run needs a session. Reload the page.",
        "已有训练正在进行；排队需要会话。请刷新页面。",
    ),
    (
        "This app is public: a run may take at most {cap} steps (PLAYGROUND_MAX_STEPS); this one asks for {steps}. "
        "Lower max_steps, or run the app yourself for longer runs.",
        "这是公开的应用：一次训练最多 {cap} 步（PLAYGROUND_MAX_STEPS），这次要求 {steps} 步。请减小 max_steps，"
        "或自己运行本应用来做更长的训练。",
    ),
    (
        "This app is public: a run may use at most {cap} custom reward functions (PLAYGROUND_MAX_CUSTOM_FUNCTIONS); "
        "this one uses {count} ({names}).",
        "这是公开的应用：一次训练最多使用 {cap} 个自定义奖励函数（PLAYGROUND_MAX_CUSTOM_FUNCTIONS），这次用了 "
        "{count} 个（{names}）。",
    ),
    (
        "This app is public: the custom rewards of one step may take at most {cap} s (PLAYGROUND_MAX_REWARD_SECONDS); "
        "{count} functions × {timeout} s per call could take {seconds} s.",
        "这是公开的应用：每一步的自定义奖励最多可用 {cap} 秒（PLAYGROUND_MAX_REWARD_SECONDS）；{count} 个函数 × "
        "每次调用 {timeout} 秒，可能需要 {seconds} 秒。",
    ),
    # Scale-out: playground/validation.py's process checks and JobManager's backend choice
    ("num_processes must be at least 1, got {value}.", "num_processes 至少为 1，实际为 {value}。"),
    (
        "The generation batch over {n} processes (per_device_train_batch_size {size} × num_processes {n2} × "
        "steps_per_generation {steps} = {batch}) must be divisible by num_generations ({g}); use a multiple of "
        "{fits} as per_device_train_batch_size, or another process count.",
        "{n} 个进程的生成批量（per_device_train_batch_size {size} × num_processes {n2} × steps_per_generation "
        "{steps} = {batch}）必须能被 num_generations（{g}）整除；请把 per_device_train_batch_size 设为 {fits} "
        "的倍数，或换一个进程数。",
    ),
    (
        "num_processes is {n} but this machine has {cores} CPU core(s); each process needs one, use at most {most}.",
        "num_processes 为 {n}，但这台机器只有 {cores} 个 CPU 核；每个进程需要一个核，最多用 {most} 个。",
    ),
    (
        "num_processes is {n} but this machine has {gpus} GPU(s); use at most {most}.",
        "num_processes 为 {n}，但这台机器只有 {gpus} 块 GPU；最多用 {most} 个。",
    ),
    (
        "The SFT warm-up runs in the app's own process only: set sft_warmup_steps to 0, or num_processes to 1.",
        "SFT 预热只在应用自己的进程中运行：请把 sft_warmup_steps 设为 0，或把 num_processes 设为 1。",
    ),
    (
        "Rewards compiled in this process cannot reach other processes: pass their code as the spec's custom_code, "
        "or train with num_processes 1.",
        "在本进程中编译的奖励函数无法传给其他进程：请把代码放进运行规格的 custom_code，或用 num_processes 1 训练。",
    ),
)

LINE = re.compile(r" \(line (\d+)\)")
# The phrases {what} stands for in data messages.
WHAT = (
    (re.compile(r"^file '(.+)'$"), "文件 '{0}'"),
    (re.compile(r"^built-in set '(.+)'$"), "内置提示词集 '{0}'"),
    (re.compile(r"^dataset '(.+)'$"), "数据集 '{0}'"),
)


@lru_cache(maxsize=1)
def _compiled() -> tuple[tuple[re.Pattern, str, tuple[str, ...]], ...]:
    out = []
    for english, chinese in MESSAGES:
        names: list[str] = []
        pattern = ""
        for part in re.split(r"(\{[a-z0-9_]+\})", english):
            if part.startswith("{") and part.endswith("}"):
                names.append(part[1:-1])
                pattern += f"(?P<{part[1:-1]}>.*?)"
            else:
                pattern += re.escape(part)
        out.append((re.compile(pattern + r"\Z", re.DOTALL), chinese, tuple(names)))
    return tuple(out)


def _what(text: str) -> str:
    for pattern, chinese in WHAT:
        match = pattern.match(text)
        if match:
            return chinese.format(*match.groups())
    return text


def translate_error(lang: str | None, message: str) -> str:
    """`message` (an engine sentence) in `lang`: Chinese when a template matches, else unchanged."""
    if lang != "zh":
        return message
    message = LINE.sub(r"（第 \1 行）", message)  # " (line 3)", added to a code issue, in any message
    for pattern, chinese, _ in _compiled():
        match = pattern.match(message)
        if match:
            values = match.groupdict()
            if "what" in values:
                values["what"] = _what(values["what"])
            return chinese.format(**values)
    return message
