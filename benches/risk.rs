//! Risk benchmarks: the integer-scaled ring Z[1/6] against plain rationals
//! for the exact battle DP and value iteration, and the long-run optimum by
//! Dinkelbach's method against full enumeration. Run: `cargo bench --bench risk`.

mod common;
use common::{compare, median_seconds};
use gamesweep::exact::{DiceRational, Rational};
use gamesweep::games::risk::battle::{Battles, DefenderRule};
use gamesweep::games::risk::long_run::{enumerate_policies, optimum, roll_costs};
use gamesweep::games::risk::value_iteration::value_iteration;

fn main() {
    for rule in [DefenderRule::MaxDice, DefenderRule::Optimal] {
        compare(
            &format!("battles 100 x 100, defender {}", rule.as_str()),
            &[
                ("DiceRational (run)", median_seconds(5, || Battles::<DiceRational>::solve(100, 100, rule))),
                ("Rational (verify)", median_seconds(3, || Battles::<Rational>::solve(100, 100, rule))),
                ("f64 (for scale)", median_seconds(5, || Battles::<f64>::solve(100, 100, rule))),
            ],
        );
    }
    let costs = roll_costs();
    compare(
        "value iteration, horizon 1000",
        &[
            ("f64 (run)", median_seconds(11, || value_iteration::<f64>(&costs, 1000))),
            ("DiceRational (verify)", median_seconds(5, || value_iteration::<DiceRational>(&costs, 1000))),
            ("Rational", median_seconds(3, || value_iteration::<Rational>(&costs, 1000))),
        ],
    );
    compare(
        "long-run optimum",
        &[
            ("Dinkelbach, exact", median_seconds(11, || optimum(&costs))),
            ("all 2^21 policies, integers", median_seconds(5, || enumerate_policies(&costs))),
        ],
    );
}
