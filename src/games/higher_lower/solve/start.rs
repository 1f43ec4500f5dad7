//! Where a solve starts: a warm start from N - 1's solution (its
//! near-optimal trees, its strategy stretched to N), or for `auto` without
//! one a cold start: from a coarse game whose interior is one uniform block,
//! or just below a power of two by analytic centres (`analytic_centre`).

use super::analytic_centre::{analytic_centre_start, starts_by_analytic_centres};
use super::best_response::{column_cost, price_within, without_zeros};
use super::options::{Method, SolveOptions};
use super::restricted_master::RestrictedMaster;
use super::solution::FloatSolution;
use super::stabilisation::StabilisedMaster;
use crate::games::higher_lower::pricing::{monotone_root_dp, monotone_root_dp_f64};
use crate::games::higher_lower::symmetric::SymmetricGame;
use crate::games::higher_lower::tree::Tree;

/// Relative gap within which N-1's trees are carried to N (`near_optimal`).
const CARRY_GAP: f64 = 1e-4;

/// Free outer rows of the cold-start game (the interior is one uniform block).
const COLD_OUTER_ROWS: usize = 8;

/// Where a solve starts: the guess gamma the seed's `guess` and our
/// stability centre start from, and what finding it cost.
#[derive(Default)]
pub struct FirstGuess {
    pub gamma: Option<Vec<f64>>,
    pub pricing_calls: u32,
    pub pivots: u64,
}

impl FirstGuess {
    fn free(gamma: Option<Vec<f64>>) -> Self {
        FirstGuess { gamma, ..FirstGuess::default() }
    }
}

/// The master's first columns, and the guess: N-1's duals stretched to N,
/// or for a cold `auto` the cold start's guess; `report` hears how a long
/// cold start goes.
pub fn first_columns(
    core: &mut StabilisedMaster,
    options: &SolveOptions,
    previous: Option<&FloatSolution>,
    report: &dyn Fn(&str),
) -> FirstGuess {
    let n = core.game.n;
    if let Some(height) = options.height_limit {
        // The height-limited game starts from N's own solution: its short
        // near-optimal trees, and its strategy as the guess, unstretched.
        let Some(own) = previous else { return FirstGuess::default() };
        core.add_all(near_optimal(own).into_iter().filter(|t| t.height() <= height).cloned());
        core.add(price_within(&core.game, options.method, Some(height), &own.beta));
        return FirstGuess::free(Some(own.beta.clone()));
    }
    // Initial columns (ours): N-1's pool, each tree with the new key inserted
    // where it is cheapest against the guess; else the best tree against the
    // uniform strategy: far fewer rounds than N-1's basic trees alone where
    // the guess is good.
    if options.method == Method::Auto
        && let Some(prev) = previous
    {
        let weights = core.game.key_weights(&stretch(&prev.beta, n));
        core.add_all(near_optimal(prev).into_iter().map(|tree| tree.cheapest_insertion(&weights)));
    }
    if core.columns.trees.is_empty() {
        core.add(monotone_root_dp(&vec![1.0; n]).tree);
    }

    match previous {
        Some(p) => FirstGuess::free(Some(stretch(&p.beta, n))),
        None if options.method == Method::Auto && starts_by_analytic_centres(n) => {
            let start = analytic_centre_start(&core.game, options.method, options.tolerance, report);
            let carried = near_optimal_at(&core.game, &start.trees, &start.best).into_iter().cloned();
            core.add_all(carried.collect::<Vec<_>>());
            FirstGuess { gamma: Some(start.best), pricing_calls: start.pricing_calls, pivots: start.pivots }
        }
        None if options.method == Method::Auto => {
            let (guess, cold_trees) = cold_start(&core.game, options.tolerance);
            core.add_all(cold_trees);
            FirstGuess::free(Some(guess))
        }
        None => FirstGuess::default(),
    }
}

/// The trees of N-1's pool carried to N: those within `CARRY_GAP` of the
/// best against N-1's final strategy. Carrying the whole pool let it grow by
/// every round's trees, and near-optimal ones are what the next N re-uses.
fn near_optimal(previous: &FloatSolution) -> Vec<&Tree> {
    near_optimal_at(&SymmetricGame::new(previous.n), &previous.pool, &previous.beta)
}

/// The trees within `CARRY_GAP` of the best of them against `point`.
fn near_optimal_at<'t>(game: &SymmetricGame, trees: &'t [Tree], point: &[f64]) -> Vec<&'t Tree> {
    let costs: Vec<f64> = trees.iter().map(|tree| column_cost(game, tree, point)).collect();
    let best = costs.iter().copied().fold(f64::INFINITY, f64::min);
    trees.iter().zip(&costs).filter(|(_, cost)| **cost <= best * (1.0 + CARRY_GAP)).map(|(tree, _)| tree).collect()
}

