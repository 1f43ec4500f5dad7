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
//! start: dimension 39 from the vertex, 0 from five vertices), and the face
//! stage saves far more than the widening costs
//! (docs/history.md#f5c2962-the-face-stage-on-a-widened-mixture-of-bobs-table-31s-bound-tries-n---1s-alpha-first).
//!
//! A further vertex: the master over the trees that cost exactly V at
//! alpha* (of those tight at the end of the float solve), each tree's cost
//! in the master's objective raised at random by up to `TILT`
//! (`add_column_costing`; the columns stay exact bytes), whose optimum is a
//! vertex of the untilted optimal face that favours other trees. Each tilted
//! master starts from the float solve's final basis, which the tilt leaves
//! feasible and nearly optimal, instead of from the slacks. (Near N = 1024
//! trees tight only within the float tolerance let every tilted master leave
//! the face, by far less than that tolerance: the master is that flat;
//! docs/history.md#55fd827-the-widening-mixes-only-exactly-tight-trees.)
//! Its basis is solved exactly for Bob's side alone: x_B = B^-1 1 >= 0 is a
//! feasible point of S x <= 1 (the slacks are among the basic variables), so
//! Bob's mixture x / sum(x) holds every key to at most 1 / (2 sum(x)), and
//! where that equals V the mixture is optimal. A tilted optimum that fails
//! this is left out, not repaired (exact pivots, each a new factorisation,
//! cost far more than the widening itself), and its duals are never needed
//! (they may vanish on whole rows, where the DP's trees degenerate).
//!
//! The tilted masters can only mix the trees they are given. After a cold
//! start the pool holds few of Bob's optimal trees (cold N = 1281: four
//! vertices left the hull at dimension 38, and the face stage spent long
//! finding the missing equations as cuts;
//! docs/history.md#56c04f9-nearby-best-responses-for-the-widening-after-a-cold-start),
//! so the tight trees are first joined by best responses to Alice's float
//! strategy with its weights perturbed at random by up to `NEARBY`
//! (relative): each breaks the DP's ties another way and finds another tree
//! that ties for the best. With 2d of them (d the vertex's hull dimension) N = 577, 705 and
//! 1281 widen to a point.
//!
//! Where the hull is still not a point, the face stage widens it further
//! from its own LPs' proofs (`face::pinning`).

use super::basis::{bob_mixture, factor};
use crate::exact::{Rational, ScaledVector};
use crate::games::higher_lower::hull::OptimalFace;
use crate::games::higher_lower::mixture::Mixture;
use crate::games::higher_lower::solve::restricted_master::{RestrictedMaster, Var};
use crate::games::higher_lower::solve::{BasicVar, FloatSolution, Method, price};
use crate::games::higher_lower::symmetric::SymmetricGame;
use crate::games::higher_lower::tree::Tree;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Further vertices tried at most after a warm solve. Where one does not
/// make the hull a point, more rarely do, and the face stage's pinning
/// (`face/pinning.rs`) widens the mixture from its LPs' proofs anyway: on the
/// hard chain 993..1024 the first vertex makes the hull a point at most N
/// where it is not one already, and the further vertices cost the exact stage
/// more than they saved the face stage
/// (docs/history.md#49c1a22-one-tilted-vertex-after-a-warm-solve).
const WARM_VERTICES: usize = 1;
/// Further vertices tried at most after a cold start, whose hull is wide
/// (d = 20-40) and narrows vertex by vertex: cold N = 577 is left d = 6 by
/// one vertex, a point by four (docs/history.md#49c1a22-one-tilted-vertex-after-a-warm-solve).
const COLD_VERTICES: usize = 4;
/// Largest relative tilt of a tree's cost, small enough to keep to the
/// optimal face. With 1e-5 (tilted columns then) every tilted vertex at
/// N = 1017 was off the face (its exact value was not V), and the widening's
/// time bought nothing; with 1e-6 two of four were on it, and the hull went
/// from dimension 6 to 1
/// (docs/history.md#d277f1e-the-widenings-tilted-masters-start-from-the-final-basis).
const TILT: f64 = 1e-6;
/// Trees within this (relative) of the best against the float strategy count as tight.
const TIGHT: f64 = 1e-9;
/// Best responses to a perturbed float strategy sought per dimension of the vertex's hull.
const NEARBY_PER_DIMENSION: usize = 2;
/// Largest relative perturbation of a weight for those best responses: far
/// below the gaps between distinct tree costs, far above the DP's rounding.
const NEARBY: f64 = 1e-8;

/// The mean of Bob's `vertex` mixture (of value `value`, Alice's optimal
/// `alpha`) and further exact vertices of his optimal face, taken until its
/// hull is a point or the vertices tried run out (`None` when the vertex's
/// hull is a point already or nothing narrowed it), and the hull of that
/// mean (else of the vertex).
pub fn widened_mixture(
    game: &SymmetricGame,
    float: &FloatSolution,
    value: &Rational,
    alpha: &[Rational],
    vertex: &Mixture,
) -> (Option<Mixture>, OptimalFace) {
    let vertex_hull = OptimalFace::new(value, vertex);
    let first = vertex_hull.dimension();
    if first == 0 {
        return (None, vertex_hull);
    }
    let alpha = ScaledVector::from_rationals(alpha);
    let trees = tight_trees(game, float, value, &alpha, first);
    let mut widening = Widening::new(game.n, value, vertex, vertex_hull);
    let vertices = if float.warm_started { WARM_VERTICES } else { COLD_VERTICES };
    widening.add_vertices(game, &trees, &final_basis(float, &trees), vertices);
    let Widening { mixtures, narrowest: (hull, count), .. } = widening;
    ((count > 1).then(|| mean(&mixtures[..count])), hull)
}

