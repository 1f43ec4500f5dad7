//! Bob's optimal mixture widened for the face stage.
//!
//! The face stage finds the affine hull of Alice's optimal strategies by
//! complementary slackness with one optimal mixture of Bob's: each tree of
//! its support is an equation alpha . d_T = V. The simplex ends at a vertex,
//! whose support is small in this degenerate game, so that hull can be far
//! larger than the face itself, and the face LPs then spend their time
//! finding the missing equations as cuts. The mean of optimal mixtures is
//! optimal and its support is their union; a few more vertices of Bob's
//! optimal face usually pin the hull down to the face (N = 961 from a cold
//! start: dimension 39 from the vertex, 0 from five vertices; the face stage
//! 89 s -> 0.5 s for 5 s here).
//!
//! A further vertex: the master over the trees tight at the end of the float
//! solve, each tree's cost raised at random by up to `TILT` (its column
//! divided by 1 + tilt), whose optimum is a vertex of the untilted optimal
//! face that favours other trees. Each tilted master starts from the float
//! solve's final basis, which the tilt keeps feasible (a column scaled by
//! 1 / (1 + t) takes the value x (1 + t)) and nearly optimal, instead of from
//! the slacks. Its basis is solved exactly for Bob's side
//! alone: x_B = B^-1 1 >= 0 is a feasible point of S x <= 1 (the slacks are
//! among the basic variables), so Bob's mixture x / sum(x) holds every key
//! to at most 1 / (2 sum(x)), and where that equals V the mixture is optimal.
//! A tilted optimum that fails this is left out, not repaired (exact pivots,
//! each a new factorisation, cost up to 108 s at N = 981), and its duals are
//! never needed (they may vanish on whole rows, where the DP's trees degenerate).
//!
//! The tilted masters can only mix the trees they are given. After a cold
//! start the pool holds few of Bob's optimal trees (N = 1281: 858 tight of
//! 2,512, and four vertices left the hull at dimension 38, which cost the
//! face stage about 200 s finding 16,437 missing equations as cuts), so the tight
//! trees are first joined by best responses to Alice's float strategy with
//! its weights perturbed at random by up to `NEARBY` (relative): each
//! breaks the DP's ties another way and finds another tree that ties for the
//! best. With 2d of them (d the vertex's hull dimension) N = 577, 705 and
//! 1281 widen to a point.

use super::basis::{bob_mixture, factor};
use crate::exact::Rational;
use crate::games::higher_lower::face::hull::{OptimalFace, support, tight_keys};
use crate::games::higher_lower::solve::restricted_master::{RestrictedMaster, Var};
use crate::games::higher_lower::solve::{BasicVar, FloatSolution, Method, price};
use crate::games::higher_lower::symmetric::SymmetricGame;
use crate::games::higher_lower::tree::Tree;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Further vertices tried at most.
const VERTICES: usize = 4;
/// Largest relative tilt of a tree's cost: above the master's single
/// precision columns (6e-8) and small enough to keep to the optimal face.
/// With 1e-5 every tilted vertex at N = 1017 was off the face (its exact
/// value was not V), and the widening spent 7 s for nothing; with 1e-6 two
/// of four were on it, and the hull went from dimension 6 to 1
/// (docs/higher-lower-experiments.md#bobs-vertex-mixture-made-the-face-look-larger-than-it-is-2026-11-25-issue-33).
const TILT: f64 = 1e-6;
/// Trees within this (relative) of the best against the float strategy count as tight.
const TIGHT: f64 = 1e-9;
/// Best responses to a perturbed float strategy sought per dimension of the vertex's hull.
const NEARBY_PER_DIMENSION: usize = 2;
/// Largest relative perturbation of a weight for those best responses: far
/// below the gaps between distinct tree costs, far above the DP's rounding.
const NEARBY: f64 = 1e-8;

