//! Small sorts for the report. A stable insertion sort for the short lists it
//! orders (flags, fit rows, layouts, purchase options, table rows: at most a
//! few hundred), and a heapsort for the long list of hours the cost curves
//! are sampled at. The standard library's sorts compile to about 3 KB of
//! wasm per call site; these loops are a tenth of that, and the bundle has a
//! budget (issue 10).

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

/// Sorts floats ascending by `f64::total_cmp`, in O(n log n) and in place
/// (a heapsort: equal values are indistinguishable, so stability is moot).
pub fn sort_floats(v: &mut [f64]) {
    for start in (0..v.len() / 2).rev() {
        sift_down(v, start);
    }
    for end in (1..v.len()).rev() {
        v.swap(0, end);
        if let Some(heap) = v.get_mut(..end) {
            sift_down(heap, 0);
        }
    }
}

/// Moves `v[at]` down the max-heap `v` until both children are smaller.
fn sift_down(v: &mut [f64], mut at: usize) {
    loop {
        let left = 2 * at + 1;
        let Some(&l) = v.get(left) else { return };
        let child = match v.get(left + 1) {
            Some(&r) if r.total_cmp(&l).is_gt() => left + 1,
            _ => left,
        };
        let (Some(&parent), Some(&big)) = (v.get(at), v.get(child)) else { return };
        if parent.total_cmp(&big).is_ge() {
            return;
        }
        v.swap(at, child);
        at = child;
    }
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

        /// Same order as the standard library's float sort.
        #[test]
        fn floats_match_std(v in proptest::collection::vec(any::<f64>(), 0..300)) {
            let mut ours = v.clone();
            let mut std = v;
            super::sort_floats(&mut ours);
            std.sort_unstable_by(f64::total_cmp);
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            prop_assert_eq!(bits(&ours), bits(&std));
        }
    }
}
