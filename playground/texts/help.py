"""The help of the Train fields, English and Chinese side by side (`FIELDS`, which the fields' metadata reads),
and the Chinese for the help written once in English elsewhere: reward descriptions and parameter help (the reward
registry) and the built-in prompt sets (playground.data.sources).

`playground.ui.i18n.generated_keys()` makes i18n keys of them, so the page can show either language. A name without
Chinese here gets no Chinese key, and tests/ui/test_i18n.py fails on it. This module imports nothing of the
playground: the run spec and the prompt sources read their help from it.
"""

import re


REWARDS: dict[str, str] = {
    "length": "与目标长度的接近程度：字符数与 ideal_length 之差的绝对值，取负。",
    "format": "文本恰好是 <intro>…</intro><body>…</body><conclusion>…</conclusion> 且每个部分都有内容（文章的 .+）"
    "时为 1.0，否则为 0.0；与文章的正则不同，各部分之间可以有空白，一个部分可以跨多行。",
    "tag_layout": "按标签给部分分（是否打开、关闭、顺序正确），0.0 到 1.0，空的部分不得分；严格格式奖励的冷启动版本。",
    "tag_sentences": "各标签中装着一个句子（至少四个词，以英文句点、感叹号、问号或“。！？”结尾）的比例，0.0 到 1.0："
    "读者想在格式奖励所要求的结构里看到的内容。",
    "combined": "加权和 length_weight * length + format_weight * format（种子文章中的奖励）。",
    "think_format": "TRL 的 think_format_reward：文本以一个 <think>…</think> 块开头时为 1.0，否则为 0.0。",
    "think_answer_strict": "整段文本恰好是 <think>\\n…\\n</think>\\n<answer>\\n…\\n</answer> 时为 1.0，否则为 0.0。",
    "think_answer_soft": "出现一个 <think>…</think> 块且其后跟着 <answer>…</answer> 块时为 1.0，否则为 0.0。",
    "xml_count": "一个流行的 GRPO 示例中的标签计数：每个只出现一次的 <think>/<answer> 标签得 0.125（最多 0.5），"
    "</answer> 之后每多一个字符扣 0.001。",
    "tag_count": "Hugging Face 开源推理复现项目中的标签计数奖励：每个恰好出现一次的 <think>/<answer> 标签得 0.25"
    "（最多 1.0）。",
    "reasoning_steps": "Hugging Face 开源推理复现项目中的推理步骤奖励：步骤标记数除以 3，最多为 1；"
    "标记包括编号的步骤、列表符号和表示先后顺序的（英文）过渡词。",
    "code_format": "Hugging Face 开源推理复现项目中的代码格式奖励：文本为 <think>…</think><answer>…代码块…</answer> "
    "时为 1.0，否则为 0.0。",
    "code_tests": "open-r1 的代码奖励（离线）：在沙箱中用 tests 列的测试运行生成结果里的 ```python 代码块，"
    "奖励为通过率。",
    "reasoning_accuracy": "TRL 的 reasoning_accuracy_reward：用 math_verify 将 </think> 之后的答案与 solution 比对；"
    "推理没有结束时为 0.0。",
    "cosine_scaled": "按长度以余弦曲线缩放的正确性：TRL 的 get_cosine_scaled_reward（按 token）"
    "或 open-r1 的版本（按字符）。",
    "len_reward": "open-r1 的 len_reward（Kimi 1.5）：同一提示词下最短的生成结果得 0.5，最长的得 -0.5；"
    "答错的最多得 0。",
    "correctness": "最终答案与参考答案列一致（数字或 LaTeX）时为 1.0，否则为 0.0。",
    "accuracy": "TRL 的 accuracy_reward：用 math_verify 将 boxed/LaTeX 答案与 solution 比对。",
    "keywords": "出现的 include 关键词比例，减去出现的 exclude 关键词比例。",
    "regex": "文本匹配正则表达式时为 1.0，否则为 0.0。",
    "json_valid": "文本（或其中唯一的 ```json 代码块）是合法 JSON 时为 1.0，否则为 0.0。",
    "language": "足够多的字母属于目标语言的文字（中日韩文字或拉丁字母）时为 1.0，否则为 0.0。",
    "repetition_penalty": "重复惩罚（有 token id 时按 TRL，文本按 open-r1）：max_penalty 乘以重复 n-gram 所占比例。",
    "soft_overlong": "TRL 的软超长惩罚（DAPO）：较短时为 0，长度接近 max_completion_len 个 token 时降到 -1.0。",
    "similarity": "与参考列的相似度，范围 [0, 1]：ROUGE、BLEU、GLEU、chrF 或模糊匹配（中日韩文本按字符）。",
    "string_check": "文本与参考列精确匹配时为 1.0：eq（相等）、ne（不等）、like（包含）、ilike（包含，不区分大小写）"
    "（OpenAI string_check）。",
    "formula": "用表达式组合多个命名奖励（min、max、clip，以及 `a if b == 1 else 0` 这样的门控）。",
    "reward_model": "用单标签序列分类奖励模型给“提示词 + 生成结果”打分，与 TRL 的做法相同。",
    "judge": "由本地大模型按评分标准判定：取其 logits 中“是”的概率。在内置的 135M 模型上效果较弱。",
}

