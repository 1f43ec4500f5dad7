//! Alice's optimal face, and linear programs over the whole of it, exact at
//! the end.
//!
//! Every optimal alpha lies in the affine hull {alpha = alpha* + Z t} of the
//! complementary-slackness equations (`OptimalFace::directions`: Z exact, one
//! column per dimension, alpha* the computed optimal alpha), and is optimal
//! exactly when alpha >= 0 and alpha . d_T >= V for every tree T. So the face
//! is a polytope in the d coordinates t (d = 0 where the hull is a point, so
//! alpha is unique), and minimising a linear functional over it is an LP in
//! d variables whose rows are keys and trees, the trees entering as cuts from
//! the pricing DP (Kelley's cutting planes on Alice's side).
//!
//! The LP is solved in floating point by the dual simplex in t (the primal
//! simplex on its dual, whose basis is d x d), starting from the basis of
//! the bounds 0 <= alpha_c <= 1 of the free keys. Its final basis is then
//! solved exactly: multipliers lambda >= 0 on the basis rows whose
//! combination matches the objective on the hull are a proof of the lower
//! bound (`LowerBound`, checked by `AliceFace::check_bound` from the rows
//! alone), and the basis point is an exact optimal alpha when the exact DP
//! finds no tree below V (else that tree is added and the LP goes on).

use crate::exact::{Integer, Natural, Rational, ScaledVector, to_f64};
use crate::games::higher_lower::hull::OptimalFace;
use crate::games::higher_lower::mixture::Mixture;
use crate::games::higher_lower::pricing::{monotone_root_dp, monotone_root_dp_f64};
use crate::games::higher_lower::solve::kernels;
use crate::games::higher_lower::tree::Tree;
use malachite::base::num::arithmetic::traits::Lcm;
use malachite::base::num::arithmetic::traits::Pow;
use malachite::base::num::basic::traits::{One, Zero};
use std::cell::RefCell;
use std::collections::HashMap;

/// An inequality every optimal alpha satisfies, as a row of the face LP.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Cut {
    /// alpha_k >= 0 (key k, 0-based).
    Nonnegative(usize),
    /// alpha_k <= 1: a row of the LP's first basis only; `LowerBound`s
    /// carry it as alpha_j >= 0 for every other key (the sum is 1).
    AtMostOne(usize),
    /// alpha . d_T >= V: optimality against tree T.
    Tree(Tree),
}

/// A proof that h . alpha >= `bound` for every optimal alpha: multipliers
/// lambda >= 0 on cuts (only `Nonnegative` and `Tree`) such that
/// h - sum lambda_j a_j is constant on the face's affine hull.
#[derive(Debug, Clone, PartialEq)]
pub struct LowerBound {
    pub bound: Rational,
    pub multipliers: Vec<(Cut, Rational)>,
}

/// A face LP's exact outcome: the proven bound and, when asked for, the
/// basis point as an alpha over all keys, proven optimal for the game (the
/// exact DP finds no tree below V), at which h equals the bound.
#[derive(Debug, Clone)]
pub struct Minimum {
    pub lower: LowerBound,
    pub point: Vec<Rational>,
}

/// Alice's optimal face: the computed optimal alpha* and exact directions of its affine hull.
pub struct AliceFace {
    value: Rational,
    alpha: Vec<Rational>,
    /// alpha* over its common denominator (exact dot products without a gcd per term).
    alpha_scaled: ScaledVector,
    /// The hull's equations, M[I, J] factored where the directions needed it
    /// (`pinning` solves with it again).
    hull: OptimalFace,
    directions: Vec<ScaledVector>,
    /// Per direction, its key with coefficient 1 where the others are 0.
    free_keys: Vec<usize>,
    alpha_f64: Vec<f64>,
    /// directions_f64[c][k].
    directions_f64: Vec<Vec<f64>>,
    /// Keys some direction moves (the others stay at alpha*_k on the face's hull).
    moving_keys: Vec<usize>,
    /// Each cut's exact coefficients on the directions and right-hand side, once computed.
    exact_cuts: RefCell<HashMap<Cut, (Vec<Rational>, Rational)>>,
    /// The trees found as cuts so far (their float rows over t): every later LP starts with them.
    tree_cuts: RefCell<Vec<Row>>,
    /// `box_bounds`, once computed or taken from a stored run (`set_box`).
    box_cache: RefCell<Option<Vec<[LowerBound; 2]>>>,
}

/// A row of the LP a . x >= b in the coordinates x = (t, s), where s (if
/// present) is the smallest slack of a claim's inequalities.
#[derive(Debug, Clone)]
struct Row {
    origin: Origin,
    a: Vec<f64>,
    b: f64,
}

#[derive(Debug, Clone, PartialEq)]
enum Origin {
    Cut(Cut),
    /// g_i . alpha - s >= 0 for the functional with this index (g_i . alpha
    /// >= 0 where it does not carry s: `ExactRows::soft`).
    AtLeastS(usize),
    /// -s >= -u: the first basis's bound on s.
    SAtMost,
}

/// Slack below which a float row counts as violated, relative to 1 + |b|.
const VIOLATION: f64 = 1e-11;
/// A multiplier below minus this leaves the basis by a primal step (the
/// objective is of order 1; multipliers of 1e-9 were seen and must count).
const DUAL_INFEASIBLE: f64 = 1e-13;
/// A tree cheaper than V by more than this (relative) enters as a cut.
const CUT_GAP: f64 = 1e-12;
/// Simplex pivots per LP before giving up.
const MAX_PIVOTS: usize = 20_000;
/// Exact rounds (float LP, exact check, new tree) before giving up.
const MAX_EXACT_ROUNDS: usize = 30;

