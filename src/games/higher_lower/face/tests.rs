//! The face stage against independent formulations: a brute-force LP with every tree as a row
//! (N <= 9), and optimal strategies of Alice's found another way (N <= 40).
use super::polytope::{AliceFace, LowerBound};
use super::verdicts::*;
use crate::exact::common_denominator;
use crate::exact::{Integer, PadicSolver, Rational, pivots_mod_p, to_f64};
use crate::games::higher_lower::claims::meaning::Inequality;
use crate::games::higher_lower::claims::{AtN, Claim};
use crate::games::higher_lower::exact_stage::certificate::certify;
use crate::games::higher_lower::exact_stage::exact_stage;
use crate::games::higher_lower::hull::{self, OptimalFace};
use crate::games::higher_lower::mixture::Mixture;
use crate::games::higher_lower::pricing::monotone_root_dp;
use crate::games::higher_lower::solve::{Method, SolveOptions, solve};
use crate::games::higher_lower::tree::{Tree, all_trees};
use microlp::{ComparisonOp, OptimizationDirection, Problem};

fn q(p: i64, d: i64) -> Rational {
    Rational::from_signeds(p, d)
}

/// Claims beyond the built-in ones, for the tests: index expressions,
/// sums, means, families, constants, chains, and strict beside non-strict.
const TEST_CLAIMS: [(&str, &str); 8] = [
    ("middle_dip", "a[N/2] <= a[N/2+1]"),
    ("left_half", "sum(a[j] for j in 1..N/2) >= 1/2"),
    ("non_increasing", "for j in 2..N/2: a[j] >= a[j+1]"),
    ("outer_keys", "a[1] + a[N] >= 2/N"),
    ("below_the_mean", "for q in [N/4+1, N/2, (3*N)/4]: a[q] < mean(a[k] for k in 1..N)"),
    ("mixed", "a[2] = a[3] + a[N-1] - a[N-2] and a[1] > a[2]"),
    ("mirror", "for j in 1..N: a[j] = a[N+1-j]"),
    ("chain", "1/(2*N) < a[(N+1)/2] <= 3/N"),
];

/// The built-in conjectures and the test claims.
fn all_claims() -> Vec<Claim> {
    let mut claims = crate::games::higher_lower::claims::builtin().to_vec();
    claims.extend(TEST_CLAIMS.iter().map(|(name, statement)| Claim::parse(name, statement, 2, None).unwrap()));
    claims
}

/// Alice's optimal strategies as an LP solved another way (microlp):
/// alpha >= 0, sum 1, alpha . d_T >= V for every tree T of N keys, the
/// trees enumerated (`all_trees`) and added as rows while the LP's optimum
/// violates one, plus the rows `extra` (coefficients over alpha, then t).
/// Maximises `objective` . (alpha, t); `None` when infeasible.
fn brute_force_lp(trees: &[Tree], value: f64, objective: &[f64], extra: &[(Vec<f64>, f64)]) -> Option<(f64, Vec<f64>)> {
    let n = trees[0].len();
    let mut problem = Problem::new(OptimizationDirection::Maximize);
    let vars: Vec<_> = objective
        .iter()
        .enumerate()
        .map(|(i, &c)| problem.add_var(c, if i < n { (0.0, f64::INFINITY) } else { (f64::NEG_INFINITY, 1.0) }))
        .collect();
    problem.add_constraint(vars[..n].iter().map(|&a| (a, 1.0)).collect::<Vec<_>>(), ComparisonOp::Eq, 1.0);
    for (row, rhs) in extra {
        problem.add_constraint(vars.iter().zip(row).map(|(&v, &c)| (v, c)).collect::<Vec<_>>(), ComparisonOp::Ge, *rhs);
    }
    let mut rows = 0;
    loop {
        let solution = match problem.solve() {
            Ok(outcome) => outcome.into_solution().expect("no limits set"),
            Err(microlp::Error::Infeasible) => return None,
            Err(e) => panic!("N = {n}: {e}"),
        };
        let alpha: Vec<f64> = vars[..n].iter().map(|&v| solution[v]).collect();
        let cost = |t: &Tree| alpha.iter().zip(t.depths()).map(|(a, &d)| a * f64::from(d)).sum::<f64>();
        let mut violated: Vec<&Tree> = trees.iter().filter(|t| cost(t) < value - 1e-9).collect();
        if violated.is_empty() {
            return Some((solution.objective(), alpha));
        }
        violated.sort_by(|x, y| cost(x).total_cmp(&cost(y)));
        for tree in violated.into_iter().take(40) {
            let row: Vec<_> = vars[..n].iter().zip(tree.depths()).map(|(&a, &d)| (a, f64::from(d))).collect();
            problem.add_constraint(row, ComparisonOp::Ge, value);
            rows += 1;
        }
        assert!(rows < trees.len() + 40, "N = {n}: the brute-force LP does not settle");
    }
}

