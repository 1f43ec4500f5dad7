//! Bob's pure strategies: binary search trees on the keys 1..=N, stored as
//! depth vectors. `depths[k - 1]` is the depth of key k with the root at depth
//! 1, which is exactly the number of guesses Bob needs when Alice's secret is
//! k. The depth vector determines the tree: the root of every key interval is
//! its unique shallowest key.

use std::fmt;

/// A binary search tree on 1..=N, as its (validated) depth vector.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tree(Vec<u8>);

impl Tree {
    /// Validates a depth vector: every interval of keys that forms a subtree
    /// must have a unique shallowest key at the expected depth.
    pub fn from_depths(depths: Vec<u8>) -> Result<Tree, String> {
        if depths.is_empty() {
            return Err("a tree needs at least one key".into());
        }
        check_depths(&depths).map_err(|why| format!("not a binary search tree: {why}"))?;
        Ok(Tree(depths))
    }

    /// A depth vector known to be valid (checked in debug builds).
    pub(crate) fn new_unchecked(depths: Vec<u8>) -> Tree {
        debug_assert!(check_depths(&depths).is_ok(), "invalid depth vector {depths:?}");
        Tree(depths)
    }

    /// Builds the tree whose root of every interval [a, b] (1-based, inclusive)
    /// is `root(a, b)`.
    pub fn from_roots(n: usize, root: impl Fn(usize, usize) -> usize) -> Tree {
        let mut depths = vec![0u8; n];
        let mut stack = vec![(1usize, n, 1u8)];
        while let Some((a, b, depth)) = stack.pop() {
            if a > b {
                continue;
            }
            let r = root(a, b);
            debug_assert!((a..=b).contains(&r));
            depths[r - 1] = depth;
            let below = depth.checked_add(1).expect("a tree deeper than 255 levels");
            stack.push((a, r - 1, below));
            stack.push((r + 1, b, below));
        }
        Tree::new_unchecked(depths)
    }

    pub fn depths(&self) -> &[u8] {
        &self.0
    }

    /// Number of keys N.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The most guesses Bob needs with this tree.
    pub fn height(&self) -> u8 {
        self.0.iter().copied().max().unwrap_or(0)
    }

    /// The tree reflected by k -> N + 1 - k.
    pub fn mirror(&self) -> Tree {
        Tree(self.0.iter().rev().copied().collect())
    }

    /// The representative of {tree, mirror}: both have the same symmetric column.
    pub fn canonical(self) -> Tree {
        let mirror = self.mirror();
        if mirror < self { mirror } else { self }
    }

    /// The tree on N + 1 keys obtained by inserting a new key just before key
    /// `position` (1-based; `position = N + 1` appends a new largest key). The
    /// new key becomes a leaf under whichever in-order neighbour has a free
    /// child slot towards it, as in ordinary BST insertion.
    pub fn insert_key(&self, position: usize) -> Tree {
        assert!((1..=self.len() + 1).contains(&position));
        let mut depths = self.0.clone();
        depths.insert(position - 1, self.new_leaf_depth(position));
        Tree::new_unchecked(depths)
    }

    /// Depth of a new key inserted just before key `position`: one below the
    /// deeper of its in-order neighbours, whose child slot faces the gap.
    fn new_leaf_depth(&self, position: usize) -> u8 {
        let left = (position > 1).then(|| self.0[position - 2]);
        let right = (position <= self.len()).then(|| self.0[position - 1]);
        let deepest = left.into_iter().chain(right).max().expect("a tree has at least one key");
        deepest.checked_add(1).expect("a tree deeper than 255 levels")
    }

    /// `insert_key` at the position where the tree on N + 1 keys is cheapest
    /// against `weights` (one per new key; leftmost on ties). All N + 1
    /// positions are priced in O(N) with prefix sums: keys left of the gap keep
    /// their index, keys right of it shift up by one. Carries N's trees to N + 1.
    pub fn cheapest_insertion(&self, weights: &[f64]) -> Tree {
        let d = &self.0;
        let n = d.len();
        assert_eq!(weights.len(), n + 1, "one weight per key of the bigger tree");
        // left[p] = cost of old keys 1..p-1 (unshifted); right[p] = cost of old keys p..n (shifted to p+1..n+1).
        let mut left = vec![0.0; n + 2];
        for p in 2..=n + 1 {
            left[p] = left[p - 1] + weights[p - 2] * f64::from(d[p - 2]);
        }
        let mut right = vec![0.0; n + 2];
        for p in (1..=n).rev() {
            right[p] = right[p + 1] + weights[p] * f64::from(d[p - 1]);
        }
        let best = (1..=n + 1)
            .map(|p| (left[p] + weights[p - 1] * f64::from(self.new_leaf_depth(p)) + right[p], p))
            .fold((f64::INFINITY, 1), |best, next| if next.0 < best.0 { next } else { best });
        self.insert_key(best.1)
    }
}

impl fmt::Debug for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tree{:?}", self.0)
    }
}

