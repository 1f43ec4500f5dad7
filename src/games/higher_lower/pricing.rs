//! Pricing: Bob's best tree against weights on the keys (Alice's mixed
//! strategy, possibly scaled), i.e. the tree minimising sum_k w_k d_T(k).
//!
//! Three algorithms: the seed's O(N^3) interval DP (any real weights), the
//! same DP with Knuth's monotone-root speed-up, O(N^2) (non-negative weights
//! only), and the seed's depth-limited DP that embeds trees of at most h
//! levels into the complete tree F_h, O(N * 2^h) (here banded to
//! O(N * (2^h - N))), which may miss the optimum and must be confirmed.
//! All are generic over the weight type: f64 in the solver, big integers in
//! the exact certificate.

use super::tree::Tree;
use malachite::Integer;

/// `weights` with each raised to at least `relative` times their mean: the
/// DPs' trees against zero (or negative rounding noise) weights are arbitrary,
/// and the depth-limited DP's cheapest embedding is a tree only for positive
/// weights.
pub fn floored(mut weights: Vec<f64>, relative: f64) -> Vec<f64> {
    let floor = relative * weights.iter().sum::<f64>() / weights.len() as f64;
    for w in &mut weights {
        *w = w.max(floor);
    }
    weights
}

/// Weights the DPs can add and compare exactly enough for their purpose.
pub trait Weight: Clone + PartialOrd {
    fn zero() -> Self;
    fn add(&self, other: &Self) -> Self;
    /// `self * depth`, for the depth-limited DP.
    fn times(&self, depth: u8) -> Self;
}

impl Weight for f64 {
    fn zero() -> Self {
        0.0
    }
    fn add(&self, other: &Self) -> Self {
        self + other
    }
    fn times(&self, depth: u8) -> Self {
        self * f64::from(depth)
    }
}

impl Weight for Integer {
    fn zero() -> Self {
        Integer::from(0)
    }
    fn add(&self, other: &Self) -> Self {
        self + other
    }
    fn times(&self, depth: u8) -> Self {
        self * Integer::from(depth)
    }
}

/// A tree with its cost sum_k w_k d_T(k).
#[derive(Debug, Clone, PartialEq)]
pub struct Priced<W> {
    pub tree: Tree,
    pub cost: W,
}

/// The cost of `tree` against `weights`.
pub fn cost<W: Weight>(tree: &Tree, weights: &[W]) -> W {
    tree.depths().iter().zip(weights).fold(W::zero(), |sum, (d, w)| sum.add(&w.times(*d)))
}

/// Interval DP tables: cost[a][b] of the best subtree on keys a..=b (1-based;
/// empty intervals cost zero) and its root.
struct Intervals<W> {
    n: usize,
    cost: Vec<W>,
    root: Vec<u16>,
}

impl<W: Weight> Intervals<W> {
    fn new(n: usize) -> Self {
        let size = (n + 2) * (n + 1);
        Intervals { n, cost: vec![W::zero(); size], root: vec![0; size] }
    }
    /// Index of [a, b] for 1 <= a <= n + 1, a - 1 <= b <= n.
    fn at(&self, a: usize, b: usize) -> usize {
        a * (self.n + 1) + b
    }
    /// Fills [a, b] with the best root among `candidates` (leftmost on ties).
    fn fill(&mut self, a: usize, b: usize, span_weight: &W, candidates: std::ops::RangeInclusive<usize>) {
        let mut best: Option<(W, usize)> = None;
        for r in candidates {
            let split = self.cost[self.at(a, r - 1)].add(&self.cost[self.at(r + 1, b)]);
            if best.as_ref().is_none_or(|(c, _)| split < *c) {
                best = Some((split, r));
            }
        }
        let (split, r) = best.expect("non-empty interval");
        let i = self.at(a, b);
        self.cost[i] = split.add(span_weight);
        self.root[i] = r as u16;
    }
    fn priced(self) -> Priced<W> {
        let n = self.n;
        let tree = Tree::from_roots(n, |a, b| usize::from(self.root[self.at(a, b)]));
        Priced { tree, cost: self.cost[self.at(1, n)].clone() }
    }
}

/// Prefix sums: prefix[k] = w_1 + ... + w_k.
fn prefix_sums<W: Weight>(weights: &[W]) -> Vec<W> {
    let mut prefix = Vec::with_capacity(weights.len() + 1);
    prefix.push(W::zero());
    for w in weights {
        let next = prefix.last().expect("starts with zero").add(w);
        prefix.push(next);
    }
    prefix
}

/// Sum of w_a..=w_b from prefix sums (weights of one sign family; exact for integers).
fn span<W: Weight + std::ops::Sub<Output = W>>(prefix: &[W], a: usize, b: usize) -> W {
    prefix[b].clone() - prefix[a - 1].clone()
}