/// The minimum of h . alpha over Alice's optimal strategies, by `brute_force_lp` (`trees`: every tree of N keys).
fn brute_force_min(trees: &[Tree], value: f64, h: &[f64]) -> f64 {
    let minus: Vec<f64> = h.iter().map(|c| -c).collect();
    -brute_force_lp(trees, value, &minus, &[]).expect("the optimal face is not empty").0
}

/// A claim's verdict over Alice's optimal strategies, by `brute_force_lp`:
/// it holds for every one when each inequality's minimum satisfies it; it
/// fails for every one when no optimal alpha satisfies the non-strict
/// inequalities with every strict one above some t > 0 (max t <= 0, or
/// infeasible); else it depends.
fn brute_force_verdict(trees: &[Tree], value: f64, inequalities: &[Inequality]) -> ClaimVerdict {
    let n = trees[0].len();
    let (eps, g) = (1e-9, inequalities.iter().map(|i| i.dense(n).iter().map(to_f64).collect::<Vec<f64>>()));
    let g: Vec<Vec<f64>> = g.collect();
    let minimum_holds = g.iter().zip(inequalities).all(|(gi, i)| {
        let min = brute_force_min(trees, value, gi);
        if i.strict { min > eps } else { min > -eps }
    });
    if minimum_holds {
        return ClaimVerdict::HoldsForEvery;
    }
    let mut objective = vec![0.0; n + 1];
    objective[n] = 1.0;
    let rows: Vec<(Vec<f64>, f64)> = g
        .iter()
        .zip(inequalities)
        .map(|(gi, i)| {
            let mut row = gi.clone();
            row.push(if i.strict { -1.0 } else { 0.0 });
            (row, if i.strict { 0.0 } else { -eps })
        })
        .collect();
    let any_strict = inequalities.iter().any(|i| i.strict);
    match brute_force_lp(trees, value, &objective, &rows) {
        None => ClaimVerdict::FailsForEvery,
        Some((t, _)) if any_strict && t <= eps => ClaimVerdict::FailsForEvery,
        Some(_) => ClaimVerdict::Depends,
    }
}

#[test]
fn face_optima_and_verdicts_equal_a_brute_force_lp_over_every_tree_for_small_n() {
    let options = SolveOptions::new(Method::Auto, 1e-10, 100_000);
    let claims = all_claims();
    let (mut compared, mut verdicts) = (0, [0usize; 3]);
    for n in 2..=12 {
        let exact = exact_stage(&solve(n, &options, None)).unwrap();
        let face = AliceFace::new(&exact.value, &exact.alpha, &exact.bob).unwrap();
        let value = to_f64(&exact.value);
        let trees = all_trees(n);
        // Functionals: alpha_k, alpha_k - alpha_k+1, and every inequality of every claim at N.
        let mut functionals: Vec<Vec<Rational>> = Vec::new();
        for k in 0..n {
            let mut f = vec![Rational::from(0); n];
            f[k] = Rational::from(1);
            functionals.push(f.clone());
            if k + 1 < n {
                f[k + 1] = Rational::from(-1);
                functionals.push(f);
            }
        }
        for claim in &claims {
            if let AtN::Applies(inequalities) = claim.at(n) {
                functionals.extend(inequalities.iter().map(|i| i.dense(n)));
            }
        }
        for f in &functionals {
            // The minimum and the maximum (the minimum of -f).
            for sign in [1i64, -1] {
                let h: Vec<Rational> = f.iter().map(|c| c * Rational::from(sign)).collect();
                let ours = face.minimize(&h).unwrap().lower.bound;
                let theirs = brute_force_min(&trees, value, &h.iter().map(to_f64).collect::<Vec<_>>());
                assert!((to_f64(&ours) - theirs).abs() < 1e-7, "N = {n}, h = {h:?}: {ours} vs {theirs}");
                compared += 1;
            }
        }
        // Each claim's verdict from the brute-force LPs.
        for (claim, decided) in claims.iter().zip(decide_all(&face, &claims)) {
            let at = claim.at(n);
            if let AtN::Applies(inequalities) = &at {
                let expected = brute_force_verdict(&trees, value, inequalities);
                assert_eq!(decided.verdict, expected, "N = {n}, {}", decided.name);
                verdicts[[ClaimVerdict::HoldsForEvery, ClaimVerdict::FailsForEvery, ClaimVerdict::Depends]
                    .iter()
                    .position(|v| *v == expected)
                    .unwrap()] += 1;
            } else {
                assert_eq!(decided.verdict, ClaimVerdict::NotApplicable, "N = {n}, {}", decided.name);
            }
            assert_eq!(check_proofs(&face, &at, decided.verdict, &decided.proofs), Ok(()), "N = {n}, {}", decided.name);
        }
    }
    eprintln!("N = 2..12: {compared} minima compared; verdicts holds / fails / depends: {verdicts:?}");
    assert!(compared > 500 && verdicts.iter().all(|&v| v > 0), "{verdicts:?}");
}

