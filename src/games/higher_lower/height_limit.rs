//! Table 3.1: how tall Bob's optimal trees must be. The least tallest tree
//! over Bob's optimal mixtures is at least h exactly when the game in which
//! Bob may only use trees of height <= h - 1 has a value above V. Any alpha
//! of Alice's whose cheapest tree of height <= h - 1 costs more than V proves
//! it: a mixture of such trees lets alpha gain more than V, so it is not
//! optimal. Alice's optimal alpha* is one candidate; where a short tree ties
//! with V against it, a point of the height-limited game above V (the
//! solve's column generation priced by the depth-limited DP) is.

use super::mixture::Mixture;
use super::pricing::{depth_limited_dp, floored};
use super::solve::{FloatSolution, Method, SolveOptions, solve};
use super::symmetric::SymmetricGame;
use super::tree::Tree;
use crate::exact::{Integer, Rational, common_denominator};

/// Whether `alpha` proves that no mixture of trees of height <= `height` is
/// optimal: the cheapest such tree costs more than V against it, exactly.
/// True as well when no tree that short holds the N keys.
pub fn refutes(value: &Rational, alpha: &[Rational], height: u8) -> bool {
    let n = alpha.len();
    if height < 64 && (1u64 << height) - 1 < n as u64 {
        return true;
    }
    if alpha.iter().any(|a| *a <= 0u32) {
        // The depth-limited DP is exact only for positive weights.
        return false;
    }
    let (weights, scale) = common_denominator(alpha);
    let target = value * Rational::from(scale);
    matches!(depth_limited_dp(&weights, u32::from(height)), Some(best) if best.cost > target)
}

/// What N's solve already knows that shortens the search for Table 3.1's
/// bound.
#[derive(Debug, Clone, Copy, Default)]
pub struct HeightHints<'a> {
    /// The height-limited game's alpha of N - 1 where it had one, tried first
    /// with its middle key repeated: near N = 1024 it proves the bound at many
    /// N at once, where the game's column generation takes far longer
    /// (docs/history.md#f5c2962-the-face-stage-on-a-widened-mixture-of-bobs-table-31s-bound-tries-n---1s-alpha-first).
    pub previous: Option<&'a [Rational]>,
    /// The pool of N's float solve (the trees ever basic in its master): the
    /// short ones start the height-limited game's master beside Bob's optimal support.
    pub priced: &'a [Tree],
}

/// The proven lower bound on the tallest tree of every optimal mixture of
/// Bob's, tried from `ours` (the tallest tree of a known optimal mixture, so
/// the bound is exact when it returns `ours`) downwards; with it, the alpha
/// of the height-limited game that proves it when alpha* alone does not.
pub fn tallest_tree_at_least(
    value: &Rational,
    alpha: &[Rational],
    bob: &Mixture,
    ours: u8,
    hints: HeightHints,
) -> (u8, Option<Vec<Rational>>) {
    let hinted = hints.previous.and_then(|p| one_key_more(p, alpha.len()));
    // References: most N are proven by alpha* or the hint, and never copy a tree.
    let support: Vec<&Tree> = bob.iter().filter(|(_, y)| *y > 0u32).map(|(t, _)| t).chain(hints.priced).collect();
    let above = crate::exact::to_f64(value) * (1.0 + MARGIN);
    let centre = symmetrised(alpha);
    let mut h = ours;
    while h > 1 {
        if refutes(value, alpha, h - 1) {
            return (h, None);
        }
        if let Some(hinted) = hinted.as_ref().filter(|hinted| refutes(value, hinted, h - 1)) {
            return (h, Some(hinted.clone()));
        }
        let solve = |stop: f64| limited_game_alpha(alpha.len(), h - 1, &support, &centre, stop);
        let refuting = |limited: &Vec<Rational>| refutes(value, limited, h - 1);
        let limited = match solve(above) {
            Some((first, _)) if refuting(&first) => Some(first),
            // A point above V in floating point that the exact check refuses: solve to the optimum
            // (an optimum already found would only be found again).
            Some((_, false)) => solve(f64::INFINITY).map(|(optimal, _)| optimal).filter(refuting),
            _ => None,
        };
        if let Some(limited) = limited {
            return (h, Some(limited));
        }
        h -= 1;
    }
    (h, None)
}