/// The seed's O(N^3) interval DP: exact for any real weights.
pub fn interval_dp<W: Weight + std::ops::Sub<Output = W>>(weights: &[W]) -> Priced<W> {
    let n = weights.len();
    assert!(n > 0 && n < usize::from(u16::MAX));
    let prefix = prefix_sums(weights);
    let mut t = Intervals::new(n);
    for len in 1..=n {
        for a in 1..=n + 1 - len {
            let b = a + len - 1;
            t.fill(a, b, &span(&prefix, a, b), a..=b);
        }
    }
    t.priced()
}

/// The interval DP with Knuth's speed-up: the best root of [a, b] lies between
/// those of [a, b-1] and [a+1, b]. O(N^2); valid for non-negative weights.
pub fn monotone_root_dp<W: Weight + std::ops::Sub<Output = W>>(weights: &[W]) -> Priced<W> {
    MonotoneRootTables::new().solve(weights)
}

/// [`monotone_root_dp`] on f64 weights with this thread's tables, kept between calls:
/// the solver prices six points a round, and allocating (and faulting in) the
/// tables each time cost as much as filling them.
pub fn monotone_root_dp_f64(weights: &[f64]) -> Priced<f64> {
    thread_local! {
        static TABLES: std::cell::RefCell<MonotoneRootTables<f64>> = std::cell::RefCell::new(MonotoneRootTables::new());
    }
    TABLES.with(|tables| tables.borrow_mut().solve(weights))
}

/// The tables of Knuth's DP, laid out for the cache. Rows [a, *] are filled
/// from a = N down to 1, each from b = a up: the best split of [a, b] reads
/// cost[a][r-1] (row a, being filled) and cost[r+1][b] (column b), which the
/// transposed copy holds as a row, so both run along memory. Filled by
/// columns, as the textbook order does, the column read missed the cache on
/// every candidate root (near N = 1000 the N^2 table is far past the cache).
/// Only what is read again is kept: of the cost table the row being filled, of
/// its transposed copy and of the roots the cells computed (a mirrored cell's
/// root is its mirror's, mirrored): the DP is bound by moving its tables, so
/// dropping the rest of the cost table and the roots' copies
/// (docs/history.md#87be5a8-the-pricing-dp-keeps-what-it-reads-again), then the
/// mirrored cells' transposed copies and a reload of the left root
/// (docs/history.md#0ff1684-the-pricing-dp-drops-the-mirrored-cells-transposed-copies)
/// each made it markedly faster.
struct MonotoneRootTables<W> {
    /// cost[a][b] of the row a being filled, at b.
    row: Vec<W>,
    /// cost[a][b] at b * (n + 2) + a, for the computed cells and the empty ones.
    cost_t: Vec<W>,
    /// The best root of computed [a, b] at a * (n + 1) + b (see `root_of`).
    root: Vec<u16>,
}

impl<W: Weight + std::ops::Sub<Output = W>> MonotoneRootTables<W> {
    fn new() -> Self {
        MonotoneRootTables { row: Vec::new(), cost_t: Vec::new(), root: Vec::new() }
    }