impl AliceFace {
    /// The face of the optimal alpha `alpha` (value V, Bob's optimal mixture `bob`).
    pub fn new(value: &Rational, alpha: &[Rational], bob: &Mixture) -> Result<Self, String> {
        AliceFace::from_hull(value, alpha, OptimalFace::new(value, bob))
    }

    /// The face of the optimal alpha `alpha` (value V) in the hull of an optimal mixture of Bob's.
    pub fn from_hull(value: &Rational, alpha: &[Rational], hull: OptimalFace) -> Result<Self, String> {
        let directions = hull.directions()?;
        let n = alpha.len();
        let moves = |z: &ScaledVector, k: usize| z.numerators[k] != 0u32;
        let free_keys = directions
            .iter()
            .map(|z| {
                (0..n).find(|&k| {
                    z.numerators[k] == z.denominator && directions.iter().filter(|w| moves(w, k)).count() == 1
                })
            })
            .collect::<Option<Vec<usize>>>()
            .ok_or("a direction of the face has no key of its own")?;
        let directions_f64: Vec<Vec<f64>> = directions.iter().map(ScaledVector::to_f64s).collect();
        let moving_keys = (0..n).filter(|&k| directions.iter().any(|z| moves(z, k))).collect();
        Ok(AliceFace {
            value: value.clone(),
            alpha: alpha.to_vec(),
            alpha_scaled: ScaledVector::from_rationals(alpha),
            alpha_f64: alpha.iter().map(to_f64).collect(),
            hull,
            directions,
            free_keys,
            directions_f64,
            moving_keys,
            exact_cuts: RefCell::new(HashMap::new()),
            tree_cuts: RefCell::new(Vec::new()),
            box_cache: RefCell::new(None),
        })
    }

    /// Dimension d of the face's affine hull (0: alpha is the only optimal strategy).
    pub fn dimension(&self) -> usize {
        self.directions.len()
    }

    /// The hull's equations, from the mixture of Bob's the face was built from.
    pub fn hull(&self) -> &OptimalFace {
        &self.hull
    }

    /// The computed optimal alpha*.
    pub fn alpha(&self) -> &[Rational] {
        &self.alpha
    }

    /// A proven lower bound on h . alpha over the face (h over all keys),
    /// usually its minimum: a tree the float LP missed can only make the
    /// bound lower, and no exact point is sought.
    pub fn bound_below(&self, h: &[Rational]) -> Result<LowerBound, String> {
        Ok(self.minimum(h, Want::Bound)?.0)
    }

    /// The minimum of h . alpha over the face, exactly, with an exact
    /// optimal alpha that attains it.
    pub fn minimize(&self, h: &[Rational]) -> Result<Minimum, String> {
        let (lower, point) = self.minimum(h, Want::Point)?;
        Ok(Minimum { lower, point: point.ok_or("the face LP gave no point")? })
    }

    fn minimum(&self, h: &[Rational], want: Want) -> Result<(LowerBound, Option<Vec<Rational>>), String> {
        let d = self.dimension();
        let hs = ScaledVector::from_rationals(h);
        let objective = self.on_hull(&hs);
        if objective.iter().all(|c| *c == 0u32) {
            // h is constant on the hull: its value at alpha* is its value everywhere.
            let lower = LowerBound { bound: self.alpha_scaled.dot(&hs), multipliers: Vec::new() };
            return Ok((lower, (want == Want::Point).then(|| self.alpha.clone())));
        }
        let c: Vec<f64> = objective.iter().map(to_f64).collect();
        let basis_origins: Vec<Origin> = (0..d)
            .map(|i| {
                let key = self.free_keys[i];
                Origin::Cut(if objective[i] >= 0u32 { Cut::Nonnegative(key) } else { Cut::AtMostOne(key) })
            })
            .collect();
        let solved = self.solve(&[], &c, &objective, basis_origins, want)?;
        let lower = self.lower_bound(h, &solved.multipliers)?;
        Ok((lower, solved.point))
    }

    /// Proven bounds on every direction's coordinate: per direction c, lower
    /// bounds on alpha_k and on -alpha_k for its own key k (t_c moves alpha_k
    /// alone among those keys). 2d face LPs, after which `box_bound`
    /// bounds any functional without an LP of its own.
    pub fn box_bounds(&self) -> Result<Vec<[LowerBound; 2]>, String> {
        if let Some(bounds) = self.box_cache.borrow().as_ref() {
            return Ok(bounds.clone());
        }
        let n = self.alpha.len();
        let bounds: Vec<[LowerBound; 2]> = self
            .free_keys
            .iter()
            .map(|&k| {
                let unit: Vec<Rational> = (0..n).map(|j| Rational::from(u32::from(j == k))).collect();
                let minus: Vec<Rational> = unit.iter().map(|x| -x.clone()).collect();
                Ok([self.bound_below(&unit)?, self.bound_below(&minus)?])
            })
            .collect::<Result<_, String>>()?;
        *self.box_cache.borrow_mut() = Some(bounds.clone());
        Ok(bounds)
    }

    /// A lower bound on h over the face from the box (`box_bounds`, in the
    /// order of `free_keys`): h . alpha = h . alpha* + sum_c G_c t_c with G =
    /// Z'h and t_c = alpha_k - alpha*_k for direction c's own key k, each term
    /// bounded below by t_c's lower bound (G_c > 0) or upper bound (G_c < 0).
    /// Proven as far as the box's bounds are.
    pub fn box_bound(&self, h: &[Rational], bounds: &[[LowerBound; 2]]) -> Rational {
        let hs = ScaledVector::from_rationals(h);
        let mut bound = self.alpha_scaled.dot(&hs);
        for ((z, &k), [lower, upper]) in self.directions.iter().zip(&self.free_keys).zip(bounds) {
            let g = z.dot(&hs);
            if g > 0u32 {
                bound += &g * (&lower.bound - &self.alpha[k]);
            } else if g < 0u32 {
                bound -= &g * (&upper.bound + &self.alpha[k]);
            }
        }
        bound
    }

