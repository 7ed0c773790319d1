//! The memory a workload needs as its length grows: the series the page's
//! memory chart draws, each point a full estimate of the plan at that length.

use crate::plan::{Plan, Task};

/// Longest length the series spans.
pub const MAX_TOKENS: u64 = 1 << 20;

/// Powers of two from 512 up to the model's trained context (or the plan's
/// current length, if longer), with the current length itself.
pub fn lengths(current: u64, model_max: Option<u64>) -> Vec<u64> {
    let top = model_max.unwrap_or(131_072).max(current).clamp(1024, MAX_TOKENS);
    let mut v: Vec<u64> = (9..=20).map(|k| 1u64 << k).filter(|&n| n <= top).collect();
    if !v.contains(&current) && current <= MAX_TOKENS {
        v.insert(v.partition_point(|&n| n < current), current);
    }
    v
}

/// (tokens, bytes the workload needs per GPU) at each of [`lengths`]: the
/// context for inference, the sequence for training. For pooling engines
/// this is the need, not the pool they reserve.
pub fn by_length(plan: &Plan) -> Vec<(u64, u64)> {
    let current = match plan.task {
        Task::Infer => plan.inference.context,
        Task::Train => plan.training.seq,
    };
    let model_max = plan.model.arch().map(|a| a.max_context);
    lengths(current, model_max)
        .into_iter()
        .filter_map(|n| {
            let mut p = plan.clone();
            match p.task {
                Task::Infer => p.inference.context = n,
                Task::Train => p.training.seq = n,
            }
            super::estimate(&p).ok().map(|m| (n, m.per_gpu_bytes))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_span_the_model_and_include_the_plan() {
        assert_eq!(lengths(8192, Some(8192)), vec![512, 1024, 2048, 4096, 8192]);
        assert_eq!(lengths(3000, Some(4096)), vec![512, 1024, 2048, 3000, 4096]);
        assert_eq!(lengths(100, Some(131_072)).first(), Some(&100));
        assert_eq!(lengths(10_000_000, None).last(), Some(&(1 << 20)));
    }

    #[test]
    fn memory_grows_with_context() {
        let s = by_length(&Plan::default());
        assert!(s.len() >= 8);
        assert!(s.windows(2).all(|w| w[0].1 <= w[1].1), "{s:?}");
        assert!(s.first().map(|f| f.1) < s.last().map(|l| l.1), "the KV cache grows: {s:?}");
    }
}