/// N - 1's distribution stretched to `n` keys: its middle key repeated, then
/// scaled to sum 1 (`None` unless it has n - 1 keys).
fn one_key_more(previous: &[Rational], n: usize) -> Option<Vec<Rational>> {
    if previous.len() + 1 != n {
        return None;
    }
    let mut alpha = previous.to_vec();
    alpha.insert(n / 2, previous[(n - 1) / 2].clone());
    let total: Rational = alpha.iter().sum();
    Some(alpha.iter().map(|a| a / &total).collect())
}

/// Whether the stored bound `at_least` is proven by alpha* or by the stored
/// alpha of the height-limited game (`verify`).
pub fn proves(value: &Rational, alpha: &[Rational], limited: Option<&[Rational]>, at_least: u8) -> bool {
    at_least <= 1 || refutes(value, alpha, at_least - 1) || limited.is_some_and(|l| refutes(value, l, at_least - 1))
}

/// Rounds until the height-limited game's column generation gives up.
const MAX_ROUNDS: u32 = 20_000;
/// Relative gap between the bounds at which the height-limited game is solved.
const TOLERANCE: f64 = 1e-10;
/// Relative margin above V at which a round's alpha is worth an exact check
/// (the solve goes on until it is halfway from there to its upper bound).
const MARGIN: f64 = 1e-9;

/// An alpha (as exact positive rationals summing to 1) of the game in which
/// Bob's trees have height <= `height`: a point whose cheapest short tree
/// costs more than `stop`, at least halfway from it to the master's value
/// (it need not be optimal to prove a bound, and the margin lets the next N
/// reuse it), else an optimal one, with whether it is optimal; `None` where no
/// such tree holds `n` keys. The game is the solve's own column generation
/// (`solve` with `SolveOptions::height_limited`: the box around the centre,
/// loose masters, working sets), priced by the depth-limited DP and started
/// from N's solution: the short trees of `start` (Bob's optimal support and
/// the trees N's solve priced) and the centre alpha* (`centre`), whose
/// cheapest short tree costs V. Its own master with Kelley's cutting planes
/// around a fixed centre took hundreds of seconds a time near N = 2048
/// (docs/history.md#5c12813-table-31s-height-limited-game-on-the-solves-column-generation-warm-1988s-exact-tail).
fn limited_game_alpha(
    n: usize,
    height: u8,
    start: &[&Tree],
    centre: &[f64],
    stop: f64,
) -> Option<(Vec<Rational>, bool)> {
    if height >= 64 || (1u64 << height) - 1 < n as u64 {
        return None;
    }
    let game = SymmetricGame::new(n);
    let short: Vec<Tree> = start.iter().filter(|t| t.height() <= height).map(|t| (*t).clone()).collect();
    let own = FloatSolution::starting_point(n, Method::Auto, centre.to_vec(), short);
    let options = SolveOptions::new(Method::Auto, TOLERANCE, MAX_ROUNDS).height_limited(height, stop);
    let solved = solve(n, &options, Some(&own));
    let optimal = solved.lower <= stop && solved.rounds < MAX_ROUNDS;
    let point = solved.centre?;
    Some((exact_distribution(&positive(game.alice(&point))), optimal))
}

/// alpha as a distribution over the symmetric pairs (each pair's total).
fn symmetrised(alpha: &[Rational]) -> Vec<f64> {
    let game = SymmetricGame::new(alpha.len());
    let mut beta = vec![0.0; game.rows()];
    for (k, a) in alpha.iter().enumerate() {
        beta[game.row_of(k + 1)] += crate::exact::to_f64(a);
    }
    beta
}

/// Weights raised to at least 1e-9 of their mean: the depth-limited DP's
/// cheapest embedding is a tree only for positive weights, and a proof needs
/// every key played (1e-9, not the solver's 1e-12, so that every key keeps a
/// probability the exact check sees).
fn positive(weights: Vec<f64>) -> Vec<f64> {
    floored(weights, 1e-9)
}