PARAMS: dict[str, str] = {  # "<reward>.<param>"
    "length.ideal_length": "目标生成长度，单位是字符。",
    "tag_sentences.tags": "每个部分都应装着一个句子的标签名（逗号分隔），例如 intro,body,conclusion。",
    "tag_layout.tags": "按顺序排列的标签名（逗号分隔），例如 think,answer。",
    "combined.length_weight": "长度奖励的权重。",
    "combined.format_weight": "格式奖励的权重。",
    "combined.ideal_length": "目标生成长度，单位是字符。",
    "code_format.language": "代码块的语言标记（数据集的 language 列优先）。",
    "reasoning_accuracy.reasoning_delimiters": "表示推理结束的字符串（逗号分隔）。",
    "code_tests.column": "存放测试用例的数据集列（标准输入/输出对或 assert 语句）。",
    "code_tests.time_limit": "每个测试的秒数上限。",
    "cosine_scaled.max_len": "余弦曲线到达长生成结果边界时的长度。",
    "cosine_scaled.min_value_wrong": "空的错误生成结果的奖励。",
    "cosine_scaled.max_value_wrong": "长度为 max_len 的错误生成结果的奖励。",
    "cosine_scaled.min_value_correct": "长度为 max_len 的正确生成结果的奖励。",
    "cosine_scaled.max_value_correct": "空的正确生成结果的奖励。",
    "cosine_scaled.length_unit": "tokens（TRL；没有 token id 时按词计）或 characters（open-r1）。",
    "correctness.column": "存放参考答案的数据集列。",
    "correctness.mode": "numeric 比较数字，math_verify 比较 LaTeX，auto 根据参考答案自动选择。",
    "keywords.include": "应该出现的关键词（逗号分隔）。",
    "keywords.exclude": "不应出现的关键词（逗号分隔）。",
    "format.allow_empty": "让空的部分（<conclusion></conclusion>）也得 1.0：这是 GRPO 会学着钻的空子。",
    "keywords.case_sensitive": "匹配关键词时区分大小写。",
    "regex.pattern": "Python 正则表达式。",
    "regex.mode": "search：任意位置匹配；fullmatch：整段文本匹配。",
    "json_valid.require_object": "要求是 JSON 对象（{...}），而不是任意 JSON 值。",
    "language.language": "目标语言。",
    "language.threshold": "属于目标文字的字母所占的最低比例。",
    "repetition_penalty.ngram_size": "n-gram 的大小。",
    "repetition_penalty.max_penalty": "完全重复的生成结果所受的惩罚。",
    "repetition_penalty.language": "无 token id 时如何切分文本：en（小写的词）、zh（jieba 分词）、ja（字符）、auto。",
    "soft_overlong.max_completion_len": "最大生成长度，单位是 token（没有 token id 时按词计）。",
    "soft_overlong.soft_punish_cache": "最大长度之前线性惩罚区的长度。",
    "similarity.column": "存放参考文本的数据集列。",
    "similarity.metric": "rouge_l、rouge_1..rouge_5、bleu、gleu、chrf、fuzzy_match（OpenAI 的 WRatio）"
    "或 fuzzy（编辑距离）。",
    "formula.expression": "对奖励名做算术运算的表达式；不会被 eval 执行。",
    "string_check.column": "存放参考字符串的数据集列。",
    "string_check.operation": "eq、ne、like 或 ilike。",
    "formula.terms": '可选的 JSON，例如 {"a": {"name": "similarity", "params": {...}}}。',
    "reward_model.model": "奖励模型的 Hub id 或本地文件夹。",
    "reward_model.batch_size": "每次前向计算的生成结果数。",
    "judge.rubric": "好答案应该做到什么。",
    "judge.model": "'embedded'、因果语言模型的 Hub id 或本地文件夹。",
    "judge.batch_size": "每次前向计算的生成结果数。",
    "judge.time_limit": "每次调用的秒数上限；超时的得到 None。",
}