#[test]
fn a_hand_made_face_where_alpha1_largest_depends_on_the_optimal_alpha() {
    // N = 4, the seed's example: V = 2, Bob mixes (2,1,3,2) and (2,3,1,2)
    // equally; alpha* = (5, 3, 3, 5)/16 is optimal. Over all optimal alpha,
    // alpha_1 ranges from 1/5 to 3/7 (the brute-force LP test agrees at N = 4).
    let tree = |d: &[u8]| Tree::from_depths(d.to_vec()).unwrap();
    let bob = Mixture::new(vec![(tree(&[2, 1, 3, 2]), q(1, 2)), (tree(&[2, 3, 1, 2]), q(1, 2))]);
    let alpha = [q(5, 16), q(3, 16), q(3, 16), q(5, 16)];
    let face = AliceFace::new(&q(2, 1), &alpha, &bob).unwrap();
    assert!(face.is_optimal(&alpha) && face.dimension() == 2);
    let e1 = [q(1, 1), q(0, 1), q(0, 1), q(0, 1)];
    let lowest = face.minimize(&e1).unwrap();
    assert_eq!(lowest.lower.bound, q(1, 5));
    assert!(face.is_optimal(&lowest.point));
    let minus_e1: Vec<Rational> = e1.iter().map(|x| -x.clone()).collect();
    assert_eq!(face.minimize(&minus_e1).unwrap().lower.bound, q(-3, 7));
    // alpha1 > alpha_2, alpha_3 holds at alpha*, fails at another optimal alpha.
    let claim = crate::games::higher_lower::claims::builtin_named("alpha1_largest").unwrap();
    let largest = decide_claim(&face, claim);
    let at = claim.at(4);
    assert_eq!(largest.verdict, ClaimVerdict::Depends);
    assert_eq!(check_proofs(&face, &at, largest.verdict, &largest.proofs), Ok(()));
    let Some(Proof::Witness { holds: false, alpha: Some(other) }) = largest.proofs.get(1) else {
        panic!("{:?}", largest.proofs)
    };
    assert!(face.is_optimal(other) && !(other[0] > other[1] && other[0] > other[2]));
    // Tampered proofs are refused: a witness with the wrong label, a verdict it does not prove.
    let flipped = vec![largest.proofs[0].clone(), Proof::Witness { holds: true, alpha: Some(other.clone()) }];
    assert!(check_proofs(&face, &at, ClaimVerdict::Depends, &flipped).is_err());
    assert!(check_proofs(&face, &at, ClaimVerdict::HoldsForEvery, &largest.proofs).is_err());
    // A failure "proof" with no weight (0 >= 0 proves nothing) is refused.
    let empty = LowerBound { bound: q(0, 1), multipliers: Vec::new() };
    let vacuous = vec![Proof::Bound { sign: -1, weights: vec![(0, q(0, 1))], lower: empty }];
    assert!(check_proofs(&face, &at, ClaimVerdict::FailsForEvery, &vacuous).is_err());
    // A bound proof with an inflated bound is refused.
    let lower = face.bound_below(&e1).unwrap();
    let inflated = LowerBound { bound: q(1, 3), multipliers: lower.multipliers.clone() };
    assert!(face.check_bound(&e1, &inflated.multipliers).is_ok_and(|b| b != inflated.bound));
}

