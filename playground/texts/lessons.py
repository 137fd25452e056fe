"""The lessons' texts (the Learn tab): each lesson's title, text and expected result, keyed `learn.lesson.<id>.title`,
`learn.lesson.<id>.text` and `learn.lesson.<id>.expected`; the recipes are in `playground.lessons.catalog`.

The `expected` figures were measured with `python bench/lessons.py` (docs/performance.md, "Lessons"); the page names
no repository file: a Space visitor cannot open one.
"""

TEXTS: dict[str, tuple[str, str]] = {
    "learn.lesson.groups.title": (
        "Groups and advantages",
        "分组与优势",
    ),
    "learn.lesson.groups.text": (
        (
            "GRPO asks the model for a **group** of answers to the same prompt (`num_generations`, G). Every reward "
            "scores every answer; an answer's **advantage** is its reward minus the group's mean, divided by the "
            "group's spread. Green answers (advantage above 0) are made more likely, red ones less.\n\nOpen "
            "**Preview**, press *Generate group* and look at the colours. Then pick a reward that gives every answer "
            "the same score: all advantages become 0 and there is nothing to learn. A group must differ."
        ),
        (
            "GRPO 让模型对同一个提示词生成**一组**生成结果（`num_generations`，即 G）。每个奖励函数给每个生成结果打分"
            "；一个生成结果的**优势**等于它的奖励减去组内平均值，再除以组内标准差。绿色（优势大于 0）的生成结果会被强"
            "化，红色的会被削弱。\n\n打开**预览**，点击*生成一组*，观察颜色。再换一个让所有生成结果得分相同的奖励：所"
            "有优势都变成 0，模型无从学习。组内的生成结果必须有差别。"
        ),
    ),
    "learn.lesson.groups.expected": (
        "Advantages sum to 0 in every group; a group whose answers all score the same has every advantage at 0.",
        "每组的优势之和都是 0；所有生成结果得分相同的组，每个优势都是 0。",
    ),
    "learn.lesson.length.title": (
        "Length: a reward that learns",
        "长度：一个学得会的奖励",
    ),
    "learn.lesson.length.text": (
        (
            "The article's first reward: `-abs(ideal_length - len(answer))`. The base model already writes answers of "
            "many lengths, so every group has a spread and GRPO has a signal from the first step.\n\nTrain it and "
            "watch the **eval curve**: the same held-out prompts with the same seeds, scored every few steps. The "
            "training reward jumps around because every step draws a different prompt; the eval curve does not."
        ),
        (
            "文章中的第一个奖励：`-abs(ideal_length - len(answer))`。基础模型本来就会写出长短不一的生成结果，所以每组"
            "都有差异，GRPO 从第一步就有学习信号。\n\n训练并观察**评估曲线**：每隔几步用同样的留出提示词和同样的随机"
            "种子打分。训练奖励会上下跳动，因为每一步抽到的提示词不同；评估曲线不会。"
        ),
    ),
    "learn.lesson.length.expected": (
        (
            "Measured on a quiet 2-core AMD EPYC (seed 42): eval reward -225 before training, -157 after 5 steps, "
            "-110 after 10, -83 after 15 and -76 after 20 (the training reward swung between -265 and -16 meanwhile); "
            "no warm-up, so all of the +149 came from GRPO. 2.3 min."
        ),
        (
            "在一台空闲的 2 核 AMD EPYC 上实测（随机种子 42）：评估奖励训练前 -225，第 5 步后 -157，第 10 步后 -110，"
            "第 15 步后 -83，第 20 步后 -76（同期训练奖励在 -265 到 -16 之间跳动）；没有预热，+149 全部来自 GRPO。用时"
            " 2.3 分钟。"
        ),
    ),
    "learn.lesson.format.title": (
        "Format: the cold start and its fix",
        "格式：冷启动问题及解决办法",
    ),
    "learn.lesson.format.text": (
        (
            "The article's format reward pays 1.0 only for `<intro>…</intro><body>…</body><conclusion>…</conclusion>` "
            "with text in every section (its regex uses `.+`). The playground's `format` keeps that, and differs on "
            "purpose in two ways: a section may span several lines (`re.DOTALL`; the article's `.` stops at a "
            "newline) and whitespace may sit between the sections (the article gives 0 to `</intro>\\n<body>`); it "
            "also refuses a section tag inside a section. `tag_layout` gives an empty section no credit either (see "
            "the reward-hacking lesson for why).\n\nThe small base model almost never writes these tags, so every "
            "group scores all 0: `frac_reward_zero_std` is 1.0 and GRPO learns nothing. **GRPO can only amplify a "
            "signal that exists.**\n\nThe fix is a **cold start**, as DeepSeek-R1 did before its RL stage:\n1. an "
            "**SFT warm-up** (`sft_warmup_steps`): a few supervised steps on the model's own answers wrapped in the "
            "tags;\n2. a **completion prefix** (`completion_prefix = <intro>`): every answer starts with the first "
            "tag (rewards see it);\n3. a **partial-credit** reward (`tag_layout`) next to the strict one, so a nearly "
            "right answer beats a wrong one.\n\nFirst run the recipe with `sft_warmup_steps = 0` and no prefix to see "
            "the flat line, then the full recipe. On the eval curve, the point after the warm-up shows what SFT did, "
            "and the points after it what GRPO added.\n\n**What the answers look like.** The format reward pays for "
            "the tags with text in them, not for sentences: after GRPO many sections hold a short phrase or a "
            "fragment, and a sentence is often cut across the tags (`<intro>How to make a cup of tea</intro>\\n"
            "<body>with a story</body>\\n<conclusion>is a story</conclusion>`, a held-out answer of the reference "
            "run). For answers with a whole sentence in every tag at a target length, see the **Combining rewards** "
            "lesson. A run of this recipe charts `sentence_rate` too: the share of answers with a sentence in each "
            "of the three tags."
        ),
        (
            "文章中的格式奖励只有在生成结果恰好是 `<intro>…</intro><body>…</body><conclusion>…</conclusion>`、并且每"
            "个部分都有内容时才给 1.0（它的正则用的是 `.+`）。实验场的 `format` 保留了这一点，只在两处有意不同：一个"
            "部分可以跨多行（`re.DOTALL`；文章里的 `.` 遇到换行就停），各部分之间可以有空白（文章会给 `</intro>\\n<bo"
            "dy>` 打 0 分）；此外，一个部分里不能再出现某个部分的标签。`tag_layout` 也不给空的部分任何分数（原因见“奖"
            "励投机”一课）。\n\n小的基础模型几乎从不写这些标签，所以每组的得分都是 0：`frac_reward_zero_std` 为 1.0，"
            "GRPO 什么也学不到。**GRPO 只能放大已经存在的信号。**\n\n解决办法是**冷启动**，就像 DeepSeek-R1 在强化学"
            "习之前所做的：\n1. **SFT 预热**（`sft_warmup_steps`）：用模型自己的生成结果套上标签，做几步监督训练；\n2"
            ". **生成前缀**（`completion_prefix = <intro>`）：每个生成结果都以第一个标签开头（奖励函数能看到它）；\n3"
            ". **部分得分**奖励（`tag_layout`）与严格奖励并用，让接近正确的生成结果比错误的得分更高。\n\n先用 `sft_wa"
            "rmup_steps = 0`、不加前缀运行，看到一条平线；再运行完整配方。在评估曲线上，预热之后的那个点显示 SFT 的作"
            "用，之后的点显示 GRPO 额外带来的提升。\n\n**生成结果是什么样子**：格式奖励为带内容的标签付分，而不是为句"
            "子付分：GRPO 之后，很多部分只有一个短语或半句话，一个句子常被切到几个标签里（`<intro>How to make a cup o"
            "f tea</intro>\\n<body>with a story</body>\\n<conclusion>is a story</conclusion>`，参考训练的一个留出生成"
            "结果）。想要每个标签里都有一个完整句子、长度合适的生成结果，请看“组合多个奖励”一课。训练本课配方时，图表"
            "也会画出 `sentence_rate`：三个标签里各有一个句子的生成结果所占比例。"
        ),
    ),
    "learn.lesson.format.expected": (
        (
            "Measured on a 2-core AMD EPYC (8 held-out prompts x 4 samples; answers trained at up to 128 tokens and "
            "judged at up to 160). Strict format (text in every section) before -> after the warm-up -> GRPO step 10 "
            "-> step 20: seed 42 0.00 -> 0.38 -> 0.72 -> 0.72 (quiet machine, both cores: 5.9 min, 1.1 of them "
            "held-out evals); seed 7 0.03 -> 0.56 -> 0.66 -> 0.75 and seed 11 0.00 -> 0.28 -> 0.56 -> 0.81 (5.1 min "
            "each, one run after another). Mean of the three seeds: the warm-up added +0.40 and GRPO +0.35 (final "
            "0.76). On 30 writing prompts the recipe was not tuned on (seed 42, 5.2 min): 0.00 -> 0.34 -> 0.50 -> "
            "0.72. Without the cold start (sft_warmup_steps = 0, no prefix) the strict format stays 0.00. The answers "
            "with a sentence in each of the three tags (`sentence_rate`, seed 42): 0.00 -> 0.22 -> 0.50 -> 0.34; "
            "the format reward does not ask for them."
        ),
        (
            "在一台 2 核 AMD EPYC 上实测（8 个留出提示词 × 每个 4 个样本；训练时生成结果最多 128 个 token，评估时最多"
            " 160 个）。严格格式（每个部分都有内容）训练前 → 预热后 → GRPO 第 10 步 → 第 20 步：随机种子 42 为 0.00 →"
            " 0.38 → 0.72 → 0.72（机器空闲，用两个核：5.9 分钟，其中 1.1 分钟是留出评估）；种子 7 为 0.03 → 0.56 → 0."
            "66 → 0.75，种子 11 为 0.00 → 0.28 → 0.56 → 0.81（依次运行，各 5.1 分钟）。三个种子的平均：预热带来 +0.40"
            "，GRPO 带来 +0.35（最终 0.76）。在配方没有调过的 30 个写作提示词上（种子 42，5.2 分钟）：0.00 → 0.34 → 0"
            ".50 → 0.72。不做冷启动（sft_warmup_steps = 0、不加前缀）时，严格格式一直是 0.00。三个标签里各有一个句子"
            "的生成结果（`sentence_rate`，种子 42）：0.00 → 0.22 → 0.50 → 0.34；格式奖励并不要求句子。"
        ),
    ),
    "learn.lesson.hacking.title": (
        "Reward hacking: empty sections",
        "奖励投机：空的段落",
    ),
    "learn.lesson.hacking.text": (
        (
            "A policy learns whatever the reward pays for, not what you meant. This recipe is the format lesson with "
            "one loophole: `format` with `allow_empty = true` (the regex `.*?` instead of the article's `.+`) pays "
            "1.0 for `<conclusion></conclusion>`, and a brevity reward (`length`, ideal 20 characters, weight 0.01) "
            "makes the shortest paid answer the best one. A second copy of `format`, strict and with weight 0, is "
            "scored and charted but never trained on: the gap between the two lines is the **hack rate**, the answers "
            "that pass only because a section is empty.\n\n1. Train it and watch the per-reward chart "
            "(`rewards/<fn>/mean`) and the held-out answers: the loose line climbs, the strict one lags behind, and "
            "conclusions empty out.\n2. Open the **Reward lab** and run the **probe** on this selection: it reports "
            "that tags with empty sections score as much as the best real answer (it also tries sections that hold "
            "only their own opening tag, which neither `format` pays for).\n3. Fix the reward: load the "
            "**format** lesson (strict `format`, and `tag_layout`, which gives an empty section no credit) and train "
            "it with the same seed.\n4. Compare the two runs side by side on the **Runs** tab (and the answers on "
            "**Compare**)."
        ),
        (
            "策略学到的是奖励付钱的东西，而不是你的本意。这个配方就是格式课的配方，只留了一个漏洞：`format` 设为 `all"
            "ow_empty = true`（正则用 `.*?`，而不是文章里的 `.+`），`<conclusion></conclusion>` 也能拿 1.0；再加上一"
            "个“简短”奖励（`length`，理想长度 20 个字符，权重 0.01），让能拿分的最短生成结果成为最好的生成结果。另一"
            "份严格的 `format` 权重为 0：它会被打分、画进图表，但不参与训练。两条线之间的差距就是**投机率**，也就是只"
            "因为某个段落为空才通过的生成结果。\n\n1. 训练并观察按奖励分开的图表（`rewards/<fn>/mean`）和留出提示词的"
            "生成结果：宽松的那条线往上走，严格的那条落在后面，结论段落渐渐变空。\n2. 打开**奖励实验室**，对这组奖励"
            "运行**探测**：它会报告“标签齐全但各部分为空”的文本和最好的真实的生成结果得分一样（它也会试每个段落里只有"
            "自己的开始标签的文本，两份 `format` 都不给分）。\n3. 修好奖励：载入**格式**一课（严格的 `format`，以及不"
            "给空段落任何分数的 `tag_layout`），用同样的随机种子训练。\n4. 在**运行记录**页把两次运行放在一起比较（在"
            "**对比**页看生成结果）。"
        ),
    ),
    "learn.lesson.hacking.expected": (
        (
            "Measured on a quiet 2-core AMD EPYC (both cores; 8 held-out prompts x 4 samples, seed 42). Loose format "
            "(trained) / strict format (watched) before -> after the warm-up -> GRPO step 10 -> step 20: 0.00/0.00 -> "
            "0.38/0.34 -> 0.72/0.69 -> 0.72/0.59. The gap, the hack rate, grows from 0.03 to 0.13 over the last 10 "
            "steps, and the share of answers with an empty section from 0.06 to 0.19, e.g. `<intro>The advantages of "
            "walking every day</intro> <body>are far</body><conclusion></conclusion>`. The brevity reward finds a "
            "second loophole that even the strict format pays: one-word sections (`<intro>Your homemade</intro> "
            "<body>glass of</body> <conclusion>jumbo</conclusion>`). Without the brevity reward, 20 steps did not "
            "empty the sections (0.88 loose, 0.84 strict): a loophole is only exploited when something favours it. "
            "5.5 min."
        ),
        (
            "在一台空闲的 2 核 AMD EPYC 上实测（用两个核；8 个留出提示词 × 每个 4 个样本，随机种子 42）。宽松格式（参"
            "与训练）/ 严格格式（只观察）训练前 → 预热后 → GRPO 第 10 步 → 第 20 步：0.00/0.00 → 0.38/0.34 → 0.72/0.6"
            "9 → 0.72/0.59。两者之差（投机率）在最后 10 步从 0.03 增加到 0.13，含空段落的生成结果比例从 0.06 增加到 0"
            ".19，例如 `<intro>The advantages of walking every day</intro> <body>are far</body><conclusion></conclusi"
            "on>`。简短奖励还找到了第二个漏洞，连严格格式也照样给分：每段只写一个词（`<intro>Your homemade</intro> <b"
            "ody>glass of</body> <conclusion>jumbo</conclusion>`）。去掉简短奖励时，20 步后段落并没有变空（宽松 0.88"
            "，严格 0.84）：只有当某个东西偏爱漏洞时，漏洞才会被利用。用时 5.5 分钟。"
        ),
    ),
    "learn.lesson.combine.title": (
        "Combining rewards: the trap and its fix",
        "组合多个奖励：陷阱与解决办法",
    ),
    "learn.lesson.combine.text": (
        (
            "The article adds rewards: `0.7 * length + 0.3 * format`. TRL does the same with several reward "
            "functions and `reward_weights`, and logs each one as `rewards/<fn>/mean`. This lesson has two recipes: "
            "**Load** sets the fix, **Load the trap** the trap; the chart and the answers show the reference run of "
            "both.\n\n**The trap**: a plain weighted sum of `length` and the partial-credit `tag_layout`. A reward "
            "on a large scale (length: tens or hundreds of characters off) drowns one on a small scale (0 to 1): "
            "even at weight 0.01 the length spread decides which answers GRPO favours, and GRPO undoes the layout "
            "the warm-up taught. A reward that never varies cannot be helped by any weight either: with "
            "`scale_rewards = group` a constant term cancels out. It needs a cold start (see the format lesson), not "
            "a bigger weight.\n\n**The fix**: the article's `length` and strict `format`, with four changes:\n1. "
            "`multi_objective_aggregation = normalize_then_sum`: TRL normalizes each reward within its group before "
            "the sum, so each reward counts by how it ranks the answers, not by its scale;\n2. a warm-up whose "
            "examples hold a whole sentence in every tag (`sft_split = sentences`): each takes the earliest "
            "sentences of one of the model's own answers that fit, one a tag, never a sentence cut in the middle. "
            "Kept only when all of an answer's sentences fit, one seed had 3 examples, and GRPO copied a stock "
            'sentence of one of them ("I\'m here to help.") into most intros, whatever the prompt;\n3. a length '
            "target that fits three short sentences and the tags (`ideal_length = 200` characters), at weight 2;\n4. "
            "a third reward, `tag_sentences`: the share of the tags that hold a sentence. The strict format pays as "
            "much for `<intro>A</intro>` as for a sentence, so without it GRPO added nothing to the warm-up's "
            "sentences on two seeds of three. Its pull is towards longer sections, hence the length's weight 2: at "
            "weight 1 one seed of three wrote paragraphs, ran to the length cap and lost the layout.\n\nThe warm-up "
            "gives the layout and most of the sentences; GRPO brings the answers to the target length and keeps "
            "both. The chart draws the fix's `format` and `sentence_rate` (the share of answers with a sentence "
            "in each of the three tags, none left out: at least four words, ending in . ! or ?) and the trap's "
            "`tag_layout`."
        ),
        (
            "文章把奖励加在一起：`0.7 * length + 0.3 * format`。TRL 用多个奖励函数加 `reward_weights` 做同样的事，并"
            "把每个奖励记录为 `rewards/<fn>/mean`。本课有两个配方：**载入**设置解决办法，**载入陷阱配方**设置陷阱；图"
            "表和生成结果展示两者的参考训练。\n\n**陷阱**：把 `length` 和给部分得分的 `tag_layout` 直接加权求和。数值"
            "范围大的奖励（长度：差几十到几百个字符）会淹没范围小的奖励（0 到 1）：即使权重只有 0.01，GRPO 偏向哪些生"
            "成结果仍由长度的差异决定，预热教会的格式又被 GRPO 抹掉。一个从不变化的奖励，任何权重都救不了它：在 `scal"
            "e_rewards = group` 下常数项会被抵消。它需要冷启动（见格式一课），而不是更大的权重。\n\n**解决办法**：仍"
            "用文章的 `length` 和严格的 `format`，改四处：\n1. `multi_objective_aggregation = normalize_then_sum`：TR"
            "L 先在组内把每个奖励分别归一化再求和，每个奖励按它对生成结果的排序起作用，而不是按它的数值范围；\n2. 预"
            "热样例的每个标签里都是一个完整的句子（`sft_split = sentences`）：每个样例取模型自己的一个生成结果里最靠"
            "前、放得下的几个句子，每个标签一句，从不在句子中间切开。如果只收句子全都放得下的生成结果，有一个种子只剩"
            " 3 个样例，GRPO 又把其中一个样例的套话（“I'm here to help.”）抄进了大多数开头，不管提示词问的是什么；\n3"
            ". 长度目标能容纳三个短句和标签（`ideal_length = 200` 个字符），权重 2；\n4. 第三个奖励 `tag_sentences`："
            "装着一个句子的标签所占比例。严格格式给 `<intro>A</intro>` 的分数和给一个句子的一样多，所以没有它时，三个"
            "种子里有两个的 GRPO 没有在预热的基础上增加句子。它会把各部分往长里拉，所以长度的权重是 2：权重为 1 时，"
            "三个种子里有一个写成了整段文字，写到长度上限，格式也丢了。\n\n格式和大部分句子来自预热；GRPO 把生成结果"
            "拉到目标长度，同时保住这两样。图表画出解决办法的 `format` 和 `sentence_rate`（三个标签一个不少、每个里都"
            "有一个句子的生成结果所占比例：至少四个词，以 . ! ? 结尾），以及陷阱的 `tag_layout`。"
        ),
    ),
    "learn.lesson.combine.expected": (
        (
            "Seed 42, 8 held-out prompts x 4 samples. The fix (20 GRPO steps): answers with a sentence in each of the "
            "three tags 0.00 before training -> 0.78 after the warm-up -> 0.75 at step 10 -> 0.72 at step 20; strict "
            "format 0.00 -> 0.81 -> 0.91 -> 0.88; mean distance to the 200-character target 283 -> 101 -> 61 -> 62 "
            "characters, e.g. `<intro>Walking every day can be a positive habit to adopt. It can boost our physical "
            "health and well-being.</intro>\\n<body>Including a walk every day can make our lives more enjoyable and "
            "stress-free.</body>\\n<conclusion>This can have a positive impact on our lives.</conclusion>`. 8.3 min "
            "on a 2-core Intel Xeon at one thread, beside another run; about 5.6 min with both cores. Seeds 0 and 1 "
            "end at 0.75 and 0.81 (from 0.84 and 0.66 after the warm-up), and 30 prompts the recipe was not tuned "
            "on at 0.91 (from 0.56), every distance under 80 characters. With 32 answers one answer is 0.03 of the "
            "share. "
            "Read the answers too: on one held-out prompt GRPO wrote `Sleep is important.` in all three tags; three "
            "words miss the sentence rule, a four-word copy would not. The trap (10 GRPO steps; a quiet 2-core AMD "
            "EPYC, 3.6 min): distance to the target 135 -> 75 after the warm-up -> 118; tag_layout 0.29 -> 0.67 -> "
            "0.41. GRPO took back part of what the warm-up gave: answers ran to the length cap, and the clipped and "
            "dominant_reward alerts fired."
        ),
        (
            "随机种子 42，8 个留出提示词 × 每个 4 个样本。解决办法（GRPO 20 "
            "步）：三个标签里各有一个句子的生成结果比例训练前 0.00 → 预热后 0.78 → 第 10 步 0.75 → 第 20 步 "
            "0.72；严格格式 0.00 → 0.81 → 0.91 → 0.88；与 200 个字符目标的平均差距 283 → 101 → 61 → 62 "
            "个字符，例如 `<intro>Walking every day can be a positive habit to adopt. It can boost our physical "
            "health and well-being.</intro>\\n<body>Including a walk every day can make our lives more enjoyable and "
            "stress-free.</body>\\n<conclusion>This can have a positive impact on our lives.</conclusion>`。在一台 2 "
            "核 Intel Xeon 上用一个线程、旁边还跑着另一次训练，用时 8.3 分钟；两个核都用时约 5.6 分钟。种子 0 和 1 "
            "最后分别是 0.75 和 0.81（预热后分别是 0.84 和 0.66），在配方没有调过的 30 个提示词上是 0.91（预热后 "
            "0.56），与目标的差距都在 80 个字符以内。32 个生成结果里，一个生成结果就占比例的 "
            "0.03。也要读生成结果：在一个留出提示词上，GRPO 在三个标签里都写了 `Sleep is "
            "important.`；三个词不满足句子规则，但四个词的套话就满足了。陷阱（GRPO 10 步；一台空闲的 2 核 AMD "
            "EPYC，3.6 分钟）：与目标的差距 135 → 预热后 75 → 118；tag_layout 0.29 → 0.67 → 0.41。GRPO "
            "退回了预热带来的一部分：生成结果写到长度上限，clipped 和 dominant_reward 提醒触发。"
        ),
    ),
    "learn.lesson.metrics.title": (
        "Reading the metrics",
        "看懂训练指标",
    ),
    "learn.lesson.metrics.text": (
        (
            "- `reward`: the mean weighted reward of the step's answers; up is good, but it is noisy because each "
            "step has new prompts. Trust `eval_reward` (held-out prompts, fixed seeds) more.\n- `reward_std`: how "
            "much answers differ; near 0 means no signal.\n- `frac_reward_zero_std`: share of groups where every "
            "answer scored the same; 1.0 means nothing to learn.\n- `kl`: how far the model moved from the base model "
            "(only with `beta` > 0); a sudden jump means too large a step.\n- `loss`: not a progress bar. With TRL's "
            "default `loss_type` (dapo) it is the token-weighted mean of minus the advantage (plus `beta` x kl); "
            "advantages average 0 in a group, so the loss is 0 when all answers have the same length and positive "
            "when the longer answers are the worse ones, as with the length reward.\n- `completions/clipped_ratio`: "
            "share of answers cut at `max_completion_length`; high values mean answers never finish."
        ),
        (
            "- `reward`：这一步生成结果的加权平均奖励；越高越好，但因为每一步的提示词不同，所以波动很大。更应相信 `ev"
            "al_reward`（留出提示词、固定种子）。\n- `reward_std`：生成结果之间的差异；接近 0 表示没有信号。\n- `frac"
            "_reward_zero_std`：所有生成结果得分相同的组所占比例；1.0 表示无从学习。\n- `kl`：模型偏离基础模型的程度"
            "（仅当 `beta` > 0）；突然跳高说明步子太大。\n- `loss`：它不是进度条。在 TRL 默认的 `loss_type`（dapo）下"
            "，它是负优势按 token 数加权的平均值（再加上 `beta` × kl）；组内优势的平均值为 0，所以所有生成结果一样长"
            "时损失为 0，较长的生成结果较差时（比如长度奖励）损失为正。\n- `completions/clipped_ratio`：被 `max_compl"
            "etion_length` 截断的生成结果比例；偏高说明生成结果写不完。"
        ),
    ),
    "learn.lesson.metrics.expected": (
        (
            "Measured on a quiet 2-core AMD EPYC (seed 42): eval reward -225 before, -171 at step 5, -133 at step 10, "
            "while the step reward swung between -266 and -49; loss between 0.0006 and 0.38 (positive: the long "
            "answers had the negative advantages); kl rose from 0 to 0.113 and raised the kl_spike alert; "
            "clipped_ratio 1.0 at step 6 and 0 at the end. No warm-up: all of the +92 came from GRPO, +54 of it in "
            "the first 5 steps. 1.7 min."
        ),
        (
            "在一台空闲的 2 核 AMD EPYC 上实测（随机种子 42）：评估奖励训练前 -225，第 5 步 -171，第 10 步 -133，而每"
            "一步的奖励在 -266 到 -49 之间跳动；损失在 0.0006 到 0.38 之间（为正：较长的生成结果优势为负）；kl 从 0 "
            "升到 0.113，触发了 kl_spike 提醒；clipped_ratio 在第 6 步为 1.0，最后为 0。没有预热：+92 全部来自 GRPO，"
            "其中 +54 来自前 5 步。用时 1.7 分钟。"
        ),
    ),
    "learn.lesson.troubleshooting.title": (
        "Troubleshooting",
        "常见问题排查",
    ),
    "learn.lesson.troubleshooting.text": (
        (
            "The playground raises alerts while training; each names its metric and what to try:\n- **no_signal**: "
            "most groups gave all answers the same reward over a window of steps. Make the reward graded, raise "
            "`temperature` or `num_generations`; if the reward never varied at all, no weighting can help: use a cold "
            "start (`sft_warmup_steps`, `completion_prefix`, `tag_layout`).\n- **flat_reward**: the eval reward did "
            "not move. Raise `learning_rate`, check the reward.\n- **clipped**: answers hit "
            "`max_completion_length`.\n- **kl_spike** / **collapse**: steps too large; lower `learning_rate`, raise "
            "`beta`.\n\nThis recipe is the format reward alone, without a cold start: it shows the no_signal alert."
        ),
        (
            "训练时实验场会发出提醒；每条提醒都写明相关指标和可以尝试的办法：\n- **no_signal**：在一段步数内，大多数"
            "组里所有生成结果得分相同。让奖励更有梯度，提高 `temperature` 或 `num_generations`；如果奖励从未变化，任"
            "何权重都无济于事：请用冷启动（`sft_warmup_steps`、`completion_prefix`、`tag_layout`）。\n- **flat_reward"
            "**：评估奖励没有变化。提高 `learning_rate`，检查奖励函数。\n- **clipped**：生成结果触到 `max_completion_"
            "length`。\n- **kl_spike** / **collapse**：步子太大；降低 `learning_rate`，提高 `beta`。\n\n这个配方只用"
            "格式奖励、不做冷启动：它会触发 no_signal 提醒。"
        ),
    ),
    "learn.lesson.troubleshooting.expected": (
        (
            "rewards/format/mean 0.0 at every step (8 steps, 64 answers, 1.6 min on a quiet 2-core AMD EPYC; 30 steps "
            "and 240 answers gave the same); from step 3 the no_signal and constant_reward alerts say no weighting "
            "can help and point at the cold-start tools. No warm-up and nothing from GRPO: that is the lesson."
        ),
        (
            "每一步 rewards/format/mean 都是 0.0（8 步、64 个生成结果，在一台空闲的 2 核 AMD EPYC 上用时 1.6 分钟；30"
            " 步、240 个生成结果结果相同）；从第 3 步起，no_signal 和 constant_reward 提醒指出任何权重都无济于事，并"
            "指向冷启动工具。没有预热，GRPO 也一无所获：这正是本课要讲的。"
        ),
    ),
    "learn.lesson.arithmetic.title": (
        "Arithmetic: think, then answer",
        "算术：先思考，再作答",
    ),
    "learn.lesson.arithmetic.text": (
        (
            "DeepSeek-R1's recipe in miniature: the answer must be open-r1's layout "
            "`<think>\\n…\\n</think>\\n<answer>\\n…\\n</answer>` and nothing after it (`think_answer_strict`), and "
            "the number in the answer must be right (`correctness`, against the prompt set's `answer` column). The "
            "base model writes neither, so the lesson uses the format lesson's cold start: the prefix `<think>` and "
            "an SFT warm-up on the model's own answers laid out in the tags. Because the run scores correctness, the "
            "warm-up keeps only the answers whose number is right (**rejection sampling**, as R1's cold-start data "
            "was filtered).\n\nThe arithmetic prompt set was re-graded for this model: one operation (+, -, x) on "
            "small numbers. Harder problems give a 135M model almost no right answer, and then correctness has no "
            "signal either. The strict layout matters: with a layout reward that accepts text after `</answer>`, GRPO "
            "drifted into answers that repeat `<answer>` blocks and never stop."
        ),
        (
            "DeepSeek-R1 配方的缩小版：生成结果必须是 open-r1 的格式 `<think>\\n…\\n</think>\\n<answer>\\n…\\n</answe"
            "r>`，之后不能再有别的内容（`think_answer_strict`），并且答案里的数字必须正确（`correctness`，与提示词集"
            "的 `answer` 列比对）。基础模型两样都不会，所以本课使用与格式课相同的冷启动：前缀 `<think>`，以及用模型自"
            "己的生成结果套上标签做 SFT 预热。由于本次训练会给正确性打分，预热只保留数字算对的生成结果（**拒绝采样**"
            "，R1 的冷启动数据也做过这样的筛选）。\n\n算术提示词集已按这个模型重新调整了难度：只有一步运算（加、减、"
            "乘）和小数字。题目再难一些，135M 的小模型几乎答不对，正确性奖励也就没有信号。严格的格式很重要：如果格式"
            "奖励允许 `</answer>` 之后还有文字，GRPO 会逐渐学会不停重复 `<answer>` 段落、停不下来。"
        ),
    ),
    "learn.lesson.arithmetic.expected": (
        (
            "Measured on a 2-core AMD EPYC (each run alone on the quiet machine, one after another; 16 held-out "
            "problems x 4 samples = 64). Correctness before -> after the warm-up -> GRPO step 10 -> step 20: seed 42 "
            "14% -> 31% -> 44% -> 47%; seed 7 22% -> 25% -> 48% -> 53%; seed 11 8% -> 30% -> 45% -> 48%. Mean of the "
            "three: the warm-up's rejection-sampled examples added +14 points and GRPO +21. With one problem a step "
            "GRPO's share was -2 points: a problem the model always or never solves gives every answer the same "
            "score, so about half the steps had no correctness signal; two problems a step keep one. The strict "
            "think/answer layout reached 0.95, 1.00 and 0.97 after GRPO. 9 to 10 minutes a run."
        ),
        (
            "在一台 2 核 AMD EPYC 上实测（每次只运行一个，机器空闲，依次运行；16 道留出题 × 每题 4 个样本 = 64）。正"
            "确率训练前 → 预热后 → GRPO 第 10 步 → 第 20 步：随机种子 42 为 14% → 31% → 44% → 47%；种子 7 为 22% → 25"
            "% → 48% → 53%；种子 11 为 8% → 30% → 45% → 48%。三个种子的平均：预热（拒绝采样得到的样例）带来 +14 个百"
            "分点，GRPO 带来 +21。每步只有一道题时，GRPO 的贡献是 -2：模型总是答对或总是答错的题，每个生成结果得分都"
            "一样，大约一半的步骤没有正确性信号；每步两道题就保住了这个信号。严格的 think/answer 格式在 GRPO 后为 0.9"
            "5、1.00 和 0.97。每次运行 9 到 10 分钟。"
        ),
    ),
}