    fn solve(&mut self, weights: &[W]) -> Priced<W> {
        let n = weights.len();
        assert!(n > 0 && n < usize::from(u16::MAX));
        debug_assert!(weights.iter().all(|w| *w >= W::zero()), "Knuth's speed-up needs non-negative weights");
        let size = (n + 2) * (n + 1);
        if self.cost_t.len() < size {
            self.row.resize(n + 2, W::zero());
            self.cost_t.resize(size, W::zero());
            self.root.resize(size, 0);
        }
        let prefix = prefix_sums(weights);
        // Symmetric weights (the solver's: it prices symmetric strategies)
        // make [a, b] cost what its mirror [N+1-b, N+1-a] costs, with the
        // mirrored root. For a + b <= N the mirror lies in a row already
        // filled, so half the cells are copies
        // (docs/history.md#dab4d03-the-pricing-dp-on-symmetric-weights).
        let symmetric = (0..n / 2).all(|k| weights[k] == weights[n - 1 - k]);
        // The tables as local slices, so that their addresses and lengths stay
        // in registers through the loops instead of being read from `self`.
        let (row, cost_t, root) = (&mut self.row[..n + 2], &mut self.cost_t[..size], &mut self.root[..size]);
        let at = |a: usize, b: usize| a * (n + 1) + b;
        let at_t = |a: usize, b: usize| b * (n + 2) + a;
        // The empty intervals [a, a-1] cost zero; every other cell is written before it is read.
        for a in 1..=n + 1 {
            cost_t[at_t(a, a - 1)] = W::zero();
        }
        for a in (1..=n).rev() {
            row[a - 1] = W::zero();
            // Row a copies its cells b <= N - a and computes the rest. A copy
            // goes to the row only: a computed cell [a', b] (a' + b > N) reads
            // the transposed table at [r + 1, b] with r >= a', a computed cell
            // too, so the copies' entries there would never be read.
            let computed_from = if symmetric { (n + 1 - a).max(a) } else { a };
            for b in a..computed_from {
                row[b] = cost_t[at_t(n + 1 - b, n + 1 - a)].clone();
            }
            // The root of [a, b - 1], carried from cell to cell.
            let mut left = if computed_from == a { a } else { root_of(root, n, symmetric, a, computed_from - 1) };
            for b in computed_from..=n {
                // A mirrored root is the rightmost optimal one where the
                // computed are leftmost, so the two bounds can cross on ties;
                // between them, either way, lies an optimal root (Knuth's
                // exchange argument holds for any optimal roots of [a, b-1]
                // and [a+1, b]).
                let (low, high) = if a == b {
                    (a, a)
                } else {
                    let below = root_of(root, n, symmetric, a + 1, b);
                    (left.min(below), left.max(below))
                };
                // Leftmost best root on ties, as the interval DP.
                let column = at_t(0, b);
                let split = |r: usize| row[r - 1].add(&cost_t[column + r + 1]);
                let (mut best, mut r) = (split(low), low);
                for candidate in low + 1..=high {
                    let next = split(candidate);
                    if next < best {
                        (best, r) = (next, candidate);
                    }
                }
                let value = best.add(&span(&prefix, a, b));
                cost_t[at_t(a, b)] = value.clone();
                row[b] = value;
                root[at(a, b)] = r as u16;
                left = r;
            }
        }
        let tree = Tree::from_roots(n, |a, b| root_of(&self.root, n, symmetric, a, b));
        Priced { tree, cost: self.row[n].clone() }
    }
}

/// The best root of [a, b] in `MonotoneRootTables::root`: for a mirrored cell
/// (symmetric weights, a + b <= N), N+1 minus that of its mirror [N+1-b, N+1-a],
/// a computed cell.
fn root_of(root: &[u16], n: usize, symmetric: bool, a: usize, b: usize) -> usize {
    if symmetric && a + b <= n {
        n + 1 - usize::from(root[(n + 1 - b) * (n + 1) + n + 1 - a])
    } else {
        usize::from(root[a * (n + 1) + b])
    }
}

/// In-order depths of the complete tree F_h with 2^h - 1 nodes (root depth 1).
fn complete_tree_depths(h: u32) -> impl Iterator<Item = u8> {
    (1u64..1 << h).map(move |j| (h - j.trailing_zeros()) as u8)
}

/// The seed's depth-limited DP: the cheapest subsequence of length N of F_h's
/// in-order depths. Returns `None` when F_h is too small or the cheapest
/// subsequence is not a tree (possible with zero or negative weights); the
/// result may be worse than the unrestricted optimum when every optimal tree
/// is deeper than h.
pub fn depth_limited_dp<W: Weight>(weights: &[W], h: u32) -> Option<Priced<W>> {
    let n = weights.len();
    if h == 0 || h > 30 {
        return None;
    }
    let levels: Vec<u8> = complete_tree_depths(h).collect();
    let slack = levels.len().checked_sub(n)?;
    // row i (keys 1..=i placed) keeps cells j = i..=i+slack (F positions 1-based);
    // best[i][s] with j = i + s; take[i][s] says key i sits at position j.
    let width = slack + 1;
    let mut best: Vec<W> = vec![W::zero(); width];
    let mut take = vec![false; n * width];
    for (i, w) in weights.iter().enumerate() {
        let mut row: Vec<W> = Vec::with_capacity(width);
        for s in 0..width {
            let j = i + s; // 0-based position in F
            let place = if i == 0 { w.times(levels[j]) } else { best[s].add(&w.times(levels[j])) };
            // Key i+1 at position j, keys before it within positions < j (cell (i-1, s) of the previous row).
            let cell = match row.last() {
                Some(skip) if *skip <= place => skip.clone(),
                _ => {
                    take[i * width + s] = true;
                    place
                }
            };
            row.push(cell);
        }
        best = row;
    }
    // Trace back from (n, slack).
    let mut depths = vec![0u8; n];
    let (mut i, mut s) = (n, slack);
    while i > 0 {
        if take[(i - 1) * width + s] {
            depths[i - 1] = levels[i - 1 + s];
            i -= 1;
        } else {
            s -= 1;
        }
    }
    let tree = Tree::from_depths(depths).ok()?;
    Some(Priced { cost: best[slack].clone(), tree })
}