    /// The trees found as cuts so far, in the order found.
    pub fn tree_cuts(&self) -> Vec<Tree> {
        let cuts = self.tree_cuts.borrow();
        cuts.iter()
            .filter_map(|row| match &row.origin {
                Origin::Cut(Cut::Tree(tree)) => Some(tree.clone()),
                _ => None,
            })
            .collect()
    }

    /// Starts every later LP with these trees as cuts (those an earlier
    /// stage found on this face), so that the DP need not find them again.
    /// Any valid tree is a valid cut; trees of another N are skipped.
    pub fn add_cuts(&self, trees: impl IntoIterator<Item = Tree>) {
        let d = self.dimension();
        let mut known: std::collections::HashSet<Tree> = self.tree_cuts().into_iter().collect();
        let fresh: Vec<Row> = trees
            .into_iter()
            .filter(|t| t.len() == self.alpha.len() && known.insert(t.clone()))
            .map(|t| self.cut_row(Cut::Tree(t), d))
            .collect();
        self.tree_cuts.borrow_mut().extend(fresh);
    }

    /// Uses this box (`box_bounds`' output, stored by an earlier stage on
    /// this face) instead of solving its 2d LPs. Its bounds are proofs that
    /// `verify` re-checks wherever a verdict uses them.
    pub fn set_box(&self, bounds: Vec<[LowerBound; 2]>) {
        if bounds.len() == self.dimension() {
            *self.box_cache.borrow_mut() = Some(bounds);
        }
    }

    /// Each direction's own key (0-based), in the order of the directions.
    pub fn free_keys(&self) -> &[usize] {
        &self.free_keys
    }

    /// A proven upper bound s on the largest smallest slack over the face:
    /// max over optimal alpha of min_i g_i . alpha over the functionals
    /// marked `soft`, subject to g_j . alpha >= 0 for the others; and its
    /// proof, -(sum_i w_i g_i) . alpha >= -s for every optimal alpha, with
    /// weights w >= 0 on all functionals (those on the soft ones sum to 1).
    pub fn bound_largest_smallest(&self, g: &[Vec<Rational>], soft: &[bool]) -> Result<(Rational, MaxProof), String> {
        let (s, _, proof) = self.largest_smallest(g, soft, Want::Bound)?;
        Ok((s, proof))
    }

    /// `bound_largest_smallest` exactly, with an exact optimal alpha that attains it.
    pub fn maximize_smallest(
        &self,
        g: &[Vec<Rational>],
        soft: &[bool],
    ) -> Result<(Rational, Vec<Rational>, MaxProof), String> {
        let (s, point, proof) = self.largest_smallest(g, soft, Want::Point)?;
        Ok((s, point.ok_or("the face LP gave no point")?, proof))
    }

    fn largest_smallest(
        &self,
        g: &[Vec<Rational>],
        soft: &[bool],
        want: Want,
    ) -> Result<(Rational, Option<Vec<Rational>>, MaxProof), String> {
        let d = self.dimension();
        let mut c = vec![0.0; d + 1];
        c[d] = -1.0;
        let mut objective = vec![Rational::ZERO; d + 1];
        objective[d] = Rational::from(-1);
        let scaled: Vec<ScaledVector> = g.iter().map(|gi| ScaledVector::from_rationals(gi)).collect();
        let g_on_hull: Vec<Vec<Rational>> = scaled.iter().map(|gi| self.on_hull(gi)).collect();
        let g_at_alpha: Vec<Rational> = scaled.iter().map(|gi| self.alpha_scaled.dot(gi)).collect();
        let extra: Vec<Row> = g_on_hull
            .iter()
            .zip(&g_at_alpha)
            .enumerate()
            .map(|(i, (on_hull, at_alpha))| {
                let mut a: Vec<f64> = on_hull.iter().map(to_f64).collect();
                a.push(if soft[i] { -1.0 } else { 0.0 });
                Row { origin: Origin::AtLeastS(i), a, b: -to_f64(at_alpha) }
            })
            .collect();
        let mut basis_origins: Vec<Origin> = (0..d).map(|i| Origin::Cut(Cut::Nonnegative(self.free_keys[i]))).collect();
        basis_origins.push(Origin::SAtMost);
        let exact_rows = ExactRows { g_on_hull: &g_on_hull, g_at_alpha: &g_at_alpha, soft, s_bound: s_bound(g) };
        let solved = self.solve_with(&extra, &c, &objective, basis_origins, Some(&exact_rows), want)?;
        let mut weights = Vec::new();
        let mut cuts = Vec::new();
        for (origin, lambda) in solved.all_multipliers {
            match origin {
                Origin::AtLeastS(i) => weights.push((i, lambda)),
                Origin::Cut(cut) => cuts.push((cut, lambda)),
                Origin::SAtMost => return Err("the face LP's bound on s is tight".into()),
            }
        }
        // h = -sum w_i g_i; its proven lower bound is -s*.
        let n = self.alpha.len();
        let mut h = vec![Rational::ZERO; n];
        for (i, w) in &weights {
            for (hk, gk) in h.iter_mut().zip(&g[*i]) {
                *hk -= w * gk;
            }
        }
        let lower = self.lower_bound(&h, &cuts)?;
        let smallest = -lower.bound.clone();
        Ok((smallest, solved.point, MaxProof { weights, lower }))
    }

