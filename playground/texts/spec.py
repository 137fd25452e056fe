"""Refusals of a run spec (playground/spec.py, playground/validation.py and the Train form): each names its field,
which stays TRL's name in both languages."""

TEXTS: dict[str, tuple[str, str]] = {
    # reading a spec (JSON, YAML, CLI flags, the form)
    "spec.unknown_section": ("Unknown run spec section {name!r}.", "未知的运行规格分区 {name!r}。"),
    "spec.unknown_field": ("Unknown run spec field {name!r}.", "未知的运行规格字段 {name!r}。"),
    "spec.type": ("{name} must be {expected}, got {value!r}.", "{name} 必须是 {expected} 类型，实际为 {value!r}。"),
    "spec.type_or_none": (
        "{name} must be {expected} or None, got {value!r}.",
        "{name} 必须是 {expected} 类型或 None，实际为 {value!r}。",
    ),
    "spec.custom_code_type": (
        "custom_code must be Python source text, got {kind}.",
        "custom_code 必须是 Python 源代码文本，实际为 {kind}。",
    ),
    "spec.needs_number": ("{name} needs a number.", "{name} 需要一个数字。"),
    "spec.max_steps_days": (
        "max_steps {value} would take at least {days} days, even at one second a step; give at most {cap} steps.",
        "max_steps {value} 即使每步只用一秒也至少需要 {days} 天；请设为不超过 {cap} 步。",
    ),
    "spec.field_prefix": ("{name}: {message}", "{name}：{message}"),
    # a field's bounds (its metadata in playground/spec.py): one refusal per kind of bound
    "spec.bound.min": ("{name} must be at least {min}, got {value}.", "{name} 至少为 {min}，实际为 {value}。"),
    "spec.bound.gt": ("{name} must be above {gt}, got {value}.", "{name} 必须大于 {gt}，实际为 {value}。"),
    "spec.bound.min_max": (
        "{name} must be between {min} and {max}, got {value}.",
        "{name} 必须在 {min} 到 {max} 之间，实际为 {value}。",
    ),
    "spec.bound.gt_max": (
        "{name} must be above {gt} and at most {max}, got {value}.",
        "{name} 必须大于 {gt} 且不超过 {max}，实际为 {value}。",
    ),
    "spec.bound.gt_lt": (
        "{name} must be between {gt} and {lt}, both excluded, got {value}.",
        "{name} 必须在 {gt} 和 {lt} 之间（不含两端），实际为 {value}。",
    ),
    "spec.bound.min_lt": (
        "{name} must be in [{min}, {lt}), got {value}.",
        "{name} 必须在 [{min}, {lt}) 范围内，实际为 {value}。",
    ),
    "spec.bound.choices": (
        "{name} must be one of {valid}, got {value!r}.",
        "{name} 必须是 {valid} 之一，实际为 {value!r}。",
    ),
    "spec.bound.nonempty": ("{name} must not be empty.", "{name} 不能为空。"),
    "spec.bound.max_chars": (
        "{name} must be at most {max} characters, got {value}.",
        "{name} 最多 {max} 个字符，实际为 {value} 个。",
    ),
    # what spans fields, the machine and the packages
    "spec.report_to": (
        "report_to {name!r} cannot log here; the trackers installed are: {names} (pip install trackio adds trackio).",
        "report_to {name!r} 无法在此记录；已安装的跟踪工具：{names}（pip install trackio 可添加 trackio）。",
    ),
    "spec.generation_batch": (
        "The generation batch (per_device_train_batch_size × steps_per_generation = {batch}) must be divisible by "
        "num_generations ({g}); per_device_train_batch_size counts completions, not prompts.",
        "生成批量（per_device_train_batch_size × steps_per_generation = {batch}）必须能被 num_generations（{g}）"
        "整除；per_device_train_batch_size 计的是生成结果数，不是提示词数。",
    ),
    "spec.fast_rollout_bf16_cpu": (
        "fast_rollout bfloat16 needs a CPU with native bf16 (AVX512-BF16 or AMX); here it would be slower than "
        "float32: use auto.",
        "fast_rollout 设为 bfloat16 需要原生支持 bf16 的 CPU（AVX512-BF16 或 AMX）；在这台机器上它会比 float32 "
        "更慢：请用 auto。",
    ),
    "spec.int8_uncorrected": (
        "fast_rollout int8 samples from a quantized copy of the policy: it needs vllm_importance_sampling_correction "
        "on (TRL's importance-sampling correction).",
        "fast_rollout 设为 int8 时从策略的量化副本采样：必须打开 vllm_importance_sampling_correction（TRL 的重要性"
        "采样校正）。",
    ),
    "spec.fast_rollout_int8_cpu": (
        "fast_rollout int8 needs torch's int8 CPU kernels (the `x86` quantized engine), which this install lacks: "
        "use auto.",
        "fast_rollout 设为 int8 需要 `torch` 的 int8 CPU 内核（`x86` 量化引擎），当前安装中没有：请用 auto。",
    ),
    "spec.bf16_cpu": (
        "bf16 needs a CPU with native bf16 (AVX512-BF16 or AMX); here it would be slower than fp32: turn it off.",
        "bf16 需要原生支持 bf16 的 CPU（AVX512-BF16 或 AMX）；在这台机器上它会比 fp32 更慢：请关闭它。",
    ),
    "spec.vespo_token_level": (
        "The vespo loss needs a token-level vllm_importance_sampling_mode (token_truncate or token_mask).",
        "vespo 损失需要词元级的 vllm_importance_sampling_mode（token_truncate 或 token_mask）。",
    ),
    # cold start and evals
    "spec.sft_tags": (
        "sft_tags must be tag names such as intro,body,conclusion, got {value!r}.",
        "sft_tags 必须是标签名，例如 intro,body,conclusion，实际为 {value!r}。",
    ),
    "spec.sft_examples": (
        "sft_examples must be 'auto' or a .jsonl file of prompt/completion rows, got {value!r}.",
        "sft_examples 必须是 'auto'，或由 prompt/completion 行组成的 .jsonl 文件，实际为 {value!r}。",
    ),
    # LoRA, quantization, device
    "spec.quantization_both": ("Choose 4-bit or 8-bit quantization, not both.", "4 位和 8 位量化只能选一种。"),
    "spec.cuda_missing": (
        "device is cuda but no CUDA GPU is available here; use auto or cpu.",
        "device 为 cuda，但这里没有可用的 CUDA GPU；请使用 auto 或 cpu。",
    ),
    "spec.quantization_unavailable": (
        "{bits}-bit quantization is not available: {reason}",
        "{bits} 位量化不可用：{reason}",
    ),
    "spec.bnb_missing": (
        "bitsandbytes is not installed (pip install bitsandbytes).",
        "没有安装 bitsandbytes（pip install bitsandbytes）。",
    ),
    "spec.bnb_broken": ("bitsandbytes failed to load ({error}).", "bitsandbytes 加载失败（{error}）。"),
    "spec.bnb_8bit_cpu": (
        "8-bit LLM.int8 training needs a CUDA GPU; on CPU use 4-bit (load_in_4bit) instead.",
        "8 位 LLM.int8 训练需要 CUDA GPU；在 CPU 上请改用 4 位（load_in_4bit）。",
    ),
    # several processes, vLLM
    "spec.processes_batch": (
        "The generation batch over {n} processes (per_device_train_batch_size {size} × num_processes {n} × "
        "steps_per_generation {steps} = {batch}) must be divisible by num_generations ({g}); use a multiple of "
        "{fits} as per_device_train_batch_size, or another process count.",
        "{n} 个进程的生成批量（per_device_train_batch_size {size} × num_processes {n} × steps_per_generation "
        "{steps} = {batch}）必须能被 num_generations（{g}）整除；请把 per_device_train_batch_size 设为 {fits} "
        "的倍数，或换一个进程数。",
    ),
    "spec.processes_warmup": (
        "The SFT warm-up runs in the app's own process only: set sft_warmup_steps to 0, or num_processes to 1.",
        "SFT 预热只在应用自己的进程中运行：请把 sft_warmup_steps 设为 0，或把 num_processes 设为 1。",
    ),
    "spec.processes_gpus": (
        "num_processes is {n} but this machine has {gpus} GPU(s); use at most {gpus}.",
        "num_processes 为 {n}，但这台机器只有 {gpus} 块 GPU；最多用 {gpus} 个。",
    ),
    "spec.processes_cores": (
        "num_processes is {n} but this machine has {cores} CPU core(s); each process needs one, use at most {cores}.",
        "num_processes 为 {n}，但这台机器只有 {cores} 个 CPU 核；每个进程需要一个核，最多用 {cores} 个。",
    ),
    "spec.vllm_cuda": (
        "use_vllm needs a CUDA GPU; on CPU the fast rollout is used.",
        "use_vllm 需要 CUDA GPU；在 CPU 上会使用快速采样。",
    ),
    "spec.vllm_missing": (
        "use_vllm needs the vllm package (pip install vllm); it is optional.",
        "use_vllm 需要 vllm 包（pip install vllm）；它是可选的。",
    ),
    # rewards of a run
    "spec.no_reward": ("Pick at least one reward.", "请至少选择一个奖励。"),
    "spec.reward_weight": (
        "The weight of reward {name!r} must be a finite number.",
        "奖励 {name!r} 的权重必须是有限的数。",
    ),
    "spec.reward_column": (
        "Reward {name!r} needs the dataset column {column!r}, but the data has only: {columns}. Map a column to "
        "{column!r} or pick another prompt set.",
        "奖励 {name!r} 需要数据集列 {column!r}，但数据中只有：{columns}。"
        "请把某一列映射为 {column!r}，或换一个提示词集。",
    ),
    # public mode: what a visitor may ask of a shared app
    "public.model": (
        "This app is public: the model must be the app's own or a Hugging Face Hub id (org/name), not {name!r}; "
        "folders of the server are not read.",
        "这是公开的应用：模型必须是应用自带的，或 Hugging Face Hub id（org/name），而不是 {name!r}；"
        "不会读取服务器上的文件夹。",
    ),
    "public.generations": (
        "This app is public: num_generations must be between {low} and {high}, got {value}.",
        "这是公开的应用：num_generations 必须在 {low} 到 {high} 之间，实际为 {value}。",
    ),
    "public.max_new_tokens": (
        "This app is public: max_new_tokens must be between 1 and {max}, got {value}.",
        "这是公开的应用：max_new_tokens 必须在 1 到 {max} 之间，实际为 {value}。",
    ),
}
