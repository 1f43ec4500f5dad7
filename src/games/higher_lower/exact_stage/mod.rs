//! The exact stage: turns the float solver's final basis into exact rational
//! strategies and value, and makes the basis exactly optimal first if it is
//! not ("repaired", counting the exact pivots).
//!
//! The basis matrix B is square and integer (tree columns S_T, slack unit
//! vectors), so x_B = B^-1 1 and the duals w = c_B' B^-1 come from Dixon's
//! p-adic solver. The basis is optimal when x_B >= 0, w >= 0 and no tree has
//! w . S_T < 1, the last checked by the exact O(N^2) DP on the integer
//! weights w * denominator. Otherwise the exact primal simplex continues:
//! a negative dual brings its slack in, else the DP's best tree enters, and
//! the exact ratio test picks the leaving variable.

mod basis;
pub mod certificate;
mod double_walk;
mod float_inverse;
mod walk;
mod walk_pricing;
pub mod widen;

use super::hull::OptimalFace;
use super::mixture::Mixture;
use super::solve::{BasicVar, FloatSolution, Method, price};
use super::symmetric::SymmetricGame;
use super::tree::Tree;
use crate::exact::{ExactSolution, Integer, PadicSolver, Rational};
use basis::{bob_mixture, factor, value_f64};
use certificate::{Certificate, best_response, with_best_response};
use std::time::Instant;

/// Pivots in exact arithmetic allowed before giving up: far more than any
/// repair needs once the double-double walk has taken the long ones.
const MAX_EXACT_PIVOTS: u32 = 10_000;
/// Pivots of the double-double walk allowed (about 40 ms each at m = 994).
const MAX_DOUBLE_PIVOTS: u32 = 500_000;

/// Why the float stage's final basis was not exactly optimal: the first
/// fault the exact stage found and repaired with exact pivots (the
/// `repair_reason` column of `values` holds its text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BasisRepair {
    /// Basic variable k (1-based) is negative in exact arithmetic: a dual pivot.
    NegativeBasicVariable(usize),
    /// The dual of row j (1-based) is negative: its slack enters.
    NegativeDual(usize),
    /// A tree of this height improves the master: it enters.
    ImprovingTree { height: u8 },
}

impl std::fmt::Display for BasisRepair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BasisRepair::NegativeBasicVariable(k) => write!(f, "basic variable {k} is negative in exact arithmetic"),
            BasisRepair::NegativeDual(j) => write!(f, "dual of row {j} is negative"),
            BasisRepair::ImprovingTree { height } => write!(f, "a tree of height {height} improves the master"),
        }
    }
}

/// The exact solution of one N.
#[derive(Debug)]
pub struct ExactOutcome {
    pub value: Rational,
    /// Alice's optimal strategy over the keys 1..=N.
    pub alpha: Vec<Rational>,
    /// Bob's optimal mixture over trees (mirror pairs listed separately).
    pub bob: Mixture,
    /// Exact simplex pivots needed after the float basis (0: the float basis was optimal).
    pub exact_pivots: u32,
    /// Why the float basis was not optimal, if it was not.
    pub repair_reason: Option<BasisRepair>,
    pub certificate: Certificate,
    /// The optimal mixture of Bob's that the face stage builds Alice's
    /// optimal face from, where it is wider than `bob` (`widen`); `None`: `bob`.
    pub face_mixture: Option<Mixture>,
    /// The hull of `face_mixture` (else `bob`) as the widening built it, for
    /// the face stage to take instead of building it again; `None`: not built.
    pub face_hull: Option<OptimalFace>,
    pub seconds: f64,
}

/// Solves the float solution's final basis exactly, repairs it if needed, and certifies the result.
pub fn exact_stage(float: &FloatSolution) -> Result<ExactOutcome, String> {
    exact_stage_reporting(float, &|_| {})
}

/// [`exact_stage`], telling `report` of each exact pivot (how many so far,
/// the basis's value): near N = 2048 a repair can take hours of pivots
/// (docs/higher-lower.md#what-limits-it-and-the-road-to-2048), and a run
/// should show where it is.
pub fn exact_stage_reporting(float: &FloatSolution, report: &dyn Fn(&str)) -> Result<ExactOutcome, String> {
    let start = Instant::now();
    let game = SymmetricGame::new(float.n);
    let mut outcome = exact_optimum(&game, float.basis.clone(), float.centre.as_deref(), report)?;
    let (face_mixture, face_hull) = widen::widened_mixture(&game, float, &outcome.value, &outcome.alpha, &outcome.bob);
    (outcome.face_mixture, outcome.face_hull) = (face_mixture, Some(face_hull));
    outcome.seconds = start.elapsed().as_secs_f64();
    Ok(outcome)
}