# The Train form's fields, in its order: (English, Chinese). The run spec's and the prompt source's metadata take
# their help from here (the CLI's --help, the form's info=, the MCP tools' docs): a field without one fails at import.
FIELDS: dict[str, tuple[str, str]] = {
    "model_name_or_path": (
        "'embedded' (SmolLM2-135M-Instruct, offline), a Hugging Face Hub id, or a local folder.",
        "'embedded'（SmolLM2-135M-Instruct，离线可用）、Hugging Face Hub 模型 id，或本地文件夹。",
    ),
    "load_in_4bit": (
        "QLoRA: load the base model in 4-bit (bitsandbytes).",
        "QLoRA：以 4 位加载基础模型（bitsandbytes）。",
    ),
    "load_in_8bit": ("Load the base model in 8-bit (bitsandbytes).", "以 8 位加载基础模型（bitsandbytes）。"),
    "bnb_4bit_quant_type": ("4-bit quantization type: 'nf4' or 'fp4'.", "4 位量化类型：'nf4' 或 'fp4'。"),
    "device": (
        "'auto' (CUDA when present, else CPU), 'cpu' or 'cuda'.",
        "'auto'（有 CUDA 时用 CUDA，否则用 CPU）、'cpu' 或 'cuda'。",
    ),
    "num_processes": (
        "Training processes. 1: in the app's own thread; N > 1: `accelerate launch --num_processes N` (one per "
        "GPU, or CPU processes over gloo). Each process takes per_device_train_batch_size completions, so a step "
        "uses per_device_train_batch_size × N × gradient_accumulation_steps.",
        "训练进程数。1：在应用自己的线程中训练；N > 1：`accelerate launch --num_processes N`（每个 GPU 一个进程，或"
        "通过 gloo 使用多个 CPU 进程）。每个进程取 per_device_train_batch_size 个生成结果，所以一步共用 "
        "per_device_train_batch_size × N × gradient_accumulation_steps 个。",
    ),
    "num_generations": ("Completions per prompt (the group size G).", "每个提示词的生成结果数（组大小 G）。"),
    "per_device_train_batch_size": (
        "Completions per device per step; the generation batch must divide by G.",
        "每个设备每步的生成结果数；生成批量必须能被 G 整除。",
    ),
    "gradient_accumulation_steps": ("Batches accumulated per optimizer step.", "每个优化器步累积的批次数。"),
    "steps_per_generation": (
        "Optimizer steps per generation round (default: gradient_accumulation_steps).",
        "每轮生成对应的优化器步数（留空或 0：等于 gradient_accumulation_steps）。",
    ),
    "max_completion_length": ("Maximum new tokens per completion.", "每个生成结果最多的新 token 数。"),
    "temperature": ("Sampling temperature for the rollouts.", "采样生成时的温度。"),
    "top_p": ("Nucleus sampling: keep the top tokens of this mass.", "核采样：只保留累计概率达到该值的 token。"),
    "learning_rate": (
        "Initial AdamW learning rate (LoRA takes higher rates than full fine-tuning).",
        "AdamW 的初始学习率（LoRA 比全量微调需要更高的学习率）。",
    ),
    "beta": (
        "KL penalty weight. TRL's default is 0.0 (no reference model, no kl metric); >0 logs kl.",
        "KL 惩罚权重。TRL 默认是 0.0（不用参考模型，也不记录 kl）；大于 0 时记录 kl。",
    ),
    "epsilon": ("PPO-style clipping range of the importance ratio.", "重要性比率的 PPO 式裁剪范围。"),
    "loss_type": (
        "Loss aggregation: one of grpo, dr_grpo, dapo, bnpo, cispo, sapo, luspo, vespo.",
        "损失的聚合方式：grpo、dr_grpo、dapo、bnpo、cispo、sapo、luspo、vespo 之一。",
    ),
    "scale_rewards": (
        "Divide advantages by the std of the 'group', the 'batch', or 'none'.",
        "优势除以哪个标准差：'group'（组内）、'batch'（整批）或 'none'（不除）。",
    ),
    "multi_objective_aggregation": (
        "How several rewards combine: 'sum_then_normalize' (the weighted sum, then scale_rewards) or "
        "'normalize_then_sum' (each reward normalized within its group, then the weighted sum, normalized over the "
        "batch: GDPO).",
        "多个奖励如何合并：'sum_then_normalize'（先加权求和，再按 scale_rewards 缩放）或 'normalize_then_sum'（每个"
        "奖励先在组内归一化，再加权求和，最后在整批上归一化：GDPO）。",
    ),
    "max_steps": ("Optimizer steps to train.", "训练的优化器步数。"),
    "seed": ("Random seed (data order, sampling, LoRA init).", "随机种子（数据顺序、采样、LoRA 初始化）。"),
    "save_steps": (
        "Save a checkpoint (the adapter and the whole training state, to continue from) every this many steps.",
        "每隔这么多步保存一次检查点（适配器及全部训练状态，可从中继续训练）。",
    ),
    "gradient_checkpointing": (
        "Trade compute for memory; off by default, it slows small models down.",
        "用计算换内存；默认关闭，它会让小模型变慢。",
    ),
    "use_vllm": (
        "Generate with vLLM in colocate mode (CUDA only, needs `pip install vllm`; optional).",
        "用 vLLM 的 colocate 模式生成（仅限 CUDA，需要 `pip install vllm`；可选）。",
    ),
    "bf16": (
        "On a CPU with native bf16 (AVX512-BF16 or AMX): the training forward and backward in bf16 autocast, the "
        "LoRA weights and the optimizer staying fp32 (TRL's bf16). On CUDA training is always bf16. Off by default "
        "on a CPU: on the format lesson (3 seeds, Intel Xeon with AMX) bf16 took 17 % less CPU time but ended at a "
        "held-out strict format of 0.46 against fp32's 0.76.",
        "在原生支持 bf16 的 CPU（AVX512-BF16 或 AMX）上：训练的前向和反向用 bf16 自动混合精度，LoRA 权重和优化器仍"
        "为 fp32（TRL 的 bf16）。CUDA 上训练总是 bf16。CPU 上默认关闭：在格式一课上（3 个随机种子，带 AMX 的 Intel "
        "Xeon），bf16 少用 17 % 的 CPU 时间，但留出提示词上的严格格式最后只有 0.46，fp32 是 0.76。",
    ),
    "vllm_importance_sampling_correction": (
        "With fast_rollout=bfloat16 or int8 (or use_vllm): weight the loss by the policy's over the sampler's "
        "probability of each sampled token (TRL's correction for a sampler that is not exactly the policy); logs "
        "sampling/importance_sampling_ratio/*. Off: the samples are used as if drawn from the policy (int8 requires "
        "it on).",
        "在 fast_rollout=bfloat16 或 int8（或 use_vllm）时：按策略与采样器对每个采样词元的概率之比为损失加权（TRL "
        "对“采样器并非完全等同于策略”的校正），并记录 sampling/importance_sampling_ratio/*。关闭时：这些样本被当作"
        "从策略本身采样（int8 要求打开它）。",
    ),
    "vllm_importance_sampling_mode": (
        "How TRL bounds that ratio: per token or per sequence, clipped ('*_truncate') or dropped when out of "
        "bounds ('*_mask'): one of token_truncate, token_mask, sequence_truncate, sequence_mask.",
        "TRL 如何约束这个比率：按词元或按序列，超出范围时截断（'*_truncate'）或丢弃（'*_mask'）：token_truncate、"
        "token_mask、sequence_truncate、sequence_mask 之一。",
    ),
    "vllm_importance_sampling_clip_max": (
        "Upper bound of the importance-sampling ratio (TRL's; it replaces vllm_importance_sampling_cap).",
        "重要性采样比率的上限（TRL 的字段；取代 vllm_importance_sampling_cap）。",
    ),
    "off_policy_mask_threshold": (
        "Drop sequences with a negative advantage whose mean sampler-to-policy KL exceeds this (DeepSeek-V3.2's "
        "off-policy mask, e.g. 0.5); empty: off.",
        "丢弃优势为负、且采样器到策略的平均 KL 超过此值的序列（DeepSeek-V3.2 的离策略掩码，例如 0.5）；留空：关闭。",
    ),
    "report_to": (
        "Also log TRL's metrics to these trackers (TRL's report_to), e.g. trackio (pip install trackio: a local "
        "project, `trackio show`); empty: the playground's own charts only.",
        "同时把 TRL 的指标记录到这些跟踪工具（TRL 的 report_to），例如 trackio（pip install trackio：本地项目，"
        "`trackio show`）；留空：只用本应用自己的图表。",
    ),
    "reward_error_policy": (
        "When a reward raises, times out or returns garbage: 'fail' stops the run with its message; 'none' scores "
        "that batch None for it (TRL skips None) and counts the event in the run status.",
        "奖励函数出错、超时或返回无效值时：'fail' 停止训练并显示原因；'none' 让这一批的该奖励记为 None（TRL 会跳过 "
        "None），并在训练状态中计数。",
    ),
    "completions_as_text": (
        "Hand custom rewards plain strings: the text of each completion, also when TRL passes chat messages (a "
        "system prompt or a conversational dataset). Library rewards read both shapes anyway.",
        "把纯文本交给自定义奖励：每个生成结果的文本，即使 TRL 传入的是聊天消息（有系统提示词或对话式数据集时）。库"
        "中的奖励本来就能读两种形式。",
    ),
    "sft_warmup_steps": (
        "Steps of TRL's SFTTrainer on the same LoRA adapter right before GRPO (0: no warm-up). A cold start for a "
        "reward the base model never earns.",
        "在 GRPO 之前，用 TRL 的 SFTTrainer 在同一个 LoRA 适配器上预热的步数（0：不预热）。适用于基础模型从来拿不到"
        "的奖励（冷启动）。",
    ),
    "sft_examples": (
        "Warm-up examples: 'auto' (the base model's own answers wrapped in sft_tags) or a .jsonl file with prompt "
        "and completion columns.",
        "预热样本：'auto'（基础模型自己的生成结果，套上 sft_tags），或含 prompt 和 completion 列的 .jsonl 文件。",
    ),
    "sft_tags": (
        "Tag layout the 'auto' warm-up examples are wrapped in, e.g. intro,body,conclusion.",
        "'auto' 预热样本所套的标签结构，例如 intro,body,conclusion。",
    ),
    "sft_split": (
        "How 'auto' warm-up examples fill the tags: 'words' (whole sentences when the answer has one for each tag, "
        "else its words cut into equal parts) or 'sentences' (a whole sentence of at least four words in every "
        "tag: the answer's earliest sentences that fit, fragments left out; answers with fewer are left out).",
        "'auto' 预热样本如何填进标签：'words'（生成结果的句子够每个标签一句时放整句，否则把词平均切开）或 'sentences'"
        "（每个标签放一个至少四个词的完整句子：取生成结果里最靠前、放得下的句子，不完整的片段不算；句子不够的生成结果"
        "不用）。",
    ),
    "sft_num_examples": ("How many 'auto' warm-up examples to build.", "要构造多少个 'auto' 预热样本。"),
    "sft_learning_rate": ("Learning rate of the SFT warm-up.", "SFT 预热的学习率。"),
    "completion_prefix": (
        "Pre-filled start of every answer (e.g. '<intro>'): generation continues after it, and rewards see the "
        "prefix plus the generated text.",
        "每个生成结果预先填好的开头（例如 '<intro>'）：从它之后继续生成，奖励看到的是前缀加上生成的文本。",
    ),
    "eval_every": (
        "Score the held-out eval prompts before training, after the warm-up and every this many steps (0: no "
        "eval). Logged as eval_reward and eval_rewards/<fn>/mean.",
        "在训练前、预热后以及每隔这么多步，给留出的评估提示词打分（0：不评估）。记录为 eval_reward 和 "
        "eval_rewards/<fn>/mean。",
    ),
    "eval_prompts": (
        "Held-out eval prompts (the prompt set's last rows, not trained on).",
        "留出的评估提示词数（取提示词集的最后几行，不参与训练）。",
    ),
    "eval_num_generations": (
        "Completions per eval prompt (fixed seeds).",
        "每个评估提示词的生成结果数（固定随机种子）。",
    ),
    "eval_max_completion_length": (
        "Maximum new tokens of an eval answer (0: max_completion_length). A longer cap than training's judges a "
        "held-out answer on what it wrote, not on where the training cap cut it.",
        "评估生成结果的最大新 token 数（0：同 max_completion_length）。比训练更长的上限，按留出提示词上的生成结果写了"
        "什么来评判，而不是按训练上限在哪里截断了它。",
    ),
    "fast_rollout": (
        "The CPU fast path (merged pre-packed rollout copy, shared prompts, allocator settings): 'auto' or "
        "'float32' (exact), 'bfloat16' (faster rollout where the CPU has native bf16, slightly off-policy, "
        "corrected by TRL's importance sampling below), 'int8' (int8 weights in the sampler, always under that "
        "correction; experimental: on SmolLM2 the sampler is so far off-policy that the correction drops nearly "
        "every completion and the format lesson does not learn; watch sampling/importance_sampling_ratio/mean), "
        "or 'off' for TRL's own code.",
        "CPU 快速路径（合并并预打包的采样副本、共享提示词、内存分配设置）：'auto' 或 'float32'（结果完全一致）、"
        "'bfloat16'（在原生支持 bf16 的 CPU 上采样更快，略微偏离策略，由下面 TRL 的重要性采样校正）、'int8'（采样器"
        "使用 int8 权重，总是在该校正之下；实验性：在 SmolLM2 上采样器偏离策略太远，校正几乎去掉了每个生成结果，格式课"
        "学不会；请看 sampling/importance_sampling_ratio/mean），或 'off' 使用 TRL 自己的代码。",
    ),
    "lora_r": ("LoRA rank.", "LoRA 的秩。"),
    "lora_alpha": ("LoRA alpha (the update is scaled by alpha / r).", "LoRA 的 alpha（更新量按 alpha / r 缩放）。"),
    "lora_dropout": ("Dropout on the LoRA layers.", "LoRA 层上的 dropout。"),
    "lora_target_modules": (
        "Modules that get LoRA adapters, e.g. q_proj,v_proj; 'all-linear' for every linear layer.",
        "加 LoRA 适配器的模块，例如 q_proj,v_proj；'all-linear' 表示所有线性层。",
    ),
    # the prompt source's flags (`playground.spec.DATA_FLAGS`), whose help `PromptSource`'s fields take from here
    "dataset_kind": (
        "Where the prompts come from: 'builtin', 'file' or 'hub'.",
        "提示词来源：'builtin'（内置）、'file'（文件）或 'hub'（Hugging Face 数据集）。",
    ),
    "dataset_name": (
        "Built-in set name, path of a local file, or Hugging Face dataset id.",
        "内置提示词集名称、本地文件路径，或 Hugging Face 数据集 id（org/name）。",
    ),
    "dataset_config": ("Hub dataset configuration (subset) name.", "Hub 数据集的配置（子集）名。"),
    "dataset_split": ("Hub dataset split.", "Hub 数据集的划分。"),
    "prompt_column": (
        "Column holding the prompts; it is renamed to `prompt`.",
        "存放提示词的列；它会被重命名为 `prompt`。",
    ),
    "column_map": (
        "Column renames, as existing=new pairs separated by commas: solution=answer makes an `answer` column of "
        "`solution` (for rewards that read `answer`); question=prompt makes `question` the prompt.",
        "列重命名，写成用逗号分隔的 原列名=新列名：solution=answer 会用 `solution` 生成 `answer` 列（供读取 "
        "`answer` 的奖励使用）；question=prompt 让 `question` 成为提示词。",
    ),
    "system_prompt": (
        "System message added to every prompt (prompts become conversational).",
        "加到每个提示词前的系统消息（提示词会变成对话格式）。",
    ),
    "max_rows": ("Only the first `max_rows` rows are used.", "只使用前 `max_rows` 行。"),
}

