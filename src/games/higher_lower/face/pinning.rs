//! Bob's mixture widened by the face LPs' own proofs, where they prove the
//! face a point but his mixture's hull is larger (the exact stage's widening
//! missed trees).
//!
//! When the box LPs bound every direction's coordinate to alpha*'s from both
//! sides, their proofs' multipliers, summed over the 2d LPs, give Y >= 0 on
//! trees and nu >= 0 on keys, every one tight at alpha*, whose load
//! load_Y + nu is constant on the hull's directions (a coordinate's two
//! proofs, of alpha_k and of -alpha_k, cancel their h when weighted alike,
//! so each pair is scaled by its own common denominator: Y and nu are then
//! integers of about one pair's digits, where one common denominator of all
//! 2d proofs made every exact step below far longer; N = 1991: weights of
//! 3,307 digits instead of 42,496, and these steps 19 s instead of 432 s,
//! docs/history.md#a87f4d8-the-pinnings-multipliers-scaled-to-integers-per-coordinate-the-face-stage-at-warm-1991-x28):
//! it lies in the row space of the hull's equations M (Bob's support trees
//! on the tight keys, a row of ones), load_Y + nu = w'M there. Then y + eps (Y - w) (w on the support),
//! renormalised, is again an optimal mixture of Bob's for a small eps > 0: its
//! load stays constant on the tight keys off nu, falls on those in it, and
//! stays below V elsewhere. Its support takes in Y's trees, and its hull is
//! the point alpha*: a direction t of the new hull has t_c = sum lambda_j a_j . t = 0
//! by the box proof of each coordinate c. The new mixture's half of the
//! certificate is checked exactly (alpha*'s half is the exact stage's), and
//! `verify` certifies both again.

use super::polytope::{AliceFace, Cut};
use crate::exact::common_denominator;
use crate::exact::{Integer, Rational};
use crate::games::higher_lower::mixture::{Mixture, key_loads};
use crate::games::higher_lower::tree::Tree;
use malachite::base::num::arithmetic::traits::PowerOf2;
use malachite::base::num::basic::traits::Zero;
use std::collections::HashMap;

/// An optimal mixture of Bob's whose hull is the point alpha*, and the face
/// built from it, from `bob` (the mixture `face` was built from) and the
/// face's box proofs, when they prove every coordinate pinned; `None` otherwise.
pub fn pinned_mixture(face: &AliceFace, value: &Rational, bob: &Mixture) -> Option<(Mixture, AliceFace)> {
    let alpha = face.alpha();
    let bounds = face.box_bounds().ok()?;
    let pinned =
        face.free_keys().iter().zip(&bounds).all(|(&k, [low, high])| low.bound == alpha[k] && -&high.bound == alpha[k]);
    if !pinned {
        return None;
    }
    // The proofs' multipliers, each coordinate's pair scaled to integers, summed: lambda on trees (Y), nu on keys.
    let mut lambda: Vec<(Tree, Rational)> = Vec::new();
    let mut nu: Vec<(usize, Rational)> = Vec::new();
    for pair in &bounds {
        let multipliers = || pair.iter().flat_map(|bound| &bound.multipliers);
        let (_, scale) = common_denominator(&multipliers().map(|(_, weight)| weight.clone()).collect::<Vec<_>>());
        let scale = Rational::from(scale);
        for (cut, weight) in multipliers() {
            let weight = weight * &scale;
            match cut {
                Cut::Tree(tree) => add_to(&mut lambda, tree, &weight),
                Cut::Nonnegative(k) => add_to(&mut nu, k, &weight),
                Cut::AtMostOne(_) => return None,
            }
        }
    }
    // One transposed solve per distinct tree and key.
    let trees = lambda.iter().map(|(t, l)| (t.depths().iter().map(|&d| i64::from(d)).collect(), l.clone()));
    let keys = nu.iter().map(|(k, n)| ((0..alpha.len()).map(|j| i64::from(j == *k)).collect(), n.clone()));
    let parts: Vec<(Vec<i64>, Rational)> = trees.chain(keys).collect();
    let w = face.hull().row_weights(&parts)?;
    // The move a = Y - w on the support trees, then Y's other trees.
    let mut mixture: Vec<(Tree, Rational, Rational)> =
        bob.iter().filter(|(_, y)| *y > 0u32).map(|(t, y)| (t.clone(), y.clone(), Rational::ZERO)).collect();
    for ((_, _, a), w_t) in mixture.iter_mut().zip(&w) {
        *a -= w_t;
    }
    let index: HashMap<Tree, usize> = bob.support().cloned().enumerate().map(|(i, t)| (t, i)).collect();
    for (tree, l) in lambda {
        match index.get(&tree) {
            Some(&i) => mixture[i].2 += l,
            None => mixture.push((tree, Rational::ZERO, l)),
        }
    }
    let step = largest_step(value, &mixture)?;
    let mass_move: Rational = mixture.iter().map(|(_, _, a)| a).sum();
    let mass = Rational::from(1u32) + &step * mass_move;
    let pinned: Mixture =
        mixture.into_iter().map(|(t, y, a)| (t, (y + &step * a) / &mass)).filter(|(_, z)| *z > 0u32).collect();
    pinned.holds(value, alpha.len()).ok()?;
    let point = AliceFace::new(value, alpha, &pinned).ok().filter(|point| point.dimension() == 0)?;
    Some((pinned, point))
}

/// A step eps = 2^-j, at most half the largest that keeps every weight y_T +
/// eps a_T positive and every key's load at most V times the mass 1 + eps
/// sum(a); `None` when a key Bob holds to V would rise.
fn largest_step(value: &Rational, mixture: &[(Tree, Rational, Rational)]) -> Option<Rational> {
    let mut limit = Rational::from(1u32);
    for (_, y, a) in mixture {
        if *a < 0u32 {
            limit = limit.min(y / -a);
        }
    }
    let n = mixture.first()?.0.len();
    let trees = || mixture.iter().map(|(t, _, _)| t);
    let (ys, y_scale) = common_denominator(&mixture.iter().map(|(_, y, _)| y.clone()).collect::<Vec<_>>());
    let (moves, move_scale) = common_denominator(&mixture.iter().map(|(_, _, a)| a.clone()).collect::<Vec<_>>());
    let mass_move: Rational = mixture.iter().map(|(_, _, a)| a).sum();
    let (loads, rises) = (key_loads(trees(), &ys, n), key_loads(trees(), &moves, n));
    for (load, rise) in loads.into_iter().zip(rises) {
        let load = Rational::from_integers(load, Integer::from(y_scale.clone()));
        let rise = Rational::from_integers(rise, Integer::from(move_scale.clone())) - value * &mass_move;
        if rise > 0u32 {
            let slack = value - load;
            if slack <= 0u32 {
                return None;
            }
            limit = limit.min(slack / rise);
        }
    }
    if limit <= 0u32 {
        return None;
    }
    let mut step = Rational::power_of_2(-1i64);
    while &step * Rational::from(2u32) > limit {
        step /= Rational::from(2u32);
    }
    Some(step)
}

/// Adds `weight` to `key`'s entry of `sums`, or appends it.
fn add_to<K: PartialEq + Clone>(sums: &mut Vec<(K, Rational)>, key: &K, weight: &Rational) {
    match sums.iter_mut().find(|(k, _)| k == key) {
        Some((_, sum)) => *sum += weight,
        None => sums.push((key.clone(), weight.clone())),
    }
}
