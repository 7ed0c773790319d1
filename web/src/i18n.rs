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
    ChunkedCe => "分块交叉熵", "Chunked cross-entropy";
    FlashAttn => "FlashAttention", "FlashAttention";
    DatasetTokens => "数据集 token 数", "Dataset tokens";
    Epochs => "轮数 epochs", "Epochs";
    Mfu => "算力利用率 MFU", "Model FLOPs utilisation (MFU)";
    MfuHint => "常见 0.3–0.6", "typically 0.3-0.6";
    // Parallel
    ParallelSection => "并行", "Parallelism";
    Gpus => "GPU 总数", "GPUs in total";
    Tp => "张量并行 TP", "Tensor parallel (TP)";
    Pp => "流水线并行 PP", "Pipeline parallel (PP)";
    Shard => "数据并行分片", "Data-parallel sharding";
    // Hardware
    HardwareSection => "硬件", "Hardware";
    Headroom => "显存余量", "Memory headroom";
    HeadroomHint => "常见 10–30 %", "typically 10-30 %";
    GpusPerNode => "每台服务器 GPU 数", "GPUs per server";
    // Units and common words
    UnitTokens => "token", "tokens";
    UnitSeqs => "条", "sequences";
    UnitPct => "%", "%";
    UnitKb => "KB", "KB";
    UnitPerSec => "次/秒", "req/s";
    UnitGpus => "张", "GPUs";
    UnitGb => "GB", "GB";
    UnitParams => "个", "params";
    // Validation
    NotWhole => "请输入一个非负整数", "enter a whole number, 0 or more";
    NotNumber => "请输入一个数字", "enter a number";
    Stale => "输入有误，下方仍显示上一次有效的结果：", "Some inputs are invalid; the last valid result is shown below:";
    // Results
    PeakMemory => "每卡峰值显存", "Peak memory per GPU";
    PeakAllocated => "框架峰值分配", "peak allocated by the framework";
    PeakReserved => "预留池（vLLM 按利用率上限预分配 KV）", "reserved pool (vLLM pre-allocates KV up to the limit)";
    Breakdown => "显存构成", "Memory breakdown";
    CWeights => "权重", "Weights";
    CGradients => "梯度", "Gradients";
    COptimizer => "优化器状态", "Optimizer state";
    CActivations => "激活值", "Activations";
    CKvCache => "KV 缓存", "KV cache";
    CWorkspace => "工作区与运行时", "Workspace and runtime";
    Why => "这个数字怎么来的", "Why this number";
    Formula => "公式", "Formula";
    Source => "来源", "Source";
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
    fn t_picks_by_language() {
        assert_eq!(t(Lang::Zh, K::Task), "任务");
        assert_eq!(t(Lang::En, K::Task), "Task");
    }
}