    /// The bound that `multipliers` prove for h, with `AtMostOne` rewritten.
    fn lower_bound(&self, h: &[Rational], multipliers: &[(Cut, Rational)]) -> Result<LowerBound, String> {
        let mut rewritten: Vec<(Cut, Rational)> = Vec::new();
        for (cut, lambda) in multipliers {
            if *lambda == 0u32 {
                continue;
            }
            match cut {
                Cut::AtMostOne(k) => {
                    for &j in self.moving_keys.iter().filter(|&&j| j != *k) {
                        add_multiplier(&mut rewritten, Cut::Nonnegative(j), lambda);
                    }
                }
                cut => add_multiplier(&mut rewritten, cut.clone(), lambda),
            }
        }
        let bound = self.check_bound(h, &rewritten)?;
        Ok(LowerBound { bound, multipliers: rewritten })
    }

    /// Checks a lower-bound certificate for h and returns the bound it
    /// proves: for every optimal alpha, h . alpha >= r . alpha* + V sum_T
    /// lambda_T, where r = h - sum lambda_j a_j must be orthogonal to every
    /// direction of the hull (so r . alpha = r . alpha* on it) and every
    /// lambda_j >= 0 (alpha_k >= 0 and alpha . d_T >= V on the face). Done on
    /// the directions: Z'h = sum lambda_j Z'a_j, and the bound is h . alpha*
    /// + sum lambda_j b_j with b_j = -alpha*_k or V - alpha* . d_T.
    pub fn check_bound(&self, h: &[Rational], multipliers: &[(Cut, Rational)]) -> Result<Rational, String> {
        let n = self.alpha.len();
        let hs = ScaledVector::from_rationals(h);
        let mut on_hull = self.on_hull(&hs);
        let mut bound = self.alpha_scaled.dot(&hs);
        for (cut, lambda) in multipliers {
            if *lambda < 0u32 {
                return Err("a negative multiplier".into());
            }
            let fits = match cut {
                Cut::Nonnegative(k) => *k < n,
                Cut::Tree(tree) => tree.len() == n,
                Cut::AtMostOne(_) => false,
            };
            if !fits {
                return Err("a cut that does not fit the game".into());
            }
            self.with_exact_cut(cut, |a, b| {
                for (x, y) in on_hull.iter_mut().zip(a) {
                    *x -= lambda * y;
                }
                bound += lambda * b;
            });
        }
        if on_hull.iter().any(|x| *x != 0u32) {
            return Err("the certificate's remainder is not constant on the optimal face".into());
        }
        Ok(bound)
    }

    /// Runs `f` on the cut's exact coefficients on the directions and its right-hand side (cached).
    fn with_exact_cut<T>(&self, cut: &Cut, f: impl FnOnce(&[Rational], &Rational) -> T) -> T {
        let mut cache = self.exact_cuts.borrow_mut();
        let (a, b) = cache.entry(cut.clone()).or_insert_with(|| match cut {
            Cut::Nonnegative(k) => (self.directions.iter().map(|z| z.get(*k)).collect(), -self.alpha[*k].clone()),
            Cut::AtMostOne(k) => {
                (self.directions.iter().map(|z| -z.get(*k)).collect(), &self.alpha[*k] - Rational::ONE)
            }
            Cut::Tree(tree) => (
                self.directions.iter().map(|z| z.dot_small(tree.depths())).collect(),
                &self.value - self.alpha_scaled.dot_small(tree.depths()),
            ),
        });
        f(a, b)
    }

    /// Whether `alpha` is an optimal strategy of Alice's: a distribution
    /// whose best response (the exact DP) costs V.
    pub fn is_optimal(&self, alpha: &[Rational]) -> bool {
        let scaled = ScaledVector::from_rationals(alpha);
        alpha.len() == self.alpha.len()
            && scaled.numerators.iter().all(|a| *a >= 0u32)
            && scaled.numerators.iter().sum::<Integer>() == scaled.denominator
            && best_response(&scaled).0 == self.value
    }

    /// Z'h: h's coefficients on the hull's directions.
    fn on_hull(&self, h: &ScaledVector) -> Vec<Rational> {
        self.directions.iter().map(|z| z.dot(h)).collect()
    }

    fn solve(
        &self,
        extra: &[Row],
        c: &[f64],
        objective: &[Rational],
        basis: Vec<Origin>,
        want: Want,
    ) -> Result<Solved, String> {
        let solved = self.solve_with(extra, c, objective, basis, None, want)?;
        let multipliers = solved
            .all_multipliers
            .iter()
            .map(|(origin, lambda)| match origin {
                Origin::Cut(cut) => Ok((cut.clone(), lambda.clone())),
                _ => Err("a multiplier on a row of no cut".to_string()),
            })
            .collect::<Result<_, String>>()?;
        Ok(Solved { multipliers, point: solved.point })
    }

    /// The LP min c . x over rows (keys, trees as cuts, `extra`), from the
    /// dual-feasible `basis`; then exact: multipliers of the final basis
    /// (proven >= 0) and, when `want` is a point, its point, with trees the exact DP
    /// finds below V added until there are none.
    fn solve_with(
        &self,
        extra: &[Row],
        c: &[f64],
        objective: &[Rational],
        basis: Vec<Origin>,
        exact_rows: Option<&ExactRows>,
        want: Want,
    ) -> Result<SolvedWith, String> {
        let mut failures = Vec::new();
        for relax in RELAXATIONS {
            match self.solve_relaxed(extra, c, objective, &basis, exact_rows, want, relax) {
                Ok(solved) => return Ok(solved),
                Err(why) => failures.push(format!("relaxed by {relax:e}: {why}")),
            }
        }
        Err(failures.join("; "))
    }