/// The exact stage before `widen` (no `face_mixture`): the face stage then
/// builds the hull from Bob's vertex mixture (for benchmarks).
pub fn exact_vertex(float: &FloatSolution) -> Result<ExactOutcome, String> {
    let start = Instant::now();
    let mut outcome =
        exact_optimum(&SymmetricGame::new(float.n), float.basis.clone(), float.centre.as_deref(), &|_| {})?;
    outcome.seconds = start.elapsed().as_secs_f64();
    Ok(outcome)
}

/// The basis solved exactly, made exactly optimal by exact pivots if it is
/// not, and certified (`face_mixture` and `seconds` left for the caller).
fn exact_optimum(
    game: &SymmetricGame,
    mut basis: Vec<BasicVar>,
    centre: Option<&[f64]>,
    report: &dyn Fn(&str),
) -> Result<ExactOutcome, String> {
    let mut count = PivotCount::default();
    let mut reason: Option<BasisRepair> = None;
    // Pivots the progress notes have told of.
    let mut reported = 0u32;
    // The basis factored already (by the walk that ended at it).
    let mut factored: Option<Factored> = None;
    loop {
        let solved = match factored.take() {
            Some(done) => SolvedBasis::from_factored(&basis, done),
            None => SolvedBasis::new(game, &basis)?,
        };
        if count.pivots > reported {
            reported = count.pivots;
            let worth = value_f64(&basis, &solved.x).map(|v| format!(", the basis worth {v:.16}")).unwrap_or_default();
            report(&format!("{} exact pivots{worth}", count.pivots));
        }
        // A basic variable the float stage saw as zero may be slightly negative
        // exactly: a dual simplex pivot (a slack enters in its place) restores
        // feasibility; the primal pivots below then restore optimality.
        if let Some(position) = solved.x.numerators.iter().position(|x| *x < 0) {
            let Some(slack) = solved.dual_ratio_test(game, position) else {
                return Err(format!("the float basis is primal infeasible in exact arithmetic (row {position})"));
            };
            reason.get_or_insert(BasisRepair::NegativeBasicVariable(position + 1));
            count.exceeded()?;
            basis[position] = BasicVar::Slack(slack);
            count.add(1, false);
            continue;
        }
        let entering = match solved.improving_slack() {
            Some(j) => BasicVar::Slack(j),
            None if let Some(tree) = solved.float_priced_tree(game) => {
                // Walk on with cheaper pivots while the float DP finds improving trees.
                reason.get_or_insert(BasisRepair::ImprovingTree { height: tree.height() });
                if let Some(walked) = walks(game, &basis, centre, &solved.x, &count, report)? {
                    (basis, factored) = (walked.basis, walked.factored);
                    count.add(walked.pivots, walked.in_double);
                    // The walks reported their own pivots.
                    reported = count.pivots;
                    continue;
                }
                BasicVar::Tree(tree)
            }
            None => {
                // With no negative dual, alpha is the duals normalised, and a
                // tree improves the master exactly when Alice's best response
                // costs less than the basis's value: one DP both prices and
                // certifies Alice's half.
                let (value, alpha, bob) = solved.strategies(game);
                let (alice_bound, best) = best_response(&alpha)?;
                if alice_bound < value {
                    BasicVar::Tree(best)
                } else if alice_bound > value {
                    return Err(format!(
                        "the best tree against alpha costs {alice_bound}, more than the basis's {value}"
                    ));
                } else {
                    let certificate = with_best_response(&value, &alpha, best, &bob)?;
                    return Ok(ExactOutcome {
                        value,
                        alpha,
                        bob,
                        exact_pivots: count.pivots,
                        repair_reason: reason,
                        certificate,
                        face_mixture: None,
                        face_hull: None,
                        seconds: 0.0,
                    });
                }
            }
        };
        reason.get_or_insert(match &entering {
            BasicVar::Slack(j) => BasisRepair::NegativeDual(j + 1),
            BasicVar::Tree(t) => BasisRepair::ImprovingTree { height: t.height() },
        });
        count.exceeded()?;
        let leaving = solved.ratio_test(game, &entering);
        basis[leaving] = entering;
        count.add(1, false);
    }
}

/// The pivots of a repair so far, and of them the double-double walk's.
#[derive(Default)]
struct PivotCount {
    pivots: u32,
    double: u32,
}

impl PivotCount {
    fn add(&mut self, pivots: u32, in_double: bool) {
        self.pivots += pivots;
        self.double += if in_double { pivots } else { 0 };
    }