/// Optimal strategies of Alice's other than alpha*, each certified exactly
/// (`certify`: its best response costs V), independently of the face test,
/// with their mirror images. A direction z is an exact null vector of the
/// face's equations; it stays optimal for a small step when no key with
/// alpha*_k = 0 goes negative and no best response T to alpha* has
/// z . d_T < 0. The worst such T comes from the DP on the integer weights
/// S alpha* D + z (S so large that ties in alpha* D are broken by z alone);
/// a violating key or tree joins the equations (z then keeps it at 0 or V)
/// and z is recomputed. Each new row is independent of the others, so this
/// ends. Then t halves from half the largest step keeping alpha >= 0 until
/// alpha* + t z certifies. Different free keys and both signs give
/// different directions.
fn other_optimal_strategies(value: &Rational, alpha: &[Rational], bob: &Mixture) -> Vec<Vec<Rational>> {
    let face = OptimalFace::new(value, bob);
    let ((tight, equations), n) = (face.equations(), alpha.len());
    let (scaled, _) = common_denominator(alpha);
    let mut found = Vec::new();
    for start in 0..tight.len().min(10) {
        for sign in [1i64, -1] {
            let mut rows = equations.to_vec();
            while let Some(z) = null_vector(&rows, start) {
                // z over all keys (0 off the tight ones), with the sign applied.
                let mut full = vec![Integer::from(0); n];
                for (&k, v) in tight.iter().zip(&z) {
                    full[k] = v * Integer::from(sign);
                }
                if let Some(c) = tight.iter().position(|&k| full[k] < 0 && alpha[k] == 0u32) {
                    rows.push((0..tight.len()).map(|j| i64::from(j == c)).collect());
                    continue;
                }
                let spread: Integer = full.iter().map(|v| if *v < 0 { -v } else { v.clone() }).sum();
                let s = spread * Integer::from(2 * n as u64) + Integer::from(1);
                let weights: Vec<Integer> = scaled.iter().zip(&full).map(|(a, z)| &s * a + z).collect();
                let worst = monotone_root_dp(&weights).tree;
                let slope: Integer = full.iter().zip(worst.depths()).map(|(z, &d)| z * Integer::from(d)).sum();
                if slope < 0 {
                    rows.push(tight.iter().map(|&k| i64::from(worst.depths()[k])).collect());
                    continue;
                }
                let full: Vec<Rational> = full.into_iter().map(Rational::from).collect();
                let Some(mut t) = (0..n).filter(|&k| full[k] < 0u32).map(|k| &alpha[k] / -&full[k]).min() else {
                    break;
                };
                for _ in 0..64 {
                    t /= Rational::from(2u32);
                    let other: Vec<Rational> = alpha.iter().zip(&full).map(|(a, z)| a + &t * z).collect();
                    if certify(value, &other, bob).is_ok() {
                        let mirror: Vec<Rational> = other.iter().rev().cloned().collect();
                        assert!(certify(value, &mirror, bob).is_ok(), "the mirror of an optimal alpha is optimal");
                        found.push(other);
                        found.push(mirror);
                        break;
                    }
                }
                break;
            }
        }
    }
    found
}

/// An exact integer z != 0 with rows . z = 0, free at the `start`-th
/// non-pivot column (modulo their number); `None` if none is found.
fn null_vector(rows: &[Vec<i64>], start: usize) -> Option<Vec<Integer>> {
    let pivots = pivots_mod_p(rows);
    let free: Vec<usize> = (0..rows[0].len()).filter(|c| !pivots.cols.contains(c)).collect();
    let c = *free.get(start % free.len().max(1))?;
    let square: Vec<Vec<i64>> =
        pivots.rows.iter().map(|&i| pivots.cols.iter().map(|&j| rows[i][j]).collect()).collect();
    // M[I, J] x = -M[I, c]; z = x on J, 1 at c (times the denominator).
    let x = PadicSolver::new(&square).ok()?.solve(&pivots.rows.iter().map(|&i| -rows[i][c]).collect::<Vec<_>>());
    let mut z = vec![Integer::from(0); rows[0].len()];
    z[c] = Integer::from(x.denominator.clone());
    for (&j, xj) in pivots.cols.iter().zip(&x.numerators) {
        z[j] = xj.clone();
    }
    let null = rows.iter().all(|row| row.iter().zip(&z).map(|(&m, v)| v * Integer::from(m)).sum::<Integer>() == 0);
    null.then_some(z)
}