    /// `solve_with` with the float rows relaxed by `relax` (see `relaxed`);
    /// for a point, the relaxed optimum is polished on the true rows before
    /// the exact check.
    #[allow(clippy::too_many_arguments)]
    fn solve_relaxed(
        &self,
        extra: &[Row],
        c: &[f64],
        objective: &[Rational],
        basis: &[Origin],
        exact_rows: Option<&ExactRows>,
        want: Want,
        relax: f64,
    ) -> Result<SolvedWith, String> {
        let p = c.len();
        let mut rows: Vec<Row> = self
            .moving_keys
            .iter()
            .map(|&k| self.cut_row(Cut::Nonnegative(k), p))
            .chain(self.free_keys.iter().map(|&k| self.cut_row(Cut::AtMostOne(k), p)))
            .chain(self.tree_cuts.borrow().iter().map(|row| Row { a: padded(&row.a, p), ..row.clone() }))
            .chain(extra.iter().cloned())
            .collect();
        if let Some(exact) = exact_rows {
            rows.push(Row { origin: Origin::SAtMost, a: unit(p, p - 1, -1.0), b: -to_f64(&exact.s_bound) });
        }
        let true_b: Vec<f64> = rows.iter().map(|r| r.b).collect();
        for (j, row) in rows.iter_mut().enumerate() {
            row.b = relaxed(row.b, j, relax);
        }
        let mut basis: Vec<usize> = basis
            .iter()
            .map(|o| rows.iter().position(|r| r.origin == *o).ok_or("a first-basis row is missing"))
            .collect::<Result<_, _>>()?;
        for _ in 0..MAX_EXACT_ROUNDS {
            self.float_simplex(&mut rows, &mut basis, c, relax)?;
            if want == Want::Point {
                for (row, &b) in rows.iter_mut().zip(&true_b) {
                    row.b = b;
                }
                self.float_simplex(&mut rows, &mut basis, c, 0.0)?;
            }
            let exact_a: Vec<Vec<Rational>> =
                basis.iter().map(|&i| self.exact_row(&rows[i].origin, p, exact_rows)).collect();
            let exact_b: Vec<Rational> = basis.iter().map(|&i| self.exact_rhs(&rows[i].origin, exact_rows)).collect();
            let lambda = solve_exact(transpose(&exact_a), objective.to_vec()).ok_or("the final basis is singular")?;
            if let Some(i) = (0..lambda.len()).filter(|&i| lambda[i] < 0u32).min_by(|&i, &j| lambda[i].cmp(&lambda[j]))
            {
                // Optimal in floating point, not exactly: the row with the most negative
                // exact multiplier leaves by a primal step, and the float LP goes on.
                primal_pivot(&mut rows, &mut basis, i)?;
                continue;
            }
            let all_multipliers = || basis.iter().map(|&i| rows[i].origin.clone()).zip(lambda.clone()).collect();
            if want == Want::Bound {
                return Ok(SolvedWith { all_multipliers: all_multipliers(), point: None });
            }
            let x = solve_exact(exact_a, exact_b).ok_or("the final basis is singular")?;
            let point = self.point(&x[..self.dimension()]);
            if let Some(k) = point.numerators.iter().position(|a| *a < 0u32) {
                return Err(format!("the face LP's point has alpha_{} < 0 exactly", k + 1));
            }
            let (best, tree) = best_response(&point);
            if best < self.value {
                let cut = Origin::Cut(Cut::Tree(tree.clone()));
                if rows.iter().any(|r| r.origin == cut) {
                    return Err("the exact DP found a tree the float LP already has".into());
                }
                self.add_tree_cut(&mut rows, tree, p, 0.0);
                continue;
            }
            return Ok(SolvedWith { all_multipliers: all_multipliers(), point: Some(point.to_rationals()) });
        }
        Err(format!("no exactly optimal point after {MAX_EXACT_ROUNDS} exact rounds"))
    }

    /// The dual simplex in x: the most violated row (or the cheapest tree
    /// below V) enters, the ratio test on the multipliers picks the leaving.
    fn float_simplex(&self, rows: &mut Vec<Row>, basis: &mut [usize], c: &[f64], relax: f64) -> Result<(), String> {
        // The multipliers are degenerate too (zero on most of the first basis), and the
        // simplex cycled on them: first solve with c moved into the interior of the
        // first basis's cone (every multiplier positive), then with c itself.
        let size = c.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let mut moved = c.to_vec();
        for (i, &row) in basis.iter().enumerate() {
            let weight = 1e-7 * size * (1.0 + (i as f64 * 0.618_033_988_749_895).fract());
            for (m, a) in moved.iter_mut().zip(&rows[row].a) {
                *m += weight * a;
            }
        }
        self.dual_simplex(rows, basis, &moved, relax)?;
        self.dual_simplex(rows, basis, c, relax)?;
        // The second solve starts from a basis optimal for the moved c. Where the
        // multipliers are tiny (a functional nearly constant on the face: N = 609's
        // a[305] - a[304] has multipliers of 1e-9 on its trees) that basis can be
        // dual infeasible for c itself: primal steps leave it (Bland's rule: the
        // first negative multiplier), the dual simplex adds the cuts they need.
        for _ in 0..MAX_PIVOTS {
            let a: Vec<Vec<f64>> = basis.iter().map(|&i| rows[i].a.clone()).collect();
            let lambda = Lu::new(a).ok_or("a singular basis in the face LP")?.solve_transposed(c.to_vec());
            let Some(i) = (0..lambda.len()).filter(|&i| lambda[i] < -DUAL_INFEASIBLE).min_by_key(|&i| basis[i]) else {
                return Ok(());
            };
            primal_pivot(rows, basis, i)?;
            self.dual_simplex(rows, basis, c, relax)?;
        }
        Err(format!("the face LP did not finish within {MAX_PIVOTS} primal steps"))
    }