/// Checks that `depths` is the depth vector of a BST with its root at depth 1,
/// in one pass (Bob's mixtures of a thousand trees on a thousand keys are
/// checked at every certificate): the nearest keys at most as deep as a key,
/// one on each side, must both be shallower, and the deeper of them (its
/// parent) one level up; the root has neither.
fn check_depths(depths: &[u8]) -> Result<(), String> {
    // The keys whose shallower key on the right is not yet seen: (key, depth,
    // depth of the nearest shallower key on the left, 0 if none).
    let mut open: Vec<(usize, u8, u8)> = Vec::with_capacity(64);
    let parent_is_one_up = |k: usize, d: u8, parent: u8| match parent {
        _ if parent + 1 == d => Ok(()),
        0 => Err(format!("key {} is the shallowest at depth {d}, not 1", k + 1)),
        _ => Err(format!("key {} has depth {d} under a key of depth {parent}", k + 1)),
    };
    for (k, &d) in depths.iter().enumerate() {
        if d == 0 {
            return Err(format!("key {} has depth 0", k + 1));
        }
        while let Some(&(j, deeper, left)) = open.last().filter(|top| top.1 > d) {
            parent_is_one_up(j, deeper, left.max(d))?;
            open.pop();
        }
        let left = match open.last() {
            Some(&(j, same, _)) if same == d => {
                return Err(format!("keys {} and {} both have depth {d} with no shallower key between", j + 1, k + 1));
            }
            Some(&(_, shallower, _)) => shallower,
            None => 0,
        };
        open.push((k, d, left));
    }
    open.into_iter().try_for_each(|(k, d, left)| parent_is_one_up(k, d, left))
}

/// Every binary search tree on 1..=n (Catalan(n) of them): for brute force on small n.
pub fn all_trees(n: usize) -> Vec<Tree> {
    fn build(n: usize) -> Vec<Vec<u8>> {
        if n == 0 {
            return vec![Vec::new()];
        }
        let mut out = Vec::new();
        for root in 0..n {
            for left in build(root) {
                for right in build(n - root - 1) {
                    let mut depths: Vec<u8> = left.iter().map(|d| d + 1).collect();
                    depths.push(1);
                    depths.extend(right.iter().map(|d| d + 1));
                    out.push(depths);
                }
            }
        }
        out
    }
    build(n).into_iter().map(Tree::new_unchecked).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn catalan_many_valid_distinct_trees() {
        let catalan = [1usize, 1, 2, 5, 14, 42, 132, 429, 1430, 4862];
        for (n, &count) in catalan.iter().enumerate().skip(1) {
            let trees = all_trees(n);
            assert_eq!(trees.len(), count);
            let distinct: std::collections::HashSet<_> = trees.iter().collect();
            assert_eq!(distinct.len(), trees.len());
            for t in &trees {
                assert!(Tree::from_depths(t.depths().to_vec()).is_ok());
                assert!(distinct.contains(&t.mirror()));
            }
        }
    }

    #[test]
    fn rejects_non_trees() {
        // The seed's example of an invalid subsequence of the complete tree.
        assert!(Tree::from_depths(vec![3, 3, 1, 3, 2, 3]).is_err());
        assert!(Tree::from_depths(vec![3, 2, 1, 3, 2, 3]).is_ok());
        assert!(Tree::from_depths(vec![1, 1]).is_err());
        assert!(Tree::from_depths(vec![2, 2]).is_err());
        assert!(Tree::from_depths(vec![1, 3]).is_err());
        assert!(Tree::from_depths(vec![]).is_err());
        // Every vector in {0..n}^n, n <= 6, is valid exactly when it is one of the Catalan(n) trees.
        for n in 1..=6usize {
            let trees: std::collections::HashSet<Vec<u8>> = all_trees(n).iter().map(|t| t.depths().to_vec()).collect();
            let base = n as u32 + 1;
            for code in 0..base.pow(n as u32) {
                let v: Vec<u8> = (0..n as u32).map(|i| (code / base.pow(i) % base) as u8).collect();
                assert_eq!(Tree::from_depths(v.clone()).is_ok(), trees.contains(&v), "{v:?}");
            }
        }
    }

    #[test]
    fn insertion_gives_valid_trees_everywhere() {
        for n in 1..=7 {
            for t in all_trees(n) {
                for p in 1..=n + 1 {
                    let bigger = t.insert_key(p);
                    assert!(Tree::from_depths(bigger.depths().to_vec()).is_ok(), "{t:?} at {p}");
                    // Removing the new leaf gives the old tree back.
                    let mut back = bigger.depths().to_vec();
                    back.remove(p - 1);
                    assert_eq!(back, t.depths());
                }
            }
        }
    }

    /// The definition, checked interval by interval: every interval of keys
    /// that forms a subtree has a unique shallowest key at its level.
    fn is_search_tree(depths: &[u8], level: u8) -> bool {
        let Some(&shallowest) = depths.iter().min() else { return true };
        let roots: Vec<usize> = (0..depths.len()).filter(|&k| depths[k] == shallowest).collect();
        shallowest == level
            && roots.len() == 1
            && is_search_tree(&depths[..roots[0]], level + 1)
            && is_search_tree(&depths[roots[0] + 1..], level + 1)
    }

    proptest! {
        /// On 1000 keys, a random tree and that tree with one key's depth
        /// moved by one: the one-pass check agrees with the definition.
        #[test]
        fn the_one_pass_check_agrees_with_the_definition(seed in 0u64..u64::MAX, key in 0usize..1000, up in any::<bool>()) {
            let tree = Tree::from_roots(1000, |a, b| {
                let h = (seed ^ (a as u64 * 7919 + b as u64)).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
                a + (h % (b - a + 1) as u64) as usize
            });
            prop_assert!(Tree::from_depths(tree.depths().to_vec()).is_ok());
            let mut moved = tree.depths().to_vec();
            moved[key] = if up { moved[key] - 1 } else { moved[key] + 1 };
            prop_assert_eq!(Tree::from_depths(moved.clone()).is_ok(), is_search_tree(&moved, 1));
        }
    }

    #[test]
    fn roots_build_the_tree() {
        // Always guess the middle: the balanced tree on 7 keys.
        let t = Tree::from_roots(7, |a, b| (a + b) / 2);
        assert_eq!(t.depths(), [3, 2, 3, 1, 3, 2, 3]);
        assert_eq!(t.height(), 3);
    }
}
