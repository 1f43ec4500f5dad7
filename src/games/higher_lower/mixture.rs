//! A mixture of Bob's trees: his mixed strategy, each tree with its exact
//! probability (a tree and its mirror listed separately), and what it
//! guarantees: the keys it holds to V, and whether it holds every key to V.

use crate::exact::{Integer, Rational, common_denominator};
use crate::games::higher_lower::tree::Tree;
use malachite::base::num::arithmetic::traits::AddMulAssign;
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
        (0..first.len()).filter(|&k| key_load(self.support(), &numerators, k) == target).collect()
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
        let worst = (0..n).map(|k| key_load(self.trees(), &numerators, k)).max().expect("n > 0");
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

/// sum_T y_T d_T(k): what Bob's trees with integer weights `y` make Alice pay
/// on key k (0-based). Summed in place: a temporary Integer per product cost
/// more than the sums.
pub fn key_load<'t>(trees: impl Iterator<Item = &'t Tree>, y: &[Integer], k: usize) -> Integer {
    let mut load = Integer::from(0);
    for (tree, y) in trees.zip(y) {
        load.add_mul_assign(Integer::from(tree.depths()[k]), y);
    }
    load
}