/// The cheapest of all Catalan(N) trees, by enumeration (tests and tiny N).
pub fn brute_force<W: Weight>(weights: &[W]) -> Priced<W> {
    super::tree::all_trees(weights.len())
        .into_iter()
        .map(|tree| Priced { cost: cost(&tree, weights), tree })
        .reduce(|best, next| if next.cost < best.cost { next } else { best })
        .expect("at least one tree")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn float(weights: &[i64]) -> Vec<f64> {
        weights.iter().map(|&w| w as f64).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Integer-valued weights keep float sums exact, so costs compare exactly.
        #[test]
        fn all_three_match_brute_force(weights in prop::collection::vec(0i64..1000, 1..=9)) {
            let w = float(&weights);
            let best = brute_force(&w).cost;
            let dp = interval_dp(&w);
            prop_assert_eq!(dp.cost, best);
            prop_assert_eq!(cost(&dp.tree, &w), best);
            let knuth = monotone_root_dp(&w);
            prop_assert_eq!(knuth.cost, best);
            prop_assert_eq!(cost(&knuth.tree, &w), best);
            // Height N admits every tree, so the depth-limited DP is exact here (or
            // reports an invalid subsequence, only possible with zero weights).
            match depth_limited_dp(&w, w.len() as u32) {
                Some(limited) => {
                    prop_assert_eq!(limited.cost, best);
                    prop_assert_eq!(cost(&limited.tree, &w), best);
                }
                None => prop_assert!(weights.contains(&0)),
            }
        }

        #[test]
        fn interval_dp_handles_negative_weights(weights in prop::collection::vec(-500i64..1000, 1..=9)) {
            let w = float(&weights);
            prop_assert_eq!(interval_dp(&w).cost, brute_force(&w).cost);
        }

        #[test]
        fn fast_pricers_match_the_cubic_dp(weights in prop::collection::vec(1i64..1000, 10..=200)) {
            let w = float(&weights);
            let exact = interval_dp(&w);
            prop_assert_eq!(monotone_root_dp(&w).cost, exact.cost);
            // With room for an optimal tree the depth-limited DP finds the optimum;
            // with less room it can only be worse.
            let h = u32::from(exact.tree.height());
            let limited = depth_limited_dp(&w, h).expect("positive weights give valid trees");
            prop_assert_eq!(limited.cost, exact.cost);
            if let Some(tight) = depth_limited_dp(&w, h - 1) {
                prop_assert!(tight.cost >= exact.cost);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Symmetric weights take the mirrored half of the DP; few distinct
        /// values make many ties, where mirrored and computed roots differ.
        #[test]
        fn symmetric_weights_match_the_cubic_dp(half in prop::collection::vec(0i64..4, 1..=40), odd in any::<bool>()) {
            let mut weights = half.clone();
            weights.extend(half.iter().rev().skip(usize::from(odd)));
            let w = float(&weights);
            let exact = interval_dp(&w);
            let knuth = monotone_root_dp(&w);
            prop_assert_eq!(knuth.cost, exact.cost);
            prop_assert_eq!(cost(&knuth.tree, &w), exact.cost);
            prop_assert_eq!(monotone_root_dp_f64(&w).cost, exact.cost);
        }
    }

    #[test]
    fn exact_integers_agree_with_floats() {
        let weights: Vec<i64> = (0..60).map(|k| (k * 37 % 101) + 1).collect();
        let ints: Vec<Integer> = weights.iter().map(|&w| Integer::from(w)).collect();
        let exact = monotone_root_dp(&ints);
        assert_eq!(exact.cost, interval_dp(&ints).cost);
        assert_eq!(Integer::from(monotone_root_dp(&float(&weights)).cost as i64), exact.cost);
    }

    #[test]
    fn seed_example_relative_weights_2_1_1_2() {
        // Section 2.3.4: against relative weights (2, 1, 1, 2) the optimal trees have
        // depths (2, 3, 1, 2) or (2, 1, 3, 2), cost 2*2 + 3 + 1 + 2*2 = 12.
        let w = [2.0, 1.0, 1.0, 2.0];
        let limited = depth_limited_dp(&w, 3).unwrap();
        assert_eq!(limited.cost, 12.0);
        assert!([[2, 3, 1, 2], [2, 1, 3, 2]].iter().any(|d| limited.tree.depths() == d));
        assert_eq!(monotone_root_dp(&w).cost, 12.0);
    }

    #[test]
    fn cheapest_insertion_is_the_cheapest_of_all_positions() {
        for n in 1..=6 {
            // Integer weights keep the sums exact, so costs compare exactly.
            let weights: Vec<f64> = (0..=n).map(|k| f64::from((k * 7 + 3) as u8 % 5 + 1)).collect();
            for t in super::super::tree::all_trees(n) {
                let cheapest = t.cheapest_insertion(&weights);
                let best = (1..=n + 1).map(|p| cost(&t.insert_key(p), &weights)).fold(f64::INFINITY, f64::min);
                assert_eq!(cost(&cheapest, &weights), best, "{t:?}");
            }
        }
    }
}