/// The mean of Bob's `vertex` mixture (of value `value`) and further exact vertices of his
/// optimal face, taken until its hull is a point or `VERTICES` are tried;
/// `None` when the vertex's hull is a point already or nothing narrowed it.
pub fn widened_mixture(
    game: &SymmetricGame,
    float: &FloatSolution,
    value: &Rational,
    vertex: &[(Tree, Rational)],
) -> Option<Vec<(Tree, Rational)>> {
    let first = OptimalFace::new(value, vertex).dimension();
    if first == 0 {
        return None;
    }
    // The mean's hull from the keys tight in every mixture and the union of
    // their supports (`OptimalFace::from_parts`); the mean itself only for the
    // narrowest.
    let mut tight: BTreeSet<usize> = tight_keys(value, vertex).into_iter().collect();
    let mut union: BTreeSet<Tree> = support(vertex).cloned().collect();
    let cost = |tree: &Tree| game.column(tree).iter().zip(&float.beta).map(|(s, b)| f64::from(*s) * b).sum::<f64>();
    let best = float.pool.iter().map(cost).fold(f64::INFINITY, f64::min);
    let is_tight = |tree: &Tree| cost(tree) <= best * (1.0 + TIGHT);
    let nearby = nearby_best_responses(game, float, NEARBY_PER_DIMENSION * first, &is_tight);
    let tight_trees: Vec<&Tree> = float.pool.iter().filter(|tree| is_tight(tree)).chain(&nearby).collect();
    let start = final_basis(float, &tight_trees);
    let mut mixtures = vec![vertex.to_vec()];
    // The narrowest dimension and how many mixtures its mean takes.
    let mut narrowest = (first, 1);
    for k in 0..VERTICES {
        let mut rng = ChaCha8Rng::seed_from_u64((game.n * VERTICES + k) as u64);
        let columns: Vec<Vec<f64>> = tight_trees
            .iter()
            .map(|tree| {
                let tilt = 1.0 + TILT * rng.random::<f64>();
                game.column(tree).iter().map(|&s| f64::from(s) / tilt).collect()
            })
            .collect();
        let mut master = RestrictedMaster::new(game.rows(), &columns);
        master.start_from(&start);
        master.solve();
        let basis: Vec<BasicVar> = master
            .basis()
            .into_iter()
            .map(|var| match var {
                Var::Slack(j) => BasicVar::Slack(j),
                Var::Column(c) => BasicVar::Tree(tight_trees[c].clone()),
            })
            .collect();
        // A vertex off the optimal face (a tilt too large) or not exactly feasible adds nothing.
        let Ok(solver) = factor(game, &basis) else { continue };
        let x = solver.solve(&vec![1; game.rows()]);
        let positive_tree = x.numerators.iter().zip(&basis).any(|(x, v)| *x > 0 && matches!(v, BasicVar::Tree(_)));
        if x.numerators.iter().any(|x| *x < 0) || !positive_tree {
            continue;
        }
        match bob_mixture(&basis, &x) {
            (found, bob) if found == *value => mixtures.push(bob),
            _ => continue,
        }
        let found = mixtures.last().expect("just pushed");
        let tight_here: BTreeSet<usize> = tight_keys(value, found).into_iter().collect();
        tight.retain(|k| tight_here.contains(k));
        union.extend(support(found).cloned());
        let narrowed = OptimalFace::from_parts(game.n, tight.iter().copied().collect(), &union).dimension();
        if narrowed < narrowest.0 {
            narrowest = (narrowed, mixtures.len());
        }
        if narrowed == 0 {
            break;
        }
    }
    (narrowest.1 > 1).then(|| mean(&mixtures[..narrowest.1]))
}

/// Up to `count` tight trees outside the pool: Bob's best responses to
/// Alice's float strategy with each weight perturbed by up to `NEARBY`.
fn nearby_best_responses(
    game: &SymmetricGame,
    float: &FloatSolution,
    count: usize,
    is_tight: &dyn Fn(&Tree) -> bool,
) -> Vec<Tree> {
    let mut rng = ChaCha8Rng::seed_from_u64(game.n as u64);
    let pool: HashSet<&Tree> = float.pool.iter().collect();
    let mut found = Vec::new();
    for _ in 0..count {
        let point: Vec<f64> = float.beta.iter().map(|b| b * (1.0 + NEARBY * rng.random_range(-1.0..1.0))).collect();
        let tree = price(game, Method::Auto, &point).canonical();
        if is_tight(&tree) && !pool.contains(&tree) && !found.contains(&tree) {
            found.push(tree);
        }
    }
    found
}

/// The float solve's final basis over the `tight` trees. A basic tree that
/// rounding left out of them is replaced by a slack; `start_from` repairs the
/// basis if that makes it singular.
fn final_basis(float: &FloatSolution, tight: &[&Tree]) -> Vec<Var> {
    let index: HashMap<&Tree, usize> = tight.iter().enumerate().map(|(c, tree)| (*tree, c)).collect();
    float
        .basis
        .iter()
        .enumerate()
        .map(|(i, var)| match var {
            BasicVar::Slack(j) => Var::Slack(*j),
            BasicVar::Tree(tree) => index.get(tree).map_or(Var::Slack(i), |&c| Var::Column(c)),
        })
        .collect()
}

/// The mean of mixtures, each tree once.
fn mean(mixtures: &[Vec<(Tree, Rational)>]) -> Vec<(Tree, Rational)> {
    let share = Rational::from(1u32) / Rational::from(mixtures.len());
    let mut sum: BTreeMap<Tree, Rational> = BTreeMap::new();
    for (tree, y) in mixtures.iter().flatten() {
        *sum.entry(tree.clone()).or_insert_with(|| Rational::from(0u32)) += y * &share;
    }
    sum.into_iter().collect()
}
