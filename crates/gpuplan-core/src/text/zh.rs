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
        Key::FlagNoFit => "在最多 {n} 张 {gpu} 上，任何可用的切分方式都装不下",
        Key::FlagFastLinkPcie => "{what}把模型拆到 {group} 张卡上，每层或每步都要交换数据，需要 NVLink 级互联；{gpu} 只有 PCIe。请选带 NVLink 的配置，或在了解 PCIe 代价后再接受",
        Key::FlagFastLinkDomain => "{what}需要 {group} 张卡之间的高速互联，但 {link}（{gpu}）只连通 {domain} 张，其余流量走 PCIe 或网络",
        Key::FlagBridgeCheck => "{what}依赖 NVLink 桥接（{link}）：请确认报价中的机器装有桥接",
        Key::FlagFp8 => "FP8 权重：{name} 没有 FP8 张量核心（FP8 需要 Ada/Hopper 或更新的架构）；最多只能按权重量化运行、反量化到 16 位，速度更慢，请核对推理引擎是否支持",
        Key::FlagFp4 => "MXFP4 权重：FP4 需要 Blackwell 或 MI355X；在 {name} 上只有引擎提供回退内核时才能运行，且没有 FP4 的速度",
        Key::FlagBf16 => "{name} 不支持 BF16：请改用 FP16（训练需配合损失缩放）；以 BF16 训练的模型在 FP16 下可能溢出",
        Key::FlagPrecisionUnverified => "我们的资料没有说明 {name} 是否在硬件上支持 {format}：请向厂商核实",
        Key::FlagGeforceLicence => "GeForce 软件许可：第 2.8 条限于用户自有的 GeForce/Titan 硬件且不授权数据中心部署；第 2.7 条禁止出租或用其提供商业托管服务（除非明确授权）。租用或托管前请让供应商和内部负责人核对授权。以上为一般信息，不构成法律意见",
        Key::FlagNoEcc => "{name} 没有 ECC 纠错：长时间训练或生产服务可能出现静默数据错误",
        Key::FlagCuda12Only => "CUDA 13 移除了 Maxwell、Pascal 和 Volta 的离线编译：{name} 需要 CUDA 12.x（驱动 >= 525），请确认镜像里的版本",
        Key::FlagCuda128 => "{name}（sm_120）需要 CUDA >= 12.8 和驱动 >= 570.26，较旧的镜像和 PyTorch 版本无法运行",
        Key::FlagRocm => "{name} 使用 ROCm：PyTorch、vLLM、SGLang 可用，但自定义 CUDA 内核、部分量化库和小众工具可能需要移植或无法运行；决定前请把整套技术栈端到端跑一遍",
        Key::FlagCann => "{name} 使用华为 CANN 而不是 CUDA：框架、推理引擎和量化库都需要昇腾版本；决定前请把整套技术栈端到端跑一遍",
        Key::FlagNearLimit => "每卡用到可用显存的 {p}%，距上限不足 10%。常见的建议：卡在边缘时直接升一档（更大显存的卡或多一张卡）",
        Key::FlagNearLimitVllm => "每卡用到可用显存的 {p}%，距上限不足 10%（vLLM 的 KV 池会占满 gpu_memory_utilization，剩余上下文或并发会很少）。常见的建议：卡在边缘时直接升一档（更大显存的卡或多一张卡）",
        Key::FlagSpecsUnverified => "{gpu} 的部分规格存在冲突或未经核实（{fields}）：{notes}",
        Key::FlagCatalogNote => "{gpu}：{notes}",
        Key::SplitSingle => "单卡",
        Key::SplitZero1 => "ZeRO-1（切分优化器状态）",
        Key::SplitZero2 => "ZeRO-2（再切分梯度）",
        Key::SplitFsdp => "FSDP 全分片",
        Key::SplitZero3 => "ZeRO-3（再切分权重）",
        Key::SplitTensor => "张量并行",
        Key::SplitPipeline => "流水线并行",
        Key::SplitTensorFsdp => "张量并行 + FSDP",
        Key::SplitTensorPipeline => "张量并行 + 流水线并行",
        Key::NetRdma => "{g} 张卡需要 {nodes} 台服务器（每台 {per_node} 张）：数据并行与分片训练每一步都跨服务器同步，需要 RDMA 网络（InfiniBand 或 RoCE）。作为参考，HGX 服务器通常每张 GPU 配一块 400 Gb/s 网卡（B300 为 800 Gb/s）。请向供应商申请服务器之间的私有网络",
        Key::NetPrivate => "{g} 张卡需要 {nodes} 台服务器（每台 {per_node} 张）：张量并行留在服务器内，流水线各级之间只传激活值，但仍需服务器之间的私有网络，请向供应商确认带宽",
        Key::NetFabric => "{g} 张卡跨 {nodes} 个节点，但都在同一个 NVLink 域（{domain} 张 GPU）内：节点之间走 NVLink，请确认租到的是整机架系统",
    }
}
