//! Higher-lower values against two independent formulations solved by
//! microlp (a maintained LP solver): the full matrix game over all
//! Catalan(N) trees, and Bob's behaviour strategy as flows over intervals
//! (O(N^3) variables, the spec's test oracle).

use gamesweep::exact::to_f64;
use gamesweep::games::higher_lower::exact_stage::exact_stage;
use gamesweep::games::higher_lower::solve::{Method, SolveOptions, solve};
use gamesweep::games::higher_lower::tree::all_trees;
use microlp::{ComparisonOp, OptimizationDirection, Problem};

fn ours(n: usize) -> f64 {
    let options = SolveOptions::new(Method::Auto, 1e-10, 100_000);
    to_f64(&exact_stage(&solve(n, &options, None)).expect("exact stage").value)
}

/// Bob minimises u subject to sum_T y_T d_T(k) <= u for every key, y a distribution over all trees.
fn full_game(n: usize) -> f64 {
    let trees = all_trees(n);
    let mut p = Problem::new(OptimizationDirection::Minimize);
    let u = p.add_var(1.0, (0.0, f64::INFINITY));
    let y: Vec<_> = trees.iter().map(|_| p.add_var(0.0, (0.0, 1.0))).collect();
    p.add_constraint(y.iter().map(|v| (*v, 1.0)).collect::<Vec<_>>(), ComparisonOp::Eq, 1.0);
    for k in 0..n {
        let mut row: Vec<_> = y.iter().zip(&trees).map(|(v, t)| (*v, f64::from(t.depths()[k]))).collect();
        row.push((u, -1.0));
        p.add_constraint(&row, ComparisonOp::Le, 0.0);
    }
    p.solve().expect("solvable").into_solution().expect("optimal").objective()
}

/// Flows: x(a,b) = P(the search reaches interval [a,b]), z(a,b,g) = P(it then guesses g).
fn flow_formulation(n: usize) -> f64 {
    let mut p = Problem::new(OptimizationDirection::Minimize);
    let u = p.add_var(1.0, (0.0, f64::INFINITY));
    let mut x = std::collections::HashMap::new();
    let mut z = std::collections::HashMap::new();
    for a in 1..=n {
        for b in a..=n {
            x.insert((a, b), p.add_var(0.0, (0.0, 1.0)));
            for g in a..=b {
                z.insert((a, b, g), p.add_var(0.0, (0.0, 1.0)));
            }
        }
    }
    for a in 1..=n {
        for b in a..=n {
            // Every reached interval makes one guess.
            let mut guesses: Vec<_> = (a..=b).map(|g| (z[&(a, b, g)], 1.0)).collect();
            guesses.push((x[&(a, b)], -1.0));
            p.add_constraint(&guesses, ComparisonOp::Eq, 0.0);
            // [a,b] is reached from [a,b'] guessing b+1 (answer lower) or from [a',b] guessing a-1 (higher).
            if (a, b) == (1, n) {
                p.add_constraint([(x[&(a, b)], 1.0)], ComparisonOp::Eq, 1.0);
            } else {
                let mut inflow: Vec<_> = ((b + 1)..=n).filter(|_| b < n).map(|b2| (z[&(a, b2, b + 1)], 1.0)).collect();
                inflow.extend((1..a).map(|a2| (z[&(a2, b, a - 1)], 1.0)));
                inflow.push((x[&(a, b)], -1.0));
                p.add_constraint(&inflow, ComparisonOp::Eq, 0.0);
            }
        }
    }
    for k in 1..=n {
        let mut row: Vec<_> = x.iter().filter(|((a, b), _)| *a <= k && k <= *b).map(|(_, v)| (*v, 1.0)).collect();
        row.push((u, -1.0));
        p.add_constraint(&row, ComparisonOp::Le, 0.0);
    }
    p.solve().expect("solvable").into_solution().expect("optimal").objective()
}

#[test]
fn values_match_the_full_game_over_all_trees() {
    for n in 1..=8 {
        let (a, b) = (ours(n), full_game(n));
        assert!((a - b).abs() < 1e-7, "N = {n}: ours {a}, full game {b}");
    }
}

#[test]
fn values_match_the_flow_formulation() {
    for n in 1..=14 {
        let (a, b) = (ours(n), flow_formulation(n));
        assert!((a - b).abs() < 1e-7, "N = {n}: ours {a}, flows {b}");
    }
}