/// f(alpha) = sum_k f_k alpha_k.
fn at(f: &[Rational], alpha: &[Rational]) -> Rational {
    f.iter().zip(alpha).map(|(c, a)| c * a).sum()
}

#[test]
fn face_verdicts_and_bounds_agree_on_other_optimal_strategies_of_solved_games() {
    let options = SolveOptions::new(Method::Auto, 1e-10, 100_000);
    // (N with other optimal strategies found, verdicts compared on them, bounds compared, N depending)
    let (mut with_others, mut compared, mut bounded, mut depends) = (0, 0, 0, 0);
    let claims = all_claims();
    for n in 1..=40 {
        let exact = exact_stage(&solve(n, &options, None)).unwrap();
        let alpha = &exact.alpha;
        // The computed alpha is symmetric: its own mirror image would test nothing.
        assert!(alpha.iter().eq(alpha.iter().rev()), "N = {n}");
        let face = AliceFace::new(&exact.value, alpha, &exact.bob).unwrap();
        assert_eq!(face.dimension() == 0, hull::alice_unique(&exact.value, &exact.bob), "N = {n}");
        let others = other_optimal_strategies(&exact.value, alpha, &exact.bob);
        if !others.is_empty() {
            with_others += 1;
            assert!(face.dimension() > 0, "N = {n}: alpha proven unique, yet another optimal strategy");
        }
        for (claim, decided) in claims.iter().zip(decide_all(&face, &claims)) {
            let at = claim.at(n);
            let AtN::Applies(inequalities) = &at else { continue };
            let holds = |a: &[Rational]| inequalities.iter().all(|i| i.holds(a));
            for other in &others {
                match decided.verdict {
                    ClaimVerdict::HoldsForEvery => {
                        assert!(holds(other), "N = {n}: {} holds for every alpha?", decided.name)
                    }
                    ClaimVerdict::FailsForEvery => {
                        assert!(!holds(other), "N = {n}: {} fails for every alpha?", decided.name)
                    }
                    _ => {}
                }
                compared += 1;
            }
            depends += usize::from(decided.verdict == ClaimVerdict::Depends);
            assert!(check_proofs(&face, &at, decided.verdict, &decided.proofs).is_ok(), "N = {n}");
        }
        // Bounds: min and max of alpha_k and of alpha_k - alpha_k+1 hold on every other strategy.
        if face.dimension() > 0 {
            for k in 0..n.min(6) {
                let mut f = vec![Rational::from(0); n];
                f[k] = Rational::from(1);
                if k + 1 < n {
                    f[k + 1] = Rational::from(-1);
                }
                for sign in [1, -1] {
                    let h: Vec<Rational> = f.iter().map(|c| c * Rational::from(sign)).collect();
                    let minimum = face.minimize(&h).unwrap();
                    let point = minimum.point;
                    assert!(face.is_optimal(&point), "N = {n}");
                    assert_eq!(at(&h, &point), minimum.lower.bound, "N = {n}");
                    assert!(face.bound_below(&h).unwrap().bound <= minimum.lower.bound);
                    for other in &others {
                        assert!(at(&h, other) >= minimum.lower.bound, "N = {n}: a bound below another optimum");
                        bounded += 1;
                    }
                }
            }
        }
    }
    eprintln!(
        "N = 1..40: other optimal strategies for {with_others} N; verdicts compared {compared} times, \
         bounds {bounded} times; {depends} verdicts depend on the optimal alpha"
    );
    assert!(with_others > 0 && compared > 0 && bounded > 0);
}