/// The pool's trees tight at Alice's float strategy, and `NEARBY_PER_DIMENSION`
/// best responses per dimension of the vertex's hull near it, of those the
/// ones that cost exactly V at alpha*: only they can be in an optimal
/// mixture, and one that costs more by 1e-12 lets a tilted master leave
/// the face.
fn tight_trees(
    game: &SymmetricGame,
    float: &FloatSolution,
    value: &Rational,
    alpha: &ScaledVector,
    dimension: usize,
) -> Vec<Tree> {
    let cost = |tree: &Tree| game.column(tree).iter().zip(&float.beta).map(|(s, b)| f64::from(*s) * b).sum::<f64>();
    let best = float.pool.iter().map(cost).fold(f64::INFINITY, f64::min);
    let is_tight = |tree: &Tree| cost(tree) <= best * (1.0 + TIGHT);
    let nearby = nearby_best_responses(game, float, NEARBY_PER_DIMENSION * dimension, &is_tight);
    float
        .pool
        .iter()
        .filter(|tree| is_tight(tree))
        .cloned()
        .chain(nearby)
        .filter(|tree| alpha.dot_small(tree.depths()) == *value)
        .collect()
}

/// Optimal mixtures of Bob's found so far, and the hull of their mean.
struct Widening<'v> {
    n: usize,
    value: &'v Rational,
    mixtures: Vec<Mixture>,
    /// The keys tight in every mixture and the union of their supports: the
    /// mean's hull (`OptimalFace::from_parts`) without the mean itself.
    tight: BTreeSet<usize>,
    union: BTreeSet<Tree>,
    /// The narrowest hull and how many mixtures its mean takes.
    narrowest: (OptimalFace, usize),
}

impl<'v> Widening<'v> {
    fn new(n: usize, value: &'v Rational, vertex: &Mixture, hull: OptimalFace) -> Self {
        Widening {
            n,
            value,
            mixtures: vec![vertex.clone()],
            tight: hull.tight_keys().iter().copied().collect(),
            union: vertex.support().cloned().collect(),
            narrowest: (hull, 1),
        }
    }

    fn hull(&self) -> OptimalFace {
        OptimalFace::from_parts(self.n, self.tight.iter().copied().collect(), &self.union)
    }

    /// Up to `vertices` more vertices, each the optimum of the master over
    /// `trees` tilted at random, until the hull is a point.
    fn add_vertices(&mut self, game: &SymmetricGame, trees: &[Tree], start: &[Var], vertices: usize) {
        for k in 0..vertices {
            // Seeds n * COLD_VERTICES + k (the most vertices tried): distinct for every N and k.
            let mut rng = ChaCha8Rng::seed_from_u64((game.n * COLD_VERTICES + k) as u64);
            let mut master = RestrictedMaster::new(game.rows(), &[]);
            for tree in trees {
                master.add_column_costing(&game.float_column(tree), 1.0 + TILT * rng.random::<f64>());
            }
            master.start_from(start);
            master.solve();
            let basis = master.basis();
            let basis: Vec<BasicVar> = basis
                .into_iter()
                .map(|var| match var {
                    Var::Slack(j) => BasicVar::Slack(j),
                    Var::Column(c) => BasicVar::Tree(trees[c].clone()),
                })
                .collect();
            // A vertex off the optimal face (a tilt too large) or not exactly feasible adds nothing.
            let Ok(solver) = factor(game, &basis) else { continue };
            let x = solver.solve(&vec![1; game.rows()]);
            let positive_tree = x.numerators.iter().zip(&basis).any(|(x, v)| *x > 0 && matches!(v, BasicVar::Tree(_)));
            if x.numerators.iter().any(|x| *x < 0) || !positive_tree {
                continue;
            }
            let found = match bob_mixture(&basis, &x) {
                (found, bob) if found == *self.value => bob,
                _ => continue,
            };
            let tight_here: BTreeSet<usize> = found.tight_keys(self.value).into_iter().collect();
            self.tight.retain(|k| tight_here.contains(k));
            self.union.extend(found.support().cloned());
            self.mixtures.push(found);
            let hull = self.hull();
            let narrowed = hull.dimension();
            if narrowed < self.narrowest.0.dimension() {
                self.narrowest = (hull, self.mixtures.len());
            }
            if narrowed == 0 {
                return;
            }
        }
    }
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
fn final_basis(float: &FloatSolution, tight: &[Tree]) -> Vec<Var> {
    let index: HashMap<&Tree, usize> = tight.iter().enumerate().map(|(c, tree)| (tree, c)).collect();
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
fn mean(mixtures: &[Mixture]) -> Mixture {
    let share = Rational::from(1u32) / Rational::from(mixtures.len());
    let mut sum: BTreeMap<Tree, Rational> = BTreeMap::new();
    for (tree, y) in mixtures.iter().flatten() {
        *sum.entry(tree.clone()).or_insert_with(|| Rational::from(0u32)) += y * &share;
    }
    sum.into_iter().collect()
}
