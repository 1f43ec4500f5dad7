//! Higher-lower against numbers the thesis prints: V(509) as an exact fraction
//! of 100+ digits, and the exact stage on the N that the thesis's floating
//! point lost (485, 528, 530). Computed by the solver, compared as strings.

use gamesweep::exact::format_pq;
use gamesweep::games::higher_lower::exact_stage::{ExactOutcome, exact_stage};
use gamesweep::games::higher_lower::solve::{FloatSolution, Method, SolveOptions, solve};
use gamesweep::published;

fn solved(n: usize, previous: Option<&FloatSolution>) -> (FloatSolution, ExactOutcome) {
    let options = SolveOptions::new(Method::Auto, 1e-10, 10_000_000);
    let float = solve(n, &options, previous);
    let exact = exact_stage(&float).unwrap_or_else(|why| panic!("N = {n}: {why}"));
    (float, exact)
}

#[test]
fn v509_equals_the_fraction_printed_in_the_thesis() {
    let printed = published::text(published::section("higher_lower"), "v509");
    let (_, exact) = solved(509, None);
    assert!(printed.len() > 200, "the printed value has 100+ digits on each side");
    assert_eq!(format_pq(&exact.value), printed);
    assert_eq!(exact.certificate.value, exact.value);
}

#[test]
fn the_thesis_failures_485_528_530_are_certified() {
    for n in [485, 528, 530] {
        let (previous, before) = solved(n - 1, None);
        let (float, exact) = solved(n, Some(&previous));
        assert!(float.warm_started);
        assert_eq!(exact.certificate.value, exact.value, "N = {n}");
        // One more key never makes the game cheaper for Bob.
        assert!(before.value < exact.value, "N = {n}: V(N-1) < V(N)");
    }
}