    fn dual_simplex(&self, rows: &mut Vec<Row>, basis: &mut [usize], c: &[f64], relax: f64) -> Result<(), String> {
        let p = c.len();
        let mut degenerate = 0usize;
        for _ in 0..MAX_PIVOTS {
            // One factorization of the basis per pivot for its three solves.
            let a: Vec<Vec<f64>> = basis.iter().map(|&i| rows[i].a.clone()).collect();
            let b: Vec<f64> = basis.iter().map(|&i| rows[i].b).collect();
            let lu = Lu::new(a).ok_or("a singular basis in the face LP")?;
            let x = lu.solve(b);
            let lambda = lu.solve_transposed(c.to_vec());
            let bland = degenerate > 50;
            let mut in_basis = vec![false; rows.len()];
            for &i in basis.iter() {
                in_basis[i] = true;
            }
            let mut entering: Option<(usize, f64)> = None;
            for (j, row) in rows.iter().enumerate() {
                if in_basis[j] {
                    continue;
                }
                let slack = (dot_f64(&row.a, &x) - row.b) / (1.0 + row.b.abs());
                if slack < -VIOLATION && entering.is_none_or(|(_, worst)| !bland && slack < worst) {
                    entering = Some((j, slack));
                }
            }
            let entering = match entering {
                Some((j, _)) => j,
                None => {
                    let alpha: Vec<f64> = self.point_f64(&x[..self.dimension()]);
                    // A floor on the weights keeps keys at alpha_k = 0 from sinking below depth 255.
                    let floor = 1e-12 * alpha.iter().fold(0.0f64, |m, a| m.max(*a));
                    let best = monotone_root_dp_f64(&alpha.iter().map(|a| a.max(floor)).collect::<Vec<_>>());
                    let cost: f64 = alpha.iter().zip(best.tree.depths()).map(|(a, &d)| a * f64::from(d)).sum();
                    let value = to_f64(&self.value);
                    let cut = Origin::Cut(Cut::Tree(best.tree.clone()));
                    if cost >= value * (1.0 - CUT_GAP) || rows.iter().any(|r| r.origin == cut) {
                        return Ok(());
                    }
                    self.add_tree_cut(rows, best.tree, p, relax);
                    rows.len() - 1
                }
            };
            let direction = lu.solve_transposed(rows[entering].a.clone());
            let largest = direction.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1.0);
            let leaving = (0..p)
                .filter(|&i| direction[i] > 1e-12 * largest)
                .map(|i| (i, lambda[i].max(0.0) / direction[i]))
                .min_by(|x, y| x.1.total_cmp(&y.1).then(basis[x.0].cmp(&basis[y.0])))
                .ok_or("the face LP is infeasible (its dual is unbounded)")?;
            degenerate = if leaving.1 <= 1e-14 { degenerate + 1 } else { 0 };
            basis[leaving.0] = entering;
        }
        Err(format!("the face LP did not finish within {MAX_PIVOTS} pivots"))
    }

    /// Adds a tree's cut to this LP's rows (relaxed by `relax`) and to the pool later LPs start with.
    fn add_tree_cut(&self, rows: &mut Vec<Row>, tree: Tree, p: usize, relax: f64) {
        let mut row = self.cut_row(Cut::Tree(tree), p);
        self.tree_cuts.borrow_mut().push(Row { a: row.a[..self.dimension()].to_vec(), ..row.clone() });
        row.b = relaxed(row.b, rows.len(), relax);
        rows.push(row);
    }

    /// A cut as a float row in x (zero on s).
    fn cut_row(&self, cut: Cut, p: usize) -> Row {
        let mut a = vec![0.0; p];
        let b = match &cut {
            Cut::Nonnegative(k) => {
                for (ac, z) in a.iter_mut().zip(&self.directions_f64) {
                    *ac = z[*k];
                }
                -self.alpha_f64[*k]
            }
            Cut::AtMostOne(k) => {
                for (ac, z) in a.iter_mut().zip(&self.directions_f64) {
                    *ac = -z[*k];
                }
                self.alpha_f64[*k] - 1.0
            }
            Cut::Tree(tree) => {
                let depths: Vec<f64> = tree.depths().iter().map(|&d| f64::from(d)).collect();
                for (ac, z) in a.iter_mut().zip(&self.directions_f64) {
                    *ac = dot_f64(z, &depths);
                }
                to_f64(&self.value) - dot_f64(&self.alpha_f64, &depths)
            }
        };
        Row { origin: Origin::Cut(cut), a, b }
    }

    /// The exact coefficients of a row in x.
    fn exact_row(&self, origin: &Origin, p: usize, exact_rows: Option<&ExactRows>) -> Vec<Rational> {
        let mut a = vec![Rational::ZERO; p];
        match origin {
            Origin::Cut(cut) => self.with_exact_cut(cut, |on_hull, _| a[..on_hull.len()].clone_from_slice(on_hull)),
            Origin::AtLeastS(i) => {
                let rows = exact_rows.expect("s rows come with their functionals");
                a[..rows.g_on_hull[*i].len()].clone_from_slice(&rows.g_on_hull[*i]);
                if rows.soft[*i] {
                    a[p - 1] = Rational::from(-1);
                }
            }
            Origin::SAtMost => a[p - 1] = Rational::from(-1),
        }
        a
    }

    /// The exact right-hand side of a row in x.
    fn exact_rhs(&self, origin: &Origin, exact_rows: Option<&ExactRows>) -> Rational {
        match origin {
            Origin::Cut(cut) => self.with_exact_cut(cut, |_, b| b.clone()),
            Origin::AtLeastS(i) => -exact_rows.expect("s rows").g_at_alpha[*i].clone(),
            Origin::SAtMost => -exact_rows.expect("s rows").s_bound.clone(),
        }
    }

    /// alpha* + Z t, exact, over one denominator L: alpha_k = (m_0 A_k +
    /// sum_c m_c z_c(k)) / L with integer m (A, z: numerators).
    fn point(&self, t: &[Rational]) -> ScaledVector {
        let factors: Vec<(Rational, &ScaledVector)> = t
            .iter()
            .zip(&self.directions)
            .filter(|(tc, _)| **tc != 0u32)
            .map(|(tc, z)| (tc / Rational::from(z.denominator.clone()), z))
            .collect();
        let alpha_den = Natural::try_from(self.alpha_scaled.denominator.clone()).expect("a positive denominator");
        let l = factors.iter().fold(alpha_den.clone(), |l, (f, _)| l.lcm(f.to_denominator()));
        let times = |f: &Rational| {
            let (num, den) = f.to_numerator_and_denominator();
            let m = Integer::from(num * (&l / den));
            if *f < 0u32 { -m } else { m }
        };
        let m0 = Integer::from(&l / &alpha_den);
        let mut numerators: Vec<Integer> = self.alpha_scaled.numerators.iter().map(|a| a * &m0).collect();
        for (f, z) in &factors {
            let m = times(f);
            for &k in &self.moving_keys {
                numerators[k] += &m * &z.numerators[k];
            }
        }
        ScaledVector { numerators, denominator: Integer::from(l) }
    }

    fn point_f64(&self, t: &[f64]) -> Vec<f64> {
        let mut alpha = self.alpha_f64.clone();
        for (z, tc) in self.directions_f64.iter().zip(t) {
            for &k in &self.moving_keys {
                alpha[k] += tc * z[k];
            }
        }
        alpha
    }
}