    /// Pivots in exact arithmetic left before `MAX_EXACT_PIVOTS`.
    fn exact_left(&self) -> u32 {
        MAX_EXACT_PIVOTS.saturating_sub(self.pivots - self.double)
    }

    /// An error once the exact pivots reach `MAX_EXACT_PIVOTS`.
    fn exceeded(&self) -> Result<(), String> {
        match self.exact_left() {
            0 => Err(format!("no exact optimum after {} exact pivots", self.pivots)),
            _ => Ok(()),
        }
    }
}

/// The repair's walks from `basis` (exact values `x`): in double-double
/// first, kept if the basis it ends at is exactly feasible, else in exact
/// arithmetic; `None` if neither walk made a pivot.
fn walks(
    game: &SymmetricGame,
    basis: &[BasicVar],
    centre: Option<&[f64]>,
    x: &ExactSolution,
    count: &PivotCount,
    report: &dyn Fn(&str),
) -> Result<Option<Walked>, String> {
    let note = |k: u32, v: f64| report(&format!("{} exact pivots, the basis worth {v:.16}", count.pivots + k));
    let mut fast = basis.to_vec();
    let fast_pivots = double_walk::walk(game, &mut fast, centre, MAX_DOUBLE_PIVOTS.saturating_sub(count.double), &note);
    if fast_pivots > 0 {
        let walked = Factored::new(game, &fast)?;
        if walked.x.numerators.iter().all(|x| *x >= 0) {
            return Ok(Some(Walked { basis: fast, pivots: fast_pivots, in_double: true, factored: Some(walked) }));
        }
    }
    let mut exact = basis.to_vec();
    let walked = walk::walk(game, &mut exact, centre, x.clone(), count.exact_left(), &note)?;
    Ok((walked > 0).then_some(Walked { basis: exact, pivots: walked, in_double: false, factored: None }))
}

/// Where a repair's walk ended.
struct Walked {
    basis: Vec<BasicVar>,
    pivots: u32,
    /// Whether the pivots were the double-double walk's.
    in_double: bool,
    /// The basis factored, where the check of its feasibility factored it.
    factored: Option<Factored>,
}

/// A basis factored, with its primal values x_B = B^-1 1.
struct Factored {
    solver: PadicSolver,
    x: ExactSolution,
}

impl Factored {
    fn new(game: &SymmetricGame, basis: &[BasicVar]) -> Result<Self, String> {
        let solver = factor(game, basis)?;
        let x = solver.solve(&vec![1; game.rows()]);
        Ok(Factored { solver, x })
    }
}

/// A basis solved exactly: its factorisation, primal values and duals.
struct SolvedBasis<'b> {
    basis: &'b [BasicVar],
    solver: PadicSolver,
    /// x_B = B^-1 1.
    x: ExactSolution,
    /// w' = c_B' B^-1.
    w: ExactSolution,
}

impl<'b> SolvedBasis<'b> {
    fn new(game: &SymmetricGame, basis: &'b [BasicVar]) -> Result<Self, String> {
        Ok(SolvedBasis::from_factored(basis, Factored::new(game, basis)?))
    }

    /// The duals of a basis factored already.
    fn from_factored(basis: &'b [BasicVar], Factored { solver, x }: Factored) -> Self {
        let costs: Vec<i64> = basis.iter().map(|v| i64::from(matches!(v, BasicVar::Tree(_)))).collect();
        let w = solver.solve_transposed(&costs);
        SolvedBasis { basis, solver, x, w }
    }

    /// The row with the most negative dual, whose slack would improve the master.
    fn improving_slack(&self) -> Option<usize> {
        self.w.numerators.iter().enumerate().filter(|(_, w)| **w < 0).min_by(|a, b| a.1.cmp(b.1)).map(|(j, _)| j)
    }

    /// Bob's best tree against the exact duals rounded to floating point,
    /// if it improves the basis exactly (w . S_T < 1). The exact DP on
    /// weights of thousands of digits, with Alice's reduced rationals before
    /// it, was a third of an exact pivot at m = 994; the float DP finds an
    /// improving tree whenever one improves by more than its rounding, and
    /// the exact DP then only has to certify the last basis.
    fn float_priced_tree(&self, game: &SymmetricGame) -> Option<Tree> {
        let duals = self.w.to_f64s();
        let total: f64 = duals.iter().sum();
        if total.is_nan() || total <= 0.0 {
            return None;
        }
        let point: Vec<f64> = duals.iter().map(|w| w / total).collect();
        let tree = price(game, Method::Auto, &point);
        let cost: Integer =
            game.column(&tree).into_iter().zip(&self.w.numerators).map(|(s, w)| w * Integer::from(s)).sum();
        (cost < self.w.denominator).then_some(tree)
    }

