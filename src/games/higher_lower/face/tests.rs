//! The face stage against independent formulations: a brute-force LP with every tree as a row
//! (N <= 9), and optimal strategies of Alice's found another way (N <= 40).
use super::hull::{self, OptimalFace};
use super::polytope::{AliceFace, LowerBound};
use super::verdicts::*;
use crate::exact::{Integer, PadicSolver, Rational, pivots_mod_p, to_f64};
use crate::games::higher_lower::conjectures;
use crate::games::higher_lower::exact_stage::certificate::{certify, common_denominator};
use crate::games::higher_lower::exact_stage::exact_stage;
use crate::games::higher_lower::pricing::monotone_root_dp;
use crate::games::higher_lower::solve::{Method, SolveOptions, solve};
use crate::games::higher_lower::tree::{Tree, all_trees};
use microlp::{ComparisonOp, OptimizationDirection, Problem};

fn q(p: i64, d: i64) -> Rational {
    Rational::from_signeds(p, d)
}

/// max over Alice's optimal strategies, computed another way: one LP with
/// every tree of N keys as a row (alpha >= 0, sum 1, alpha . d_T >= V), and
/// t <= g_i . alpha for each functional, maximising t (microlp).
fn brute_force_max_smallest(n: usize, value: f64, g: &[Vec<f64>]) -> f64 {
    let mut problem = Problem::new(OptimizationDirection::Maximize);
    let alpha: Vec<_> = (0..n).map(|_| problem.add_var(0.0, (0.0, f64::INFINITY))).collect();
    let t = problem.add_var(1.0, (f64::NEG_INFINITY, f64::INFINITY));
    problem.add_constraint(alpha.iter().map(|&a| (a, 1.0)).collect::<Vec<_>>(), ComparisonOp::Eq, 1.0);
    for tree in all_trees(n) {
        let row: Vec<_> = alpha.iter().zip(tree.depths()).map(|(&a, &d)| (a, f64::from(d))).collect();
        problem.add_constraint(row, ComparisonOp::Ge, value - 1e-12);
    }
    for gi in g {
        let mut row: Vec<_> = alpha.iter().zip(gi).map(|(&a, &c)| (a, c)).collect();
        row.push((t, -1.0));
        problem.add_constraint(row, ComparisonOp::Ge, 0.0);
    }
    problem.solve().expect("solved").into_solution().expect("feasible and bounded").objective()
}

#[test]
fn face_optima_equal_a_brute_force_lp_over_every_tree_for_small_n() {
    let options = SolveOptions::new(Method::Auto, 1e-10, 100_000);
    let mut compared = 0;
    for n in 2..=9 {
        let exact = exact_stage(&solve(n, &options, None)).unwrap();
        let face = AliceFace::new(&exact.value, &exact.alpha, &exact.bob).unwrap();
        let value = to_f64(&exact.value);
        // Functionals: alpha_k, alpha_k - alpha_k+1, alpha_1 - alpha_2 - alpha_3, alpha_1 - 2 alpha_2, both signs.
        let mut functionals: Vec<Vec<i64>> = Vec::new();
        for k in 0..n {
            let mut f = vec![0; n];
            f[k] = 1;
            functionals.push(f.clone());
            if k + 1 < n {
                f[k + 1] = -1;
                functionals.push(f);
            }
        }
        functionals.extend(
            ["alpha1_eq_alpha2_plus_alpha3", "alpha1_eq_2_alpha2"]
                .iter()
                .filter_map(|name| conjectures::inequalities(name, n).map(|i| i[0].g.clone())),
        );
        for f in functionals {
            for sign in [1i64, -1] {
                let h: Vec<Rational> = f.iter().map(|&c| Rational::from(c * sign)).collect();
                let ours = face.minimize(&h, true).unwrap().lower.bound;
                let theirs = -brute_force_max_smallest(n, value, &[f.iter().map(|&c| -(c * sign) as f64).collect()]);
                assert!((to_f64(&ours) - theirs).abs() < 1e-7, "N = {n}, h = {f:?} x {sign}: {ours} vs {theirs}");
                compared += 1;
            }
        }
        // Each conjecture's verdict from the brute-force LPs.
        for decided in decide_all(&face).unwrap() {
            let Some(inequalities) = conjectures::inequalities(decided.name, n) else { continue };
            if decided.verdict == NOT_APPLICABLE {
                continue;
            }
            let g: Vec<Vec<f64>> = inequalities.iter().map(|i| i.g.iter().map(|&c| c as f64).collect()).collect();
            let strict = inequalities[0].strict;
            let smallest_min =
                g.iter().map(|gi| -brute_force_max_smallest(n, value, &[gi.iter().map(|c| -c).collect()]));
            let smallest_min = smallest_min.fold(f64::INFINITY, f64::min);
            let largest_smallest = brute_force_max_smallest(n, value, &g);
            let (eps, pos) = (1e-9, |x: f64| if strict { x > 1e-9 } else { x > -1e-9 });
            let expected = if pos(smallest_min) {
                HOLDS_FOR_EVERY
            } else if (strict && largest_smallest <= eps) || (!strict && largest_smallest < -eps) {
                FAILS_FOR_EVERY
            } else {
                DEPENDS
            };
            assert_eq!(decided.verdict, expected, "N = {n}, {}", decided.name);
            assert_eq!(check(&face, decided.name, decided.verdict, &decided.proofs), Ok(()), "N = {n}");
        }
    }
    assert!(compared > 100);
}

