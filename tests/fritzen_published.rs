//! Fritzen against the numbers the thesis prints (data/reference/published.toml):
//! U_x to three decimals, the state counts, and the optimal probabilities of
//! the three indicator goals to two decimals of a percent. All computed.

use gamesweep::exact::{Rational, to_f64};
use gamesweep::games::fritzen::dp::solve;
use gamesweep::games::fritzen::model::Model;
use gamesweep::games::fritzen::penalty::expected_penalties;
use gamesweep::published;

#[test]
fn u_x_to_the_printed_digits() {
    let printed = published::section("fritzen")["u"].as_array().unwrap();
    let u: [Rational; 7] = expected_penalties();
    for (x, p) in printed.iter().enumerate() {
        let p = p.as_str().unwrap();
        let digits = p.split('.').nth(1).map_or(0, str::len);
        assert_eq!(format!("{:.digits$}", to_f64(&u[x])), p, "U_{x}");
    }
}

#[test]
fn state_counts() {
    let model = Model::new();
    let thesis = published::section("fritzen");
    let count = |key: &str| thesis[key].as_integer().unwrap() as usize;
    assert_eq!(model.normal_states(), count("normal_states"));
    assert_eq!(model.street_states(), count("street_states"));
    let first: Vec<_> = model.throws[6].iter().map(|(d, _)| *d).collect();
    assert_eq!(first.len(), count("first_throws"));
    assert_eq!(first.iter().filter(|d| d.pips() <= 10).count(), count("first_throws_at_most_10"));
    assert_eq!(first.iter().filter(|d| d.pips() >= 30).count(), count("first_throws_at_least_30"));
}

#[test]
fn optimal_probabilities_of_the_three_goals() {
    let model = Model::new();
    let thesis = published::section("fritzen");
    // Minimising -1 on success: minus the optimum is the best probability.
    let best = |holds: &dyn Fn(u32) -> bool| {
        let solution = solve(&model, |a| Rational::from(-i64::from(u8::from(holds(a.pips())))), Rational::from(0));
        format!("{:.2}", -100.0 * to_f64(&solution.normal_turn(&model)))
    };
    assert_eq!(best(&|t| t <= 10), published::text(thesis, "p_t_le_10"));
    assert_eq!(best(&|t| t >= 30), published::text(thesis, "p_t_ge_30"));
    assert_eq!(best(&|t| t <= 10 || t >= 30), published::text(thesis, "p_no_own_penalty"));
}