    /// The basis position that leaves when `entering` comes in: the smallest
    /// x_i / d_i over d_i > 0 with d = B^-1 a (ties: the first position).
    fn ratio_test(&self, game: &SymmetricGame, entering: &BasicVar) -> usize {
        let m = game.rows();
        let column: Vec<i64> = match entering {
            BasicVar::Slack(j) => (0..m).map(|i| i64::from(i == *j)).collect(),
            BasicVar::Tree(t) => game.column(t).into_iter().map(i64::from).collect(),
        };
        let d = self.solver.solve(&column);
        // x_i / d_i = X_i / D_i with the common denominators cancelling.
        (0..m)
            .filter(|&i| d.numerators[i] > 0)
            .min_by(|&i, &j| {
                // X_i/d_i < X_j/d_j  <=>  X_i d_j < X_j d_i  (numerators over the same denominators).
                (&self.x.numerators[i] * &d.numerators[j])
                    .cmp(&(&self.x.numerators[j] * &d.numerators[i]))
                    .then(i.cmp(&j))
            })
            .expect("the master is bounded: some d_i > 0")
    }

    /// The dual simplex ratio test over the slacks for the basis position
    /// `position` (negative x): with rho = row `position` of B^-1 (rho_j is
    /// slack j's entry in that row), the nonbasic slack with rho_j < 0 that
    /// minimises w_j / -rho_j, which keeps the duals non-negative.
    fn dual_ratio_test(&self, game: &SymmetricGame, position: usize) -> Option<usize> {
        let m = game.rows();
        let unit: Vec<i64> = (0..m).map(|i| i64::from(i == position)).collect();
        let rho = self.solver.solve_transposed(&unit);
        let basic: Vec<bool> =
            (0..m).map(|j| self.basis.iter().any(|v| matches!(v, BasicVar::Slack(k) if *k == j))).collect();
        (0..m).filter(|&j| !basic[j] && rho.numerators[j] < 0 && self.w.numerators[j] >= 0).min_by(|&i, &j| {
            // w_i / -rho_i < w_j / -rho_j  <=>  w_i (-rho_j) < w_j (-rho_i).
            (&self.w.numerators[i] * -&rho.numerators[j])
                .cmp(&(&self.w.numerators[j] * -&rho.numerators[i]))
                .then(i.cmp(&j))
        })
    }