SETS: dict[str, str] = {
    "writing": "简短的英文写作提示词；有些要求 <intro>/<body>/<conclusion> 结构。",
    "arithmetic": "简单的算术应用题，数字答案在 `answer` 列中。",
    "chinese": "简体中文的简短问题和指令。",
    "code": "小型 Python 程序题（从标准输入读取，向标准输出打印），测试用例在 `tests` 列中，供 code_tests 使用。",
}


# A run of tags and what sits between them without spaces: "<think>/<answer>", "<intro>…</intro><body>…</body>".
_TAGS = re.compile(r"<[/A-Za-z][\w-]*>(?:[^\s<>`]*<[/A-Za-z][\w-]*>)*")


def markdown_text(text: str) -> str:
    """A description for a `gr.Markdown`: its tag names in code spans, so the browser shows them instead of taking
    them for HTML (which hid them and cut the sentence after an opening tag), and ` * ` as the × it means.

    >>> markdown_text("0.125 per well-placed <think>/<answer> tag, minus 0.001 per character after </answer>.")
    '0.125 per well-placed `<think>/<answer>` tag, minus 0.001 per character after `</answer>`.'
    """
    return _TAGS.sub(lambda m: f"`{m.group(0)}`", text).replace(" * ", " × ")


def info_text(text: str) -> str:
    """Help for a component's `info=`, which Gradio renders with a few Markdown marks of its own: an asterisk (as in
    '*_truncate') would start italics, so it is written as the asterisk operator."""
    return text.replace("*", "∗")