#[test]
fn the_box_proofs_pin_bobs_mixture_exactly_where_alice_is_unique() {
    // From the vertex mixture (no widening): where the face LPs prove every
    // key pinned, the mixture built from their proofs is optimal, holds the
    // vertex's support and pins the hull to alpha*; it exists exactly where
    // a brute-force LP over every tree (N <= 12) or the exact stage's widened
    // mixture (N <= 40) proves alpha unique.
    let options = SolveOptions::new(Method::Auto, 1e-10, 100_000);
    let (mut pinned_count, mut not_unique) = (0, 0);
    let mut previous = None;
    for n in 2..=40 {
        let float = solve(n, &options, previous.as_ref());
        let exact = exact_stage(&float).unwrap();
        previous = Some(float);
        let face = AliceFace::new(&exact.value, &exact.alpha, &exact.bob).unwrap();
        if face.dimension() == 0 {
            continue;
        }
        let unique = if n <= 12 {
            let trees = all_trees(n);
            let value = to_f64(&exact.value);
            (0..n).all(|k| {
                let unit = |sign: f64| -> Vec<f64> { (0..n).map(|j| if j == k { sign } else { 0.0 }).collect() };
                let (low, high) =
                    (brute_force_min(&trees, value, &unit(1.0)), -brute_force_min(&trees, value, &unit(-1.0)));
                high - low < 1e-7
            })
        } else {
            let wider = exact.face_mixture.as_ref().unwrap_or(&exact.bob);
            OptimalFace::new(&exact.value, wider).single_point()
        };
        let pinned = super::pinning::pinned_mixture(&face, &exact.value, &exact.bob).map(|(mixture, _)| mixture);
        if n <= 12 || unique {
            assert_eq!(pinned.is_some(), unique, "N = {n}");
        }
        let Some(pinned) = pinned else {
            not_unique += usize::from(!unique);
            continue;
        };
        certify(&exact.value, &exact.alpha, &pinned).unwrap();
        assert!(OptimalFace::new(&exact.value, &pinned).single_point(), "N = {n}");
        assert!(exact.bob.support().all(|t| pinned.iter().any(|(p, _)| p == t)), "N = {n}");
        pinned_count += 1;
    }
    eprintln!("N = 2..40: {pinned_count} vertex mixtures pinned by the box proofs, {not_unique} faces not a point");
    assert!(pinned_count > 0 && not_unique > 0);
}

#[test]
fn the_widened_mixture_is_optimal_and_its_point_hull_is_proven_by_the_face_lps() {
    let options = SolveOptions::new(Method::Auto, 1e-10, 100_000);
    let (mut narrowed, mut to_a_point) = (0, 0);
    let mut previous = None;
    for n in 1..=60 {
        let float = solve(n, &options, previous.as_ref());
        let exact = exact_stage(&float).unwrap();
        previous = Some(float);
        let vertex_dimension = OptimalFace::new(&exact.value, &exact.bob).dimension();
        let Some(wider) = &exact.face_mixture else { continue };
        // Optimal, at least the vertex's support, and a narrower hull.
        certify(&exact.value, &exact.alpha, wider).unwrap();
        let support = |m: &Mixture| -> std::collections::BTreeSet<Tree> {
            m.iter().filter(|(_, y)| *y > 0u32).map(|(t, _)| t.clone()).collect()
        };
        assert!(support(&exact.bob).is_subset(&support(wider)), "N = {n}");
        let dimension = OptimalFace::new(&exact.value, wider).dimension();
        assert!(dimension < vertex_dimension, "N = {n}: {dimension} vs {vertex_dimension}");
        narrowed += 1;
        if dimension > 0 {
            continue;
        }
        // A point: the face LPs over the vertex's larger hull find every key
        // pinned to alpha*, its minimum equal to its maximum.
        to_a_point += 1;
        let face = AliceFace::new(&exact.value, &exact.alpha, &exact.bob).unwrap();
        for k in 0..n {
            let unit = |sign: i32| -> Vec<Rational> {
                (0..n).map(|j| Rational::from(if j == k { sign } else { 0 })).collect()
            };
            let low = face.bound_below(&unit(1)).unwrap().bound;
            let high = -face.bound_below(&unit(-1)).unwrap().bound;
            assert!(low == exact.alpha[k] && high == exact.alpha[k], "N = {n}, key {}", k + 1);
        }
    }
    eprintln!("N = 1..60: {narrowed} hulls narrowed, {to_a_point} of them to a point");
    assert!(to_a_point > 0);
}
