//! Every string the page itself shows, in Chinese and English. Text that the
//! core produces (error messages, derivations) comes from the core.

pub use gpuplan_core::lang::Lang;

/// Declares the key enum and its (zh, en) table in one place.
macro_rules! texts {
    ($($key:ident => $zh:literal, $en:literal;)*) => {
        /// A UI string.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum K { $($key),* }

        impl K {
            #[cfg(test)]
            pub const ALL: &'static [K] = &[$(K::$key),*];

            fn pair(self) -> (&'static str, &'static str) {
                match self { $(K::$key => ($zh, $en)),* }
            }
        }
    };
}

/// The string for `key` in `lang`.
pub fn t(lang: Lang, key: K) -> &'static str {
    let (zh, en) = key.pair();
    lang.pick(zh, en)
}

texts! {
    Title => "GPU 选型与租用规划", "GPU sizing and rental planner";
    Tagline => "从工作负载到显存、硬件与账单，全部在浏览器里算完。",
        "From workload to memory, hardware and bill, computed in your browser.";
    LangToggle => "English", "中文";
    ChecklistTitle => "下单前检查与验收清单", "Pre-order checklist and acceptance";
    ChecklistMarkdown => "导出为 Markdown（粘贴到 Wiki 或工单）", "Export as Markdown (for a wiki or a ticket)";
    ChecklistMarkdownHint => "全选并复制：", "Select all and copy:";
    ShareTitle => "分享与嵌入", "Share and embed";
    ShareLabel => "方案链接（随编辑更新，复制即可分享）", "Plan link (follows your edits; copy it to share)";
    SnippetIframe => "嵌入代码：iframe，embed.js 自动调整其高度", "Embed code: an iframe, sized by embed.js";
    SnippetWiki => "MediaWiki 表格（维基文本，用于不允许 iframe 的 Wiki）", "MediaWiki table (wikitext, for wikis without iframes)";
    SnippetMarkdown => "Markdown 摘要：显存、硬件、费用与检查清单（GitHub、GitLab、Confluence 的 Markdown 宏）",
        "Markdown summary: memory, hardware, cost and checklist (GitHub, GitLab, Confluence's Markdown macro)";
    LinkIgnored => "链接中有部分内容未能使用，已忽略：", "Parts of the link could not be used and were ignored:";
    LangToggleLabel => "切换语言（Switch language）", "Switch language（切换语言）";
    UnitLabel => "显存单位", "Memory unit";
    Inputs => "工作负载", "Workload";
    Results => "结果", "Results";
    // Task and model
    Task => "任务", "Task";
    Model => "模型", "Model";
    ModelKind => "模型来源", "Model source";
    ModelSearch => "搜索模型", "Search models";
    ModelSearchHint => "名称或 id，如 qwen、70b", "name or id, e.g. qwen, 70b";
    ModelPreset => "预设模型", "Preset model";
    NoMatch => "没有匹配的模型", "No matching model";
    Advanced => "高级：自定义模型结构", "Advanced: custom model shape";
    AdvancedHint => "从当前预设的结构开始，按 config.json 修改。",
        "Starts from the current preset's shape; edit as in its config.json.";
    EditShape => "以此预设为起点编辑结构", "Edit the shape, starting from this preset";
    Params => "参数量", "Parameters";
    ParamsHint => "留空则按结构推算", "empty: derived from the shape";
    Layers => "层数", "Layers";
    Hidden => "隐藏维度 hidden", "Hidden size";
    Heads => "注意力头数", "Attention heads";
    KvHeads => "KV 头数", "KV heads";
    HeadDim => "每头维度 head_dim", "Head dimension";
    HeadDimHint => "留空则为 hidden / 头数", "empty: hidden / heads";
    Intermediate => "MLP 宽度 intermediate", "MLP width (intermediate)";
    Vocab => "词表大小", "Vocabulary";
    Experts => "路由专家数（0 = 稠密）", "Routed experts (0 = dense)";
    ExpertsActive => "每 token 激活专家数", "Active experts per token";
    MaxContext => "最大上下文", "Maximum context";
    TiedEmbeddings => "输入输出嵌入共享", "Tied embeddings";
    MlpKind => "MLP 类型", "MLP kind";
    GenericParams => "参数量", "Parameters";
    ActivationGb => "激活与工作区（实测或官方）", "Activations and workspace (measured or stated)";
    FlopsPerItem => "每个样本的前向 FLOPs（0 = 未知）", "Forward FLOPs per item (0 = unknown)";
    // Inference
    InferSection => "推理负载", "Inference workload";
    Weights => "权重格式", "Weight format";
    KvDtype => "KV 缓存精度", "KV cache type";
    Context => "上下文长度", "Context length";
    ContextHint => "每条序列 提示 + 输出 的 token 数", "tokens per sequence, prompt + output";
    Concurrency => "并发序列数", "Concurrent sequences";
    Engine => "推理引擎", "Serving engine";
    GpuMemUtil => "显存利用率上限 gpu_memory_utilization", "gpu_memory_utilization";
    GpuMemUtilHint => "vLLM 默认 0.9", "vLLM default 0.9";
    PromptTokens => "典型提示长度", "Typical prompt";
    OutputTokens => "典型输出长度", "Typical output";
    TargetQps => "目标 QPS", "Target QPS";
    TargetQpsHint => "每秒请求数，0 = 不设目标", "requests per second, 0 = no target";
    ResponseKb => "每次响应大小", "Response size";
    TtftTarget => "目标首 token 时间 TTFT（中位数）", "TTFT target (median)";
    TpotTarget => "目标每输出 token 时间 TPOT（中位数）", "TPOT target (median)";
    NoTargetHint => "0 = 不设目标", "0 = no target";
    PrefixHit => "前缀缓存命中率", "Prefix-cache hit ratio";
    PrefixHitHint => "提示中已在缓存里的比例，0–0.99（0.3 即 30 %）", "share of the prompt already cached, 0-0.99 (0.3 is 30 %)";
    Measured => "你在所选 GPU 上实测的输出吞吐", "Your measured output on the chosen GPU";
    MeasuredHint => "单卡、本负载下，按目标 QPS 定卡数时代替模型；留空即用模型", "one GPU at this workload; replaces the model in the count for a target QPS; empty: use the model";
    // Training
    TrainSection => "训练负载", "Training workload";
    Method => "训练方法", "Method";
    LoraRank => "LoRA 秩 r", "LoRA rank r";
    LoraTargets => "LoRA 作用层", "LoRA targets";
    Precision => "精度方案", "Precision";
    Optimizer => "优化器", "Optimizer";
    OptInBwd => "优化器步融合进反向（无完整梯度缓冲）", "Optimizer step in backward (no full gradient buffer)";
    Batch => "每卡微批次", "Micro-batch per GPU";
    Seq => "序列长度", "Sequence length";
    GradCkpt => "梯度检查点", "Gradient checkpointing";
    ActOffload => "激活卸载到 CPU", "Offload activations to CPU";
    Loss => "损失计算（logits 显存）", "Loss computation (logits memory)";
    GradAccum => "梯度累积步数", "Gradient accumulation steps";
    FlashAttn => "FlashAttention", "FlashAttention";
    DatasetTokens => "数据集 token 数", "Dataset tokens";
    Epochs => "轮数 epochs", "Epochs";
    Mfu => "算力利用率 MFU", "Model FLOPs utilisation (MFU)";
    MfuHint => "留空即用按 GPU 类别与方法实测的默认值", "empty: the measured default for the GPU class and method";
    // Parallel
    ParallelSection => "并行", "Parallelism";
    Gpus => "GPU 总数", "GPUs in total";
    Tp => "张量并行 TP", "Tensor parallel (TP)";
    Pp => "流水线并行 PP", "Pipeline parallel (PP)";
    Shard => "数据并行分片", "Data-parallel sharding";
    // Hardware
    HardwareSection => "硬件", "Hardware";
    Headroom => "显存余量", "Memory headroom";
    HeadroomHint => "种子 001 的三到五成是只算权重时留的；这里已计入 KV 缓存、激活和运行时", "seed 001's 30-50 % is over weights alone; the KV cache, activations and runtime are counted here";
    Cuda => "软件所用 CUDA 版本", "CUDA your software is built for";
    GpusPerNode => "每台服务器 GPU 数", "GPUs per server";
    // Cost inputs
    CostSection => "费用", "Cost";
    Currency => "币种", "Currency";
    Months => "服务时长（推理）", "Service length (inference)";
    HoursPerDay => "每天运行", "Running per day";
    StorageGb => "每台块存储", "Block storage per instance";
    Ips => "每台公网 IPv4 数", "Public IPv4 per instance";
    EgressGb => "出站流量（服务按月，训练总计）", "Egress (per month serving, in total for a run)";
    EgressAuto => "按目标 QPS × 响应大小估算出站流量", "Estimate egress from target QPS × response size";
    DebugPct => "调试时间缓冲（训练）", "Debugging buffer (training)";
    DebugHint => "种子 002：30–50 %", "seed 002: 30-50 %";
    ContingencyPct => "不可预见费", "Contingency";
    ContingencyHint => "种子 002：20–25 %", "seed 002: 20-25 %";
    DeadlineH => "期限（训练，0 = 不限）", "Deadline (training, 0 = none)";
    MoreCost => "更多费用设置", "More cost settings";
    CnyPerUsd => "汇率（人民币 / 美元）", "Exchange rate (CNY per USD)";
    Starts => "每台计费周期数（停机再启动会新开一个）", "Billing periods per instance (each restart opens one)";
    StoppedDays => "训练后停机保留天数", "Days kept stopped after the run";
    SpotPerDay => "竞价实例每天被回收次数（假设）", "Spot interruptions per day (assumed)";
    CkptMin => "检查点间隔", "Checkpoint interval";
    RestartMin => "中断后恢复用时", "Time to resume after an interruption";
    SpCommit => "节省计划每小时承诺额（0 = 覆盖全部）", "Savings-plan commitment per hour (0 = whole fleet)";
    SpUpfront => "节省计划预付方式", "Savings-plan payment";
    BlockDays => "容量块天数（0 = 最短可用）", "Capacity block days (0 = shortest that fits)";
    Prorate => "1–3 年承诺只计本期份额", "Count only this horizon's share of 1-3 year terms";
    UnitMonths => "个月", "months";
    UnitHours => "小时", "h";
    UnitDays => "天", "days";
    UnitMin => "分钟", "min";
    // Cost results
    CostTitle => "各种购买方式的总账单", "The whole bill for each purchase option";
    HorizonRun => "训练按一次完整运行计价（含调试缓冲与不可预见费）。", "Training is priced as one run (with debugging buffer and contingency).";
    HorizonServe => "推理按所设月数的持续服务计价。", "Serving is priced over the months set.";
    PurchaseOption => "购买方式", "Purchase option";
    InstancesGpus => "台 × 卡", "Instances × GPUs";
    Total => "总计", "Total";
    WhyNot => "为什么不是它", "Why not this one";
    Cheapest => "最便宜", "cheapest";
    HostOffer => "托管方报价", "host's offer";
    Committed => "承诺费用", "committed";
    Usage => "按用量", "usage";
    CostOverTime => "累计费用随时间变化", "Cumulative cost over time";
    Hours => "时间", "Time";
    Paid => "累计已付", "Paid so far";
    CheaperAfter => "此后更便宜：", "cheaper after this:";
    Skipped => "未参与比较的报价", "Offers left out";
    // Gallery and compare
    Examples => "从常见场景开始", "Start from an example";
    CustomModel => "自定义模型", "Custom model";
    GenericModel => "通用模型", "Generic model";
    CompareTitle => "方案对比", "Compare plans";
    CompareHint => "固定当前方案，再修改输入，两者并排对比。", "Pin this plan, then change the inputs to see both side by side.";
    Pin => "固定当前方案", "Pin this plan";
    Pinned => "已固定", "Pinned";
    Current => "当前", "Current";
    Figure => "指标", "Figure";
    OpenPinned => "打开已固定的方案（与当前互换）", "Open the pinned plan (swap with current)";
    Unpin => "取消固定", "Unpin";
    MemoryHolds => "（显存只需 {}）", " ({} hold the memory)";
    GpusOnChosen => "所选 GPU 需要张数", "GPUs needed (chosen GPU)";
    SpeedOnChosen => "所选 GPU 上的速度", "Speed on the chosen GPU";
    CheapestOption => "最便宜的购买方式", "Cheapest purchase option";
    // Units and common words
    UnitTokens => "token", "tokens";
    UnitSeqs => "条", "sequences";
    UnitPct => "%", "%";
    UnitKb => "KB", "KB";
    UnitPerSec => "次/秒", "req/s";
    UnitGpus => "张", "GPUs";
    UnitGb => "GB", "GB";
    UnitMs => "毫秒", "ms";
    UnitTokS => "token/秒", "token/s";
    UnitParams => "个", "params";
    // Validation
    NotWhole => "请输入一个非负整数", "enter a whole number, 0 or more";
    NotNumber => "请输入一个数字", "enter a number";
    Stale => "输入有误，下方仍显示上一次有效的结果：", "Some inputs are invalid; the last valid result is shown below:";
    // Results
    PeakMemory => "每卡峰值显存", "Peak memory per GPU";
    PeakAllocated => "框架峰值分配", "peak allocated by the framework";
    PeakReserved => "工作负载所需；引擎另按整段上下文预分配 KV 缓存", "what the workload needs; the engine allocates its KV cache up front";
    PeakNeedReserves => "工作负载所需；引擎启动即预留 {reserved}（其中 KV 池 {pool}），nvidia-smi 显示的是预留量",
        "what the workload needs; the engine reserves {reserved} at start (KV pool {pool}), which is what nvidia-smi shows";
    AnswerGpus => "要订的 GPU", "GPUs to order";
    AnswerCost => "这款 GPU 上的最低总价", "Cheapest on this GPU";
    AnswerBest => "所有能装下的报价中最便宜", "Cheapest of every offer that holds it";
    AnswerMonths => "{} 个月合计", "total over {} months";
    AnswerRun => "一次完整运行（含调试缓冲）", "one whole run, debugging included";
    AnswerNoOffer => "所选 GPU 没有满足此方案的报价", "No offer on this GPU meets the plan";
    Breakdown => "显存构成", "Memory breakdown";
    Why => "这个数字怎么来的", "Why this number";
    UsableMemory => "所选 GPU 的可用显存", "Usable memory of the chosen GPU";
    HeadroomShort => "余量", "headroom";
    FitsOne => "每卡装得下", "Fits per GPU";
    ExceedsOne => "超出每卡可用显存", "Exceeds usable memory per GPU";
    Formula => "公式", "Formula";
    Source => "来源", "Source";
    // Charts
    MemVsContext => "显存随上下文长度变化", "Memory against context length";
    MemVsSeq => "显存随序列长度变化", "Memory against sequence length";
    Required => "工作负载所需", "Needed by the workload";
    MemoryPerGpu => "每卡显存", "Memory per GPU";
    UsableShort => "可用", "usable";
    LongestFits => "最长可装下", "longest that fits:";
    // Serving
    ServingTitle => "服务能力", "Serving";
    ServingHint => "所选 GPU 上一份副本的预期值，范围为校准误差；展开可看推导。",
        "Expected figures of one replica on the chosen GPU, with the calibration's range; open one for its derivation.";
    InFlight => "每份副本同时处理的序列", "sequences in flight per replica";
    Ttft => "首 token 时间 TTFT", "Time to first token (TTFT)";
    Tpot => "每输出 token 时间 TPOT", "Time per output token (TPOT)";
    TpsSeq => "每条序列输出速度", "Output speed per sequence";
    Rps => "稳态每秒请求数", "Requests per second, steady state";
    Prefill => "提示处理时间", "Prompt processing time";
    BasisCalibrated => "校准估计", "calibrated estimate";
    BasisEstimate => "估计", "estimate";
    BasisBound => "物理界限", "bound";
    BasisMeasured => "你的实测", "your measurement";
    Bounds => "物理界限（实际更慢）", "Physics bounds (real runs are slower)";
    NoExpected => "这份负载在所选 GPU 上没有预期值：KV 缓存池装不下一条序列，或负载超出一份副本的能力。",
        "No expected figures on the chosen GPU: the KV pool holds no sequence, or the load is more than a replica serves.";
    GpusForTarget => "满足目标所需 GPU", "GPUs for the targets";
    Binds => "起限制作用：", "binding: ";
    BindTpot => "TPOT 目标", "TPOT target";
    BindTtft => "TTFT 目标", "TTFT target";
    BindKv => "KV 缓存池", "KV cache pool";
    FeedsBill => "下方账单按这个张数计价。", "The bill below prices this count.";
    TpotVsConc => "TPOT 随并发变化", "TPOT against concurrency";
    TputVsConc => "总输出吞吐随并发变化", "Total output throughput against concurrency";
    NeededLine => "目标 QPS 所需（每份副本）", "needed for the target QPS, per replica";
    ExpectedLoad => "预期负载", "expected load";
    // Fit table
    FitTitle => "哪些 GPU 能跑、要几张", "Which GPUs can run it, and how many";
    FitHint => "按推荐排序：能装下的在前，服务器更少、卡更少、警告更少、更快。点击表头可排序。",
        "Ranked: fits first, then fewer servers, fewer GPUs, fewer warnings, faster. Click a header to sort.";
    Gpu => "GPU", "GPU";
    GpuCount => "张数", "GPUs";
    Layout => "切分方式", "Layout";
    PerGpuUse => "每卡占用 / 可用", "Per GPU: used / usable";
    RunTime => "训练时长", "Run time";
    Throughput => "总解码吞吐", "Total decode throughput";
    Flags => "提示", "Flags";
    GpuClass => "类别", "Class";
    Stack => "软件栈", "Software stack";
    FitsOnly => "只看能装下的", "Only GPUs that fit";
    Chosen => "已选", "chosen";
    Servers => "台服务器", "servers";
    NoFit => "64 张以内装不下", "does not fit in 64 GPUs";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_has_both_languages() {
        for &k in K::ALL {
            let (zh, en) = k.pair();
            assert!(!zh.trim().is_empty() && !en.trim().is_empty(), "{k:?} has an empty text");
        }
    }

    #[test]
    fn english_texts_are_not_chinese() {
        // A zh string pasted into the en column is the usual slip.
        let cjk = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        for &k in K::ALL {
            let (_, en) = k.pair();
            if k != K::LangToggle && k != K::LangToggleLabel {
                assert!(!cjk(en), "{k:?}: English text has Chinese: {en}");
            }
        }
    }

    #[test]
    fn both_languages_hold_the_same_placeholders() {
        let holes = |s: &'static str| {
            let mut v: Vec<&str> =
                s.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(name, _)| name)).collect();
            v.sort_unstable();
            v
        };
        for &k in K::ALL {
            let (zh, en) = k.pair();
            assert_eq!(holes(zh), holes(en), "{k:?}");
        }
    }

    #[test]
    fn t_picks_by_language() {
        assert_eq!(t(Lang::Zh, K::Task), "任务");
        assert_eq!(t(Lang::En, K::Task), "Task");
    }
}