/// The distribution proportional to the positive `weights`, exactly: each
/// rounded to an integer multiple of 2^-52 of the largest.
fn exact_distribution(weights: &[f64]) -> Vec<Rational> {
    let largest = weights.iter().cloned().fold(0.0, f64::max);
    let integers: Vec<Integer> =
        weights.iter().map(|w| Integer::from((w / largest * 2f64.powi(52)).round().max(1.0) as u64)).collect();
    let total: Integer = integers.iter().sum();
    integers.into_iter().map(|w| Rational::from_integers(w, total.clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::higher_lower::pricing::cost;
    use crate::games::higher_lower::tree::all_trees;

    fn q(p: i64, d: i64) -> Rational {
        Rational::from_signeds(p, d)
    }

    /// The height-limited game's value another way: one LP with every short
    /// tree as a row (max t with alpha . d_T >= t, microlp).
    fn brute_force_value(n: usize, height: u8) -> f64 {
        use microlp::{ComparisonOp, OptimizationDirection, Problem};
        let mut problem = Problem::new(OptimizationDirection::Maximize);
        let alpha: Vec<_> = (0..n).map(|_| problem.add_var(0.0, (0.0, f64::INFINITY))).collect();
        let t = problem.add_var(1.0, (f64::NEG_INFINITY, f64::INFINITY));
        problem.add_constraint(alpha.iter().map(|&a| (a, 1.0)).collect::<Vec<_>>(), ComparisonOp::Eq, 1.0);
        for tree in all_trees(n).into_iter().filter(|t| t.height() <= height) {
            let mut row: Vec<_> = alpha.iter().zip(tree.depths()).map(|(&a, &d)| (a, f64::from(d))).collect();
            row.push((t, -1.0));
            problem.add_constraint(row, ComparisonOp::Ge, 0.0);
        }
        problem.solve().expect("solved").into_solution().expect("feasible and bounded").objective()
    }

    #[test]
    fn limited_alpha_attains_the_limited_games_value() {
        for (n, height) in [(3, 2), (5, 3), (6, 3), (7, 3), (9, 4), (11, 4), (12, 4)] {
            let uniform = symmetrised(&vec![Rational::from_signeds(1, n as i64); n]);
            let (alpha, optimal) = limited_game_alpha(n, height, &[], &uniform, f64::INFINITY).expect("solved");
            assert!(optimal, "N = {n}: without a stop the column generation runs to the optimum");
            assert_eq!(alpha.iter().sum::<Rational>(), 1u32);
            // The exact DP's least short tree is the least over every short tree ...
            let (weights, scale) = common_denominator(&alpha);
            let least = all_trees(n).iter().filter(|t| t.height() <= height).map(|t| cost(t, &weights)).min();
            let dp = depth_limited_dp(&weights, u32::from(height)).expect("a tree");
            assert_eq!(Some(dp.cost.clone()), least, "N = {n}");
            // ... and it is the game's value (alpha optimal up to its rounding).
            let attained = crate::exact::to_f64(&Rational::from_integers(dp.cost, Integer::from(scale)));
            let value = brute_force_value(n, height);
            assert!((attained - value).abs() < 1e-7, "N = {n}, height {height}: {attained} against {value}");
        }
    }

    #[test]
    fn refutes_only_above_the_value() {
        // N = 3: V = 9/5 with alpha* = (2/5, 1/5, 2/5), against which the only
        // tree of height 2 (depths 2, 1, 2) costs exactly V: alpha* proves
        // nothing, the height-limited game's alpha proves height 3.
        let value = q(9, 5);
        let optimal = vec![q(2, 5), q(1, 5), q(2, 5)];
        assert!(!refutes(&value, &optimal, 2));
        assert!(refutes(&value, &[q(9, 20), q(1, 10), q(9, 20)], 2));
        assert!(refutes(&value, &optimal, 1), "one level cannot hold 3 keys");
        let (at_least, limited) =
            tallest_tree_at_least(&value, &optimal, &Mixture::default(), 3, HeightHints::default());
        assert_eq!(at_least, 3);
        let limited = limited.expect("alpha* alone does not prove it");
        assert!(proves(&value, &optimal, Some(&limited), 3));
        assert!(!proves(&value, &optimal, None, 3));
    }
}