/// Whether a face LP is asked for its bound only or also for an exact optimal point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Bound,
    Point,
}

/// How `maximize_smallest` proves its value: weights w_i >= 0 (sum 1) on
/// the functionals, and the lower bound -s* on -(sum w_i g_i) . alpha.
#[derive(Debug, Clone)]
pub struct MaxProof {
    pub weights: Vec<(usize, Rational)>,
    pub lower: LowerBound,
}

struct Solved {
    multipliers: Vec<(Cut, Rational)>,
    point: Option<Vec<Rational>>,
}

struct SolvedWith {
    all_multipliers: Vec<(Origin, Rational)>,
    point: Option<Vec<Rational>>,
}

/// The exact data of the s rows: the functionals' coefficients on the
/// hull's directions, their values at alpha*, which of them carry s, and
/// the bound u on s.
struct ExactRows<'a> {
    g_on_hull: &'a [Vec<Rational>],
    g_at_alpha: &'a [Rational],
    soft: &'a [bool],
    s_bound: Rational,
}

/// u > every g_i . alpha over distributions: 1 + the largest coefficient.
fn s_bound(g: &[Vec<Rational>]) -> Rational {
    g.iter().flatten().max().cloned().unwrap_or(Rational::ZERO) + Rational::ONE
}

fn add_multiplier(multipliers: &mut Vec<(Cut, Rational)>, cut: Cut, lambda: &Rational) {
    match multipliers.iter_mut().find(|(c, _)| *c == cut) {
        Some((_, l)) => *l += lambda,
        None => multipliers.push((cut, lambda.clone())),
    }
}

/// The exact cost of the best tree against alpha >= 0, and the tree. The DP
/// runs on S w + 1 (w = alpha's numerators, integers, S = N^2): its best
/// tree is a best tree for w (two trees' depth sums differ by less than S,
/// and w-costs are integers), the shallowest among them, so keys with
/// alpha_k = 0 cannot sink deeper than a tree can hold.
fn best_response(alpha: &ScaledVector) -> (Rational, Tree) {
    let s = Integer::from(alpha.len() as u64).pow(2);
    let tilted: Vec<Integer> = alpha.numerators.iter().map(|w| w * &s + Integer::ONE).collect();
    let tree = monotone_root_dp(&tilted).tree;
    (alpha.dot_small(tree.depths()), tree)
}

/// A primal simplex step that lets basis row `i` leave: x moves along the
/// direction that keeps the other basis rows tight and gives row i slack (the
/// objective falls by -lambda_i per unit), until a non-basic row becomes
/// tight; that row enters in i's place. Rounding can end the dual simplex at
/// a basis whose multipliers are >= 0 in floating point but not exactly; this
/// step leaves it the way the exact multipliers say.
fn primal_pivot(rows: &mut [Row], basis: &mut [usize], i: usize) -> Result<(), String> {
    let a: Vec<Vec<f64>> = basis.iter().map(|&k| rows[k].a.clone()).collect();
    let b: Vec<f64> = basis.iter().map(|&k| rows[k].b).collect();
    let lu = Lu::new(a).ok_or("a singular basis in the face LP")?;
    let x = lu.solve(b);
    let mut unit_i = vec![0.0; basis.len()];
    unit_i[i] = 1.0;
    let direction = lu.solve(unit_i);
    let largest = direction.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1.0);
    let entering = (0..rows.len())
        .filter(|j| !basis.contains(j))
        .filter_map(|j| {
            let rate = dot_f64(&rows[j].a, &direction);
            (rate < -1e-12 * largest).then(|| (j, (dot_f64(&rows[j].a, &x) - rows[j].b).max(0.0) / -rate))
        })
        .min_by(|p, q| p.1.total_cmp(&q.1).then(p.0.cmp(&q.0)))
        .ok_or("the face LP is unbounded along a negative multiplier")?;
    basis[i] = entering.0;
    Ok(())
}

/// Row j's right-hand side as the float LP sees it: relaxed by `relax` to
/// twice that (relative, varying with j). At alpha* hundreds of trees can be tight at
/// once, and on that degenerate vertex the float simplex cycled (at some N of
/// the 1024 sweep it hit its pivot limit or a false "infeasible"); relaxed,
/// every vertex is simple. The multipliers do not depend on b, so the exact bound
/// of the final basis stays a proof, and its exact point is checked on the
/// true rows.
fn relaxed(b: f64, j: usize, relax: f64) -> f64 {
    b - relax * (1.0 + b.abs()) * (1.0 + (j as f64 * 0.618_033_988_749_895).fract())
}

