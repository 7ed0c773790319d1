//! 中文：核心写给读者的每一句话。

use super::Key;

pub(super) fn text(key: Key) -> &'static str {
    match key {
        Key::ErrOutOfRange => "应在 {min} 到 {max} 之间",
        Key::ErrNotFinite => "请输入一个有限的数字",
        Key::ErrUnknownId => "未知的 id “{id}”",
        Key::ErrBelowMinimum => "不能低于 {min}（{why}）",
        Key::ErrRequired => "必须填写",
        Key::ErrTooMany => "最多 {max} 项",
        Key::ErrTooLong => "最多 {max} 个字符",
        Key::ErrTooFewGpus => "张量并行 × 流水线并行需要至少 {needed} 张 GPU",
        Key::MinPrefillAtPeak => {
            "所选 GPU 以峰值稠密算力计算整段提示词（2·P·提示词 token 数 FLOPs）所需的时间"
        }
        Key::MinPhysical => "物理下限",
        Key::RuleKvHeadsLeHeads => "KV 头数不能超过注意力头数",
        Key::RuleHeadsDivisibleByKvHeads => "注意力头数必须是 KV 头数的整数倍",
        Key::RuleHiddenDivisibleByHeads => "未给出 head_dim 时，hidden 必须能被头数整除",
        Key::RuleExpertsActiveLeExperts => "激活专家数不能超过专家总数",
        Key::RuleTpDividesHeads => "张量并行度必须整除注意力头数",
        Key::RulePpLeLayers => "流水线级数不能超过层数",
        Key::RuleWindowLeContext => "滑动窗口需为正数",
        Key::RuleLoraNeedsTransformer => "LoRA/QLoRA 需要 Transformer 结构的模型",
        Key::RuleQuantizedFullFinetune => {
            "全参数微调会更新每个权重，不能用量化的冻结格式（如 NF4）：请改用 QLoRA，或选 BF16 权重"
        }
        Key::RuleWeightsDisagreePrecision => {
            "全参数微调的权重格式由精度方案决定：混合精度与纯 BF16 为 BF16，FP32 为 FP32"
        }
        Key::RuleLoraRankZero => "LoRA 秩为 0 不添加任何适配器，没有可训练的参数：请选 1 以上（常用 8~64）",
        Key::RuleOptInBwdNoAccumulation => {
            "优化器步骤融合进反向传播时不能做梯度累积（torchtune 要求累积步数为 1）"
        }
        Key::RuleEstimateTooLarge => "估算超过 1 EB，请减小这个值",
        Key::RuleTiersRise => "流量阶梯的上限必须递增，只有最后一档可以不设上限",
        Key::RuleBlockDaysStep => "容量块按 1 天递增至 14 天，之后按 7 天递增至 182 天",
        Key::RuleSpotNeverFinishes => "中断太频繁：每次中断损失的时间超过了两次中断之间的时间",
        Key::RuleNamesUnique => "同一项目里的工作负载名称不能重复",
        Key::RuleReuseNeedsAService => "只有在线服务可以接手之前工作负载的机器",
        Key::RuleReuseNeedsSameMachines => "接手的机器必须是同一款 GPU，且卡数不少于之前的工作负载",
        Key::RuleOverlapsReused => "与它接手机器的工作负载时间重叠：同一批卡不能同时跑两件事",
        Key::RuleOther => "与其他字段矛盾",
        Key::NoteMoeResident => "MoE：所有专家都常驻显存；每个 token 只计算激活的专家（影响速度，不影响显存）。",
        Key::NoteVllmPoolUnknown => "vLLM 会把 KV 池预留到显卡显存 × gpu_memory_utilization；未选定显卡时只计算请求所需。",
        Key::NoteVllmPoolShort => "vLLM 的 KV 池小于请求所需：此利用率下放不下，需要更大的显存、更多 GPU 或更短的上下文。",
        Key::NoteVllmReserved => "vLLM 启动即预留 gpu_memory_utilization 比例的显存，显卡上看到的占用是预留量，而不是下面的所需量。",
        Key::NoteGenericActivations => "非 Transformer 模型：激活与工作区按所填数值计入，未按结构推导。",
        Key::NotePagedOptimizer => "分页优化器的状态在显存紧张时会换出到主机内存；此处按全部驻留显存计算。",
        Key::NoteSelectiveWithFlash => "FlashAttention 本就不保存注意力分数，选择性重计算不再节省显存。",
        Key::NoteRuleOfThumbLow => "常见的经验法则“显存 ≈ 权重 × 1.2–1.5”给出 {lo} 到 {hi}；本估算每卡 {sum}，即权重 × {r}。该法则没有计入随上下文 × 并发增长的 KV 缓存（本方案 {kv}），对本方案偏低。",
        Key::NoteRuleOfThumbHigh => "常见的经验法则“显存 ≈ 权重 × 1.2–1.5”给出 {lo} 到 {hi}；本估算每卡 {sum}，即权重 × {r}。该法则留的余量大于本方案的 KV 缓存和工作区（{kv} 与 {ws}）：对本方案偏高。",
        Key::NoteRuleOfThumbAgree => "常见的经验法则“显存 ≈ 权重 × 1.2–1.5”给出 {lo} 到 {hi}；本估算每卡 {sum}，即权重 × {r}。两者对本方案一致。",
        Key::CompWeights => "权重",
        Key::CompGradients => "梯度",
        Key::CompOptimizer => "优化器状态",
        Key::CompActivations => "激活值",
        Key::CompKvCache => "KV 缓存",
        Key::CompWorkspace => "工作区与运行时",
    }
}
