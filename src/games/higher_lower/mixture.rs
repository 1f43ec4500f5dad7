//! A mixture of Bob's trees: his mixed strategy, each tree with its exact
//! probability (a tree and its mirror listed separately), and what it
//! guarantees: the keys it holds to V, and whether it holds every key to V.

use crate::exact::{Integer, Natural, Rational, common_denominator};
use crate::games::higher_lower::tree::Tree;
use std::ops::Deref;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mixture(Vec<(Tree, Rational)>);

impl Mixture {
    /// The trees with their probabilities, as given (not checked: `holds` checks).
    pub fn new(parts: Vec<(Tree, Rational)>) -> Self {
        Mixture(parts)
    }

    /// The trees played with positive probability.
    pub fn support(&self) -> impl Iterator<Item = &Tree> {
        self.0.iter().filter(|(_, y)| *y > 0u32).map(|(t, _)| t)
    }

    /// The trees with their probabilities.
    pub fn trees(&self) -> impl Iterator<Item = &Tree> {
        self.0.iter().map(|(t, _)| t)
    }

    pub fn weights(&self) -> Vec<Rational> {
        self.0.iter().map(|(_, y)| y.clone()).collect()
    }

    pub fn push(&mut self, tree: Tree, weight: Rational) {
        self.0.push((tree, weight));
    }

    /// The tight keys of an optimal mixture (0-based): those it holds to
    /// exactly V, the only keys an optimal alpha may play (complementary
    /// slackness). For a mean of optimal mixtures they are the keys tight in
    /// every one (each holds every key to at most V).
    pub fn tight_keys(&self, value: &Rational) -> Vec<usize> {
        let Some((first, _)) = self.0.first() else { return Vec::new() };
        let weights: Vec<Rational> = self.0.iter().filter(|(_, y)| *y > 0u32).map(|(_, y)| y.clone()).collect();
        let (numerators, scale) = common_denominator(&weights);
        let target = value * Rational::from(scale);
        let loads = key_loads(self.support(), &numerators, first.len());
        (0..first.len()).filter(|&k| loads[k] == target).collect()
    }

    /// Bob's half of a certificate: a distribution over valid trees on `n`
    /// keys whose worst key costs exactly `value` (so Bob guarantees V).
    /// Another optimal mixture of Bob's against an alpha already certified
    /// needs only this half.
    pub fn holds(&self, value: &Rational, n: usize) -> Result<(), String> {
        if self.0.is_empty() {
            return Err("Bob's mixture is empty".into());
        }
        for (tree, weight) in &self.0 {
            if tree.len() != n {
                return Err(format!("a tree has {} keys instead of {n}", tree.len()));
            }
            Tree::from_depths(tree.depths().to_vec())?;
            if *weight < 0u32 {
                return Err("Bob's mixture has a negative weight".into());
            }
        }
        if self.0.iter().map(|(_, y)| y).sum::<Rational>() != 1u32 {
            return Err("Bob's weights do not sum to 1".into());
        }
        let (numerators, scale) = common_denominator(&self.weights());
        let worst = key_loads(self.trees(), &numerators, n).into_iter().max().expect("n > 0");
        let bob_bound = Rational::from_integers(worst, Integer::from(scale));
        if bob_bound != *value {
            return Err(format!("Bob's mixture lets Alice get {bob_bound}, not {value}"));
        }
        Ok(())
    }

    pub fn into_parts(self) -> Vec<(Tree, Rational)> {
        self.0
    }
}

impl Deref for Mixture {
    type Target = [(Tree, Rational)];

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl FromIterator<(Tree, Rational)> for Mixture {
    fn from_iter<I: IntoIterator<Item = (Tree, Rational)>>(parts: I) -> Self {
        Mixture(parts.into_iter().collect())
    }
}

impl IntoIterator for Mixture {
    type Item = (Tree, Rational);
    type IntoIter = std::vec::IntoIter<(Tree, Rational)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'m> IntoIterator for &'m Mixture {
    type Item = &'m (Tree, Rational);
    type IntoIter = std::slice::Iter<'m, (Tree, Rational)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// sum_T y_T d_T(k) for every key k (0-based) of trees on `n` keys: what
/// Bob's trees with integer weights `y` (one per tree, in order) make Alice
/// pay on each key. All keys at once in fixed-width limbs: each product of a
/// depth and a weight's limb (below 2^72) is added into a 128-bit lane with
/// no carry, and each key's carries are taken once at the end. A big-integer
/// multiply-add per key and tree made these loads a third of the exact
/// stage's arithmetic at N = 930.
pub fn key_loads<'t>(trees: impl Iterator<Item = &'t Tree>, y: &[Integer], n: usize) -> Vec<Integer> {
    let width = y.iter().map(|v| v.unsigned_abs_ref().limb_count() as usize).max().unwrap_or(0);
    // The positive weights' lanes and the negative weights' (key-major, `width` limbs a key).
    let mut lanes = [vec![0u128; n * width], Vec::new()];
    for (tree, v) in trees.zip(y) {
        let limbs = v.unsigned_abs_ref().to_limbs_asc();
        let part = &mut lanes[usize::from(*v < 0)];
        if part.is_empty() {
            part.resize(n * width, 0);
        }
        for (key, &depth) in part.chunks_exact_mut(width).zip(tree.depths()) {
            for (lane, &limb) in key.iter_mut().zip(&limbs) {
                *lane += u128::from(depth) * u128::from(limb);
            }
        }
    }
    let [positive, negative] = lanes;
    (0..n)
        .map(|k| {
            let part = |lanes: &[u128]| Integer::from(carried(lanes.get(k * width..(k + 1) * width).unwrap_or(&[])));
            part(&positive) - part(&negative)
        })
        .collect()
}

/// The natural number whose limb i (base 2^64) is lanes[i], carries not yet taken.
fn carried(lanes: &[u128]) -> Natural {
    let mut limbs = Vec::with_capacity(lanes.len() + 2);
    let mut carry = 0u128;
    for &lane in lanes {
        let sum = lane + carry;
        limbs.push(sum as u64);
        carry = sum >> 64;
    }
    while carry > 0 {
        limbs.push(carry as u64);
        carry >>= 64;
    }
    Natural::from_owned_limbs_asc(limbs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use malachite::base::num::arithmetic::traits::{AddMulAssign, Pow};
    use proptest::prelude::*;

    /// A search tree on `n` keys with pseudo-random roots.
    fn tree(n: usize, seed: u64) -> Tree {
        Tree::from_roots(n, |a, b| a + ((seed as usize).wrapping_mul(a * 31 + b * 17) % (b - a + 1)))
    }

    proptest! {
        /// The fixed-width sums equal the big-integer multiply-adds they
        /// replace, for weights of either sign and of up to 400 bits.
        #[test]
        fn key_loads_are_the_big_integer_sums(
            n in 1usize..40,
            weights in prop::collection::vec((any::<i64>(), 0u64..400, any::<u64>()), 1..12),
        ) {
            let trees: Vec<Tree> = (0..weights.len()).map(|i| tree(n, i as u64 + 7)).collect();
            let y: Vec<Integer> = weights
                .iter()
                .map(|&(a, bits, b)| Integer::from(a) * Integer::from(2u32).pow(bits) + Integer::from(b))
                .collect();
            let loads = key_loads(trees.iter(), &y, n);
            for (k, load) in loads.iter().enumerate() {
                let mut sum = Integer::from(0);
                for (t, v) in trees.iter().zip(&y) {
                    sum.add_mul_assign(Integer::from(t.depths()[k]), v);
                }
                prop_assert_eq!(load, &sum);
            }
        }
    }
}