    /// V, Alice's full strategy, and Bob's full mixture (each symmetric tree
    /// weight split evenly between the tree and its mirror).
    fn strategies(&self, game: &SymmetricGame) -> (Rational, Vec<Rational>, Mixture) {
        let (value, bob) = bob_mixture(self.basis, &self.x);
        let total_w: Integer = self.w.numerators.iter().sum();
        let beta: Vec<Rational> =
            self.w.numerators.iter().map(|w| Rational::from_integers(w.clone(), total_w.clone())).collect();
        (value, game.alice(&beta), bob)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::to_f64;
    use crate::games::higher_lower::solve::{FloatSolution, Method, SolveOptions, solve};
    use crate::games::higher_lower::tree::Tree;
    use certificate::certify;

    #[test]
    fn johnsons_values_exactly() {
        let johnson =
            [(1, 1), (3, 2), (9, 5), (2, 1), (20, 9), (12, 5), (23, 9), (27, 10), (31, 11), (35, 12), (187, 62)];
        let options = SolveOptions::new(Method::Auto, 1e-10, 100_000);
        for (i, (p, q)) in johnson.into_iter().enumerate() {
            let float = solve(i + 1, &options, None);
            let exact = exact_stage(&float).unwrap();
            assert_eq!(exact.value, Rational::from_signeds(p, q), "N = {}", i + 1);
            assert_eq!(exact.certificate.value, exact.value);
        }
    }

    #[test]
    fn repairs_a_basis_stopped_early() {
        // A loose tolerance stops the float solver before optimality; the exact stage must pivot on.
        let loose = SolveOptions::new(Method::Dresher, 0.05, 100_000);
        let tight = SolveOptions::new(Method::Auto, 1e-10, 100_000);
        let n = 40;
        let reports = std::cell::RefCell::new(Vec::new());
        let early = exact_stage_reporting(&solve(n, &loose, None), &|note| reports.borrow_mut().push(note.to_string()))
            .unwrap();
        let proper = exact_stage(&solve(n, &tight, None)).unwrap();
        assert!(early.exact_pivots > 0, "the loose basis should need repair");
        // One report per exact pivot, the last naming their count.
        let reports = reports.into_inner();
        assert_eq!(reports.len(), early.exact_pivots as usize);
        assert!(reports.last().unwrap().starts_with(&format!("{} exact pivots", early.exact_pivots)), "{reports:?}");
        assert!(early.repair_reason.is_some());
        assert_eq!(early.value, proper.value);
    }

    #[test]
    fn the_double_double_walk_reaches_an_exactly_feasible_optimal_basis() {
        // A loose tolerance stops the float solve early; the walk alone must
        // reach V, feasibly, priced at the duals and smoothed toward a centre
        // (a loosely solved `auto`'s), the smoothed walk in fewer pivots.
        let n = 120;
        let loose = solve(n, &SolveOptions::new(Method::Dresher, 0.05, 100_000), None);
        let centre = solve(n, &SolveOptions::new(Method::Auto, 1e-3, 100_000), None).centre.expect("a centre");
        let optimum = exact_stage(&solve(n, &SolveOptions::new(Method::Auto, 1e-10, 100_000), None)).unwrap();
        let game = SymmetricGame::new(n);
        let walked = |centre: Option<&[f64]>| {
            let mut basis = loose.basis.clone();
            let pivots = double_walk::walk(&game, &mut basis, centre, 10_000, &|_, _| {});
            let x = factor(&game, &basis).unwrap().solve(&vec![1; game.rows()]);
            assert!(x.numerators.iter().all(|v| *v >= 0), "infeasible in exact arithmetic");
            let v = value_f64(&basis, &x).unwrap();
            let exact_v = to_f64(&optimum.value);
            assert!((v - exact_v).abs() < 1e-13 * exact_v, "the walk ended at {v}, V = {exact_v}");
            pivots
        };
        let (plain, smoothed) = (walked(None), walked(Some(&centre)));
        assert!(plain > 0, "the loose basis needs pivots");
        assert!(smoothed < plain, "smoothed {smoothed} pivots, at the duals {plain}");
    }

    #[test]
    fn repairs_bases_that_are_infeasible_in_exact_arithmetic() {
        // Every basis of three symmetric tree columns for N = 6 (m = 3): those
        // with a negative basic value go through the exact dual pivot, and
        // every basis that the exact stage accepts ends certified at V(6).
        let n = 6;
        let mut columns: Vec<Tree> = crate::games::higher_lower::tree::all_trees(n)
            .into_iter()
            .map(|t| {
                let mirror = t.mirror();
                if mirror < t { mirror } else { t }
            })
            .collect();
        columns.sort();
        columns.dedup();
        let float = |basis: Vec<BasicVar>| FloatSolution {
            n,
            method: Method::Auto,
            value: 0.0,
            lower: 0.0,
            basis,
            beta: Vec::new(),
            iterations: 0,
            rounds: 0,
            pricing_calls: 0,
            columns: 0,
            warm_started: false,
            pool: Vec::new(),
            trace: Vec::new(),
            seconds: 0.0,
            centre: None,
        };
        let (mut dual_repairs, mut certified) = (0, 0);
        for a in 0..columns.len() {
            for b in a + 1..columns.len() {
                for c in b + 1..columns.len() {
                    let basis = [a, b, c].map(|k| BasicVar::Tree(columns[k].clone())).to_vec();
                    let Ok(exact) = exact_stage(&float(basis)) else { continue };
                    assert_eq!(exact.value, Rational::from_signeds(12, 5));
                    certified += 1;
                    if matches!(exact.repair_reason, Some(BasisRepair::NegativeBasicVariable(_))) {
                        dual_repairs += 1;
                    }
                }
            }
        }
        assert!(certified > 100 && dual_repairs > 10, "{certified} certified, {dual_repairs} via the dual pivot");
    }

    #[test]
    fn after_a_cold_start_the_nearby_best_responses_widen_the_hull_to_a_point() {
        // Cold N = 577: the pool's tight trees alone left dimension 23 after four vertices.
        let float = solve(577, &SolveOptions::new(Method::Auto, 1e-10, 100_000), None);
        let exact = exact_stage(&float).unwrap();
        assert!(OptimalFace::new(&exact.value, &exact.bob).dimension() > 20);
        let wider = exact.face_mixture.expect("widened");
        certify(&exact.value, &exact.alpha, &wider).unwrap();
        assert_eq!(OptimalFace::new(&exact.value, &wider).dimension(), 0);
    }
}