/// A cold start for `auto` without N-1's solution: Alice restricted to
/// strategies that are free on the outermost `COLD_OUTER_ROWS` rows and
/// uniform inside, which away from powers of two contains her optimal
/// strategies. That coarse game has only COLD_OUTER_ROWS + 1 rows, so column
/// generation solves it quickly; returns its optimal strategy for Alice
/// (expanded, the guess) and the trees it generated. (Finer block partitions,
/// refined level by level, cost more than they saved: docs/history.md.)
fn cold_start(game: &SymmetricGame, tolerance: f64) -> (Vec<f64>, Vec<Tree>) {
    let m = game.rows();
    let outer = COLD_OUTER_ROWS.min(m);
    let coarse = CoarseGame::new(game, outer, (m - outer).max(1));
    let mut trees = vec![monotone_root_dp(&vec![1.0; game.n]).tree.canonical()];
    let mut master = RestrictedMaster::new(coarse.rows(), &trees.iter().map(|t| coarse.column(t)).collect::<Vec<_>>());
    loop {
        let optimum = master.solve();
        let guess = coarse.expand(&optimum.duals);
        let best = monotone_root_dp_f64(&without_zeros(game.key_weights(&guess))).tree.canonical();
        let column = coarse.column(&best);
        let gain = 1.0 - column.iter().zip(&optimum.duals).map(|(s, w)| s * w).sum::<f64>();
        if gain <= tolerance || trees.contains(&best) {
            return (guess, trees);
        }
        master.add_column(&column);
        trees.push(best);
    }
}

/// The symmetric game with Alice restricted to the outer rows alone and
/// uniform blocks of `block` interior rows (the middle row, for odd N, in the
/// last block). A block's payoff is the doubled mean depth over its keys.
struct CoarseGame<'g> {
    game: &'g SymmetricGame,
    /// Coarse row of each symmetric row.
    block_of: Vec<usize>,
    /// Keys / 2 in each coarse row (a pair row counts 1, the middle row 1/2).
    units: Vec<f64>,
}

impl<'g> CoarseGame<'g> {
    fn new(game: &'g SymmetricGame, outer: usize, block: usize) -> Self {
        let m = game.rows();
        let block_of: Vec<usize> = (0..m).map(|j| if j < outer { j } else { outer + (j - outer) / block }).collect();
        let mut units = vec![0.0; block_of.last().map_or(0, |b| b + 1)];
        for j in 0..m {
            units[block_of[j]] += if game.n % 2 == 1 && j == m - 1 { 0.5 } else { 1.0 };
        }
        CoarseGame { game, block_of, units }
    }

    fn rows(&self) -> usize {
        self.units.len()
    }

    fn is_middle(&self, j: usize) -> bool {
        self.game.n % 2 == 1 && j == self.game.rows() - 1
    }

    /// The coarse column of a tree: per block, the depth sum over its keys / units.
    fn column(&self, tree: &Tree) -> Vec<f64> {
        let mut column = vec![0.0; self.rows()];
        for (j, s) in self.game.column(tree).into_iter().enumerate() {
            column[self.block_of[j]] += if self.is_middle(j) { f64::from(s) / 2.0 } else { f64::from(s) };
        }
        column.iter().zip(&self.units).map(|(c, u)| c / u).collect()
    }

    /// A symmetric strategy from coarse row weights: each block's weight spread
    /// evenly over its keys.
    fn expand(&self, weights: &[f64]) -> Vec<f64> {
        let beta: Vec<f64> = (0..self.game.rows())
            .map(|j| {
                let b = self.block_of[j];
                let share = weights[b].max(0.0) / self.units[b];
                if self.is_middle(j) { share / 2.0 } else { share }
            })
            .collect();
        let total: f64 = beta.iter().sum();
        beta.iter().map(|x| x / total).collect()
    }
}

/// A guess for N's symmetric strategy from N-1's: the middle entry is split or
/// duplicated so that the pairs line up, then renormalised.
pub fn stretch(beta: &[f64], n: usize) -> Vec<f64> {
    let m = n.div_ceil(2);
    let mut out = beta.to_vec();
    if out.len() < m {
        // N odd: N-1 even had no middle key; the new middle key copies half the innermost pair.
        let last = *out.last().unwrap_or(&1.0);
        out.push(last / 2.0);
    } else if let Some(last) = out.last_mut() {
        // N even: N-1's middle key becomes a pair.
        *last *= 2.0;
    }
    let total: f64 = out.iter().sum();
    out.iter().map(|x| x / total).collect()
}
