//! A stable insertion sort for the short lists the report orders (flags, fit
//! rows, layouts, purchase options, table rows: at most a few hundred).
//! The standard library's stable sort compiles to about 3 KB of wasm per call
//! site; this loop is a tenth of that, and the bundle has a budget (issue 10).

use std::cmp::Ordering;

/// Sorts `v` by `cmp`, keeping equal elements in their given order.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 {
            let (Some(a), Some(b)) = (v.get(j - 1), v.get(j)) else { break };
            if cmp(a, b) != Ordering::Greater {
                break;
            }
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Sorts `v` by the key `key` returns, keeping ties in their given order.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// Same order as the standard library's stable sort, ties included.
        #[test]
        fn matches_std_stable_sort(v in proptest::collection::vec((0u8..8, any::<u16>()), 0..80)) {
            let mut ours = v.clone();
            let mut std = v;
            super::sort_by_key(&mut ours, |p| p.0);
            std.sort_by_key(|p| p.0);
            prop_assert_eq!(ours, std);
        }
    }
}