/// Relaxations tried in turn until the float LP finishes (N = 961's d = 39
/// face needed more than 1e-10).
const RELAXATIONS: [f64; 3] = [1e-10, 1e-8, 1e-6];

/// `a` with zeros appended up to length p (a row over t, extended to s).
fn padded(a: &[f64], p: usize) -> Vec<f64> {
    let mut v = a.to_vec();
    v.resize(p, 0.0);
    v
}

fn unit(p: usize, i: usize, value: f64) -> Vec<f64> {
    let mut v = vec![0.0; p];
    v[i] = value;
    v
}

fn dot_f64(x: &[f64], y: &[f64]) -> f64 {
    kernels::dot(x, y)
}

fn transpose<T: Clone>(a: &[Vec<T>]) -> Vec<Vec<T>> {
    let p = a.len();
    (0..a.first().map_or(0, Vec::len)).map(|j| (0..p).map(|i| a[i][j].clone()).collect()).collect()
}

/// An LU factorization with partial pivoting (P A = L U) of a small dense
/// matrix, for the face LP's solves with its basis and its transpose.
struct Lu {
    /// L below the diagonal (unit diagonal implied), U on and above it.
    lu: Vec<Vec<f64>>,
    /// Row i of P A is row `order[i]` of A.
    order: Vec<usize>,
}

impl Lu {
    fn new(mut a: Vec<Vec<f64>>) -> Option<Lu> {
        let p = a.len();
        let mut order: Vec<usize> = (0..p).collect();
        for col in 0..p {
            let pivot = (col..p).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
            if a[pivot][col].abs() < 1e-300 {
                return None;
            }
            a.swap(col, pivot);
            order.swap(col, pivot);
            let (top, below) = a.split_at_mut(col + 1);
            let pivot_row = &top[col];
            for row in below.iter_mut() {
                let factor = row[col] / pivot_row[col];
                row[col] = factor;
                if factor != 0.0 {
                    for (x, y) in row[col + 1..].iter_mut().zip(&pivot_row[col + 1..]) {
                        *x -= factor * y;
                    }
                }
            }
        }
        Some(Lu { lu: a, order })
    }

    /// x with A x = b: L y = P b, then U x = y.
    fn solve(&self, b: Vec<f64>) -> Vec<f64> {
        let p = b.len();
        let mut y: Vec<f64> = self.order.iter().map(|&i| b[i]).collect();
        for i in 0..p {
            let head: f64 = (0..i).map(|j| self.lu[i][j] * y[j]).sum();
            y[i] -= head;
        }
        for i in (0..p).rev() {
            let tail: f64 = (i + 1..p).map(|j| self.lu[i][j] * y[j]).sum();
            y[i] = (y[i] - tail) / self.lu[i][i];
        }
        y
    }

    /// y with A' y = c: U' z = c, then L' w = z, then y = P' w.
    fn solve_transposed(&self, mut z: Vec<f64>) -> Vec<f64> {
        let p = z.len();
        for i in 0..p {
            let head: f64 = (0..i).map(|j| self.lu[j][i] * z[j]).sum();
            z[i] = (z[i] - head) / self.lu[i][i];
        }
        for i in (0..p).rev() {
            let tail: f64 = (i + 1..p).map(|j| self.lu[j][i] * z[j]).sum();
            z[i] -= tail;
        }
        let mut y = vec![0.0; p];
        for (w, &i) in z.into_iter().zip(&self.order) {
            y[i] = w;
        }
        y
    }
}

/// Solves the square system a x = b exactly (Gaussian elimination over the rationals; a is small).
fn solve_exact(mut a: Vec<Vec<Rational>>, mut b: Vec<Rational>) -> Option<Vec<Rational>> {
    let p = b.len();
    for col in 0..p {
        let pivot = (col..p).find(|&i| a[i][col] != 0u32)?;
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, below) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (i, row) in below.iter_mut().enumerate() {
            if row[col] != 0u32 {
                let factor = &row[col] / &pivot_row[col];
                for (x, y) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *x -= &factor * y;
                }
                let delta = &factor * &b[col];
                b[col + 1 + i] -= delta;
            }
        }
    }
    let mut x = vec![Rational::ZERO; p];
    for i in (0..p).rev() {
        let tail: Rational = (i + 1..p).map(|j| &a[i][j] * &x[j]).sum();
        x[i] = (&b[i] - tail) / &a[i][i];
    }
    Some(x)
}

#[cfg(test)]
mod lu_tests {
    use super::*;

    #[test]
    fn lu_solves_with_the_matrix_and_its_transpose() {
        // A deterministic, well-conditioned matrix that needs row exchanges.
        let p = 7;
        let a: Vec<Vec<f64>> = (0..p)
            .map(|i| {
                (0..p).map(|j| ((i * 7 + j * 3) % 11) as f64 - 5.0 + if (i + 1) % p == j { 9.0 } else { 0.0 }).collect()
            })
            .collect();
        let b: Vec<f64> = (0..p).map(|i| i as f64 - 2.5).collect();
        let lu = Lu::new(a.clone()).unwrap();
        let x = lu.solve(b.clone());
        let y = lu.solve_transposed(b.clone());
        for i in 0..p {
            assert!((dot_f64(&a[i], &x) - b[i]).abs() < 1e-9, "A x = b, row {i}");
            let column: Vec<f64> = (0..p).map(|k| a[k][i]).collect();
            assert!((dot_f64(&column, &y) - b[i]).abs() < 1e-9, "A' y = b, row {i}");
        }
        assert!(Lu::new(vec![vec![1.0, 2.0], vec![2.0, 4.0]]).is_none(), "singular");
    }
}