#[test]
fn a_hand_made_face_where_alpha1_largest_depends_on_the_optimal_alpha() {
    // N = 4, the seed's example: V = 2, Bob mixes (2,1,3,2) and (2,3,1,2)
    // equally; alpha* = (5, 3, 3, 5)/16 is optimal. Over all optimal alpha,
    // alpha_1 ranges from 1/5 to 3/7 (the brute-force LP test agrees at N = 4).
    let tree = |d: &[u8]| Tree::from_depths(d.to_vec()).unwrap();
    let bob = [(tree(&[2, 1, 3, 2]), q(1, 2)), (tree(&[2, 3, 1, 2]), q(1, 2))];
    let alpha = [q(5, 16), q(3, 16), q(3, 16), q(5, 16)];
    let face = AliceFace::new(&q(2, 1), &alpha, &bob).unwrap();
    assert!(face.is_optimal(&alpha) && face.dimension() == 2);
    let e1 = [q(1, 1), q(0, 1), q(0, 1), q(0, 1)];
    let lowest = face.minimize(&e1, true).unwrap();
    assert_eq!(lowest.lower.bound, q(1, 5));
    assert!(face.is_optimal(lowest.point.as_ref().unwrap()));
    let minus_e1: Vec<Rational> = e1.iter().map(|x| -x.clone()).collect();
    assert_eq!(face.minimize(&minus_e1, true).unwrap().lower.bound, q(-3, 7));
    // alpha1 > alpha_2, alpha_3 holds at alpha*, fails at another optimal alpha.
    let decided = decide_all(&face).unwrap();
    let largest = decided.iter().find(|d| d.name == "alpha1_largest").unwrap();
    assert_eq!(largest.verdict, DEPENDS);
    assert_eq!(check(&face, largest.name, largest.verdict, &largest.proofs), Ok(()));
    let Some(Proof::Witness { holds: false, alpha: Some(other) }) = largest.proofs.get(1) else {
        panic!("{:?}", largest.proofs)
    };
    assert!(face.is_optimal(other) && !(other[0] > other[1] && other[0] > other[2]));
    // Tampered proofs are refused: a witness with the wrong label, a verdict it does not prove.
    let flipped = vec![largest.proofs[0].clone(), Proof::Witness { holds: true, alpha: Some(other.clone()) }];
    assert!(check(&face, largest.name, DEPENDS, &flipped).is_err());
    assert!(check(&face, largest.name, HOLDS_FOR_EVERY, &largest.proofs).is_err());
    // A bound proof with an inflated bound is refused.
    let lower = face.minimize(&e1, false).unwrap().lower;
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
fn other_optimal_strategies(value: &Rational, alpha: &[Rational], bob: &[(Tree, Rational)]) -> Vec<Vec<Rational>> {
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
        for decided in decide_all(&face).unwrap() {
            let Some(inequalities) = conjectures::inequalities(decided.name, n) else { continue };
            let holds = |a: &[Rational]| inequalities.iter().all(|i| i.holds(a));
            for other in &others {
                match decided.verdict {
                    HOLDS_FOR_EVERY => assert!(holds(other), "N = {n}: {} holds for every alpha?", decided.name),
                    FAILS_FOR_EVERY => assert!(!holds(other), "N = {n}: {} fails for every alpha?", decided.name),
                    _ => {}
                }
                compared += 1;
            }
            depends += usize::from(decided.verdict == DEPENDS);
            assert!(check(&face, decided.name, decided.verdict, &decided.proofs).is_ok(), "N = {n}");
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
                    let minimum = face.minimize(&h, true).unwrap();
                    let point = minimum.point.unwrap();
                    assert!(face.is_optimal(&point), "N = {n}");
                    assert_eq!(at(&h, &point), minimum.lower.bound, "N = {n}");
                    assert!(face.minimize(&h, false).unwrap().lower.bound <= minimum.lower.bound);
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
