//! The claim language against a table of good and bad statements, and the
//! built-in conjectures against their definitions written out directly.

use super::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn q(p: i64, d: i64) -> Rational {
    Rational::from_signeds(p, d)
}

fn claim(statement: &str) -> Claim {
    Claim::parse("c", statement, 1, None).unwrap_or_else(|e| panic!("{statement}: {e}"))
}

/// The inequalities at N as (dense g as strings, strict).
fn at(statement: &str, n: usize) -> Result<Vec<(Vec<String>, bool)>, String> {
    match claim(statement).at(n) {
        AtN::Applies(all) => {
            Ok(all.iter().map(|i| (i.dense(n).iter().map(|r| r.to_string()).collect(), i.strict)).collect())
        }
        AtN::NotApplicable(why) => Err(why),
    }
}

fn row(g: &[&str], strict: bool) -> (Vec<String>, bool) {
    (g.iter().map(|s| s.to_string()).collect(), strict)
}

/// A statement, the N to expand it at, and its inequalities (g as strings, strict).
type Case<'s> = (&'s str, usize, Vec<(Vec<String>, bool)>);

#[test]
fn good_statements_expand_to_their_inequalities() {
    let cases: Vec<Case> = vec![
        ("a[1] = a[2] + a[3]", 3, vec![row(&["1", "-1", "-1"], false), row(&["-1", "1", "1"], false)]),
        ("a[1] - 2*a[2] >= 0", 2, vec![row(&["1", "-2"], false)]),
        ("3/2*a[N] < a[1]", 2, vec![row(&["1", "-3/2"], true)]),
        // A constant spreads over the keys: a[1] >= 1/N is (a[1] - 1/N sum a) >= 0.
        ("a[1] >= 1/N", 4, vec![row(&["3/4", "-1/4", "-1/4", "-1/4"], false)]),
        ("a[1] + a[N] >= 2/N", 2, vec![row(&["0", "0"], false)]),
        ("a[1] >= 0.25", 2, vec![row(&["3/4", "-1/4"], false)]),
        // Integer division floors, in indices: a[N/2] at N = 5 is key 2; a[N+1-j].
        ("a[N/2] <= a[(N+1)/2]", 5, vec![row(&["0", "-1", "1", "0", "0"], false)]),
        ("for j in 1..2: a[j] >= a[N+1-j]", 3, vec![row(&["1", "0", "-1"], false), row(&["0", "0", "0"], false)]),
        ("a[-7/2 + 6] > 0", 3, vec![row(&["0", "1", "0"], true)]),
        ("a[N % 3 + 1] > 0", 4, vec![row(&["0", "1", "0", "0"], true)]),
        ("sum(a[j] for j in 1..2) = mean(a[k] for k in [1, 3])", 3, {
            vec![row(&["1/2", "1", "-1/2"], false), row(&["-1/2", "-1", "1/2"], false)]
        }),
        ("sum(j*a[j] for j in 2..3) >= N*a[1]", 3, vec![row(&["-3", "2", "3"], false)]),
        ("for q in [N/2]: a[q] <= a[q-1] and a[q] < a[q+1]", 4, {
            vec![row(&["1", "-1", "0", "0"], false), row(&["0", "-1", "1", "0"], true)]
        }),
        ("0 < a[1] < 1/2", 2, vec![row(&["1", "0"], true), row(&["-1/2", "1/2"], true)]),
        ("a[1] == (a[2])", 2, vec![row(&["1", "-1"], false), row(&["-1", "1"], false)]),
        ("-(a[1] - a[2]) >= +a[2]*2/4", 2, vec![row(&["-1", "1/2"], false)]),
        ("for i in 1..2: for j in i..2: a[i] >= a[j]", 2, {
            vec![row(&["0", "0"], false), row(&["1", "-1"], false), row(&["0", "0"], false)]
        }),
    ];
    for (statement, n, expected) in cases {
        assert_eq!(at(statement, n), Ok(expected), "{statement} at N = {n}");
    }
}

#[test]
fn bad_statements_are_refused_at_the_column_where_they_go_wrong() {
    // (statement, column, words of the message)
    let deep = format!("{}a[1]{} >= 0", "(".repeat(100_000), ")".repeat(100_000));
    let signs = format!("{}a[1] >= 0", "- ".repeat(40));
    let long = format!("{}a[1] >= 0", "a[1] + ".repeat(400));
    let open = "(".repeat(40);
    let cases: Vec<(&str, usize, &str)> = vec![
        (&deep, 2001, "longer than 2000 characters"),
        (&open, 33, "nested deeper than 32 brackets or signs"),
        (&signs, 67, "nested deeper than 32"),
        (&long, 2001, "longer than 2000"),
        ("", 1, "empty"),
        ("a[1]*a[2] >= 0", 6, "not linear"),
        ("a[1] / a[2] >= 1", 8, "dividing by a term in a"),
        ("a[1] >= ", 9, "found the end"),
        ("a[1] a[2]", 6, "expected a relation"),
        ("a[1] != a[2]", 6, "`!=` is not allowed"),
        ("a[1] > 0 or a[2] > 0", 10, "`or` is not allowed"),
        ("b[1] >= 0", 1, "unknown name `b`"),
        ("alpha[1] >= 0", 1, "Alice's probabilities are a[i]"),
        ("a[n] >= 0", 3, "the number of keys is N"),
        ("max(a[1], a[2]) >= 0", 1, "unknown name `max`"),
        ("a[1.5] >= 0", 3, "decimal number where an integer belongs"),
        ("a[a[1]] >= 0", 3, "a[...] where an integer belongs"),
        ("a[1] >= a[2] % 2", 16, "`%` works on integers only"),
        ("sum(a[j] for j in 5..3) >= 0", 19, "the range 5..3 is empty"),
        ("for j in 5..3: a[j] >= 0", 10, "the range 5..3 is empty"),
        ("for j in 1..N: for j in 1..N: a[j] >= 0", 25, "`j` is bound already"),
        ("for N in 1..3: a[N] >= 0", 5, "`N` cannot name a variable"),
        ("1 < 2", 1, "compares numbers only"),
        ("N >= 0", 1, "compares numbers only"),
        ("a[1] >= 0 and", 14, "found the end"),
        ("a[1 >= 0", 5, "expected `]`"),
        ("for j in 1..N a[j] >= 0", 15, "expected `:`"),
        ("for j in 1,N: a[j] >= 0", 11, "expected `..`"),
        ("sum(a[j] for j 1..3) >= 0", 16, "expected `in`"),
        ("a[1] ≥ 0", 6, "write <= or >="),
        ("a[j] >= 0", 3, "unknown name `j`"),
    ];
    for (statement, column, words) in cases {
        let error = Claim::parse("c", statement, 1, None).map(|_| ()).unwrap_err();
        assert!(error.contains(&format!("column {column}: ")), "{statement}: {error}");
        assert!(error.contains(words), "{statement}: {error}");
    }
    // Names and conditions.
    for name in ["", "1st", "a-b", "x y", &"x".repeat(49)] {
        assert!(Claim::parse(name, "a[1] >= 0", 1, None).is_err(), "{name:?}");
    }
    assert!(Claim::parse("ok_Name_2", "a[1] >= 0", 1, None).is_ok());
    let error = Claim::parse("c", "a[1] >= 0", 1, Some("N % 2 = 1")).unwrap_err();
    assert!(error.contains("column 7: a condition compares with `==`"), "{error}");
    let error = Claim::parse("c", "a[1] >= 0", 1, Some("N > a[1]")).unwrap_err();
    assert!(error.contains("column 5: a[...] where an integer belongs"), "{error}");
}

#[test]
fn where_a_claim_does_not_apply_it_says_why() {
    let why = |statement: &str, from: u32, when: Option<&str>, n: usize| match Claim::parse("c", statement, from, when)
        .unwrap()
        .at(n)
    {
        AtN::Applies(_) => "applies".to_string(),
        AtN::NotApplicable(why) => why,
    };
    assert_eq!(why("a[1] >= 0", 5, None, 4), "N < 5 (from)");
    assert_eq!(why("a[1] >= 0", 5, None, 5), "applies");
    assert_eq!(why("a[1] >= 0", 1, Some("N % 2 == 1"), 4), "N % 2 == 1 is false (when)");
    assert_eq!(why("a[1] >= 0", 1, Some("N % 2 == 1 or N > 10 and N < 20"), 12), "applies");
    assert_eq!(why("a[1] >= 0", 1, Some("N / (N - 3) > 0"), 3), "when: `N / (N - 3)` divides by zero");
    assert_eq!(why("a[N+1] >= 0", 1, None, 4), "a[N+1] is key 5, outside 1..4");
    assert_eq!(why("for j in 1..N: a[j+1] >= 0", 1, None, 3), "a[j+1] is key 4, outside 1..3 at j = 3");
    assert_eq!(why("for j in 2..N/4: a[j] >= 0", 1, None, 7), "the range 2..N/4 is 2..1, empty");
    assert_eq!(why("a[1] >= 1/(N-2)", 1, None, 2), "`1/(N-2)` divides by zero");
    // Never a panic, whatever N: indices far outside, big ranges, overflow.
    assert!(why("a[N*N*N*N*N*N*N*N*N*N*N*N*N*N*N] >= 0", 1, None, 4000).contains("overflows"));
    assert!(why("for j in 1..1000000000: a[1] >= 0", 1, None, 4).contains("too many"));
    assert!(why("for i in 1..N: for j in 1..N: for k in 1..N: a[1] >= 0", 1, None, 300).contains("more than"));
}

/// The four built-in conjectures, written out on alpha directly (the
/// definitions of data/conjectures.toml, independently of the language).
fn direct(name: &str, alpha: &[Rational]) -> Option<bool> {
    let n = alpha.len();
    let a = |k: usize| &alpha[k - 1];
    let mean = |keys: std::ops::RangeInclusive<usize>| {
        let count = keys.clone().count() as u64;
        keys.map(a).sum::<Rational>() / Rational::from(count)
    };
    match name {
        "alpha1_eq_alpha2_plus_alpha3" => (n >= 5).then(|| *a(1) == a(2) + a(3)),
        "alpha1_eq_2_alpha2" => (n >= 7).then(|| *a(1) == Rational::from(2) * a(2)),
        "alpha1_largest" => (n >= 4).then(|| (2..n).all(|j| a(1) > a(j))),
        "gilbert_dips" => {
            (n >= 16).then(|| [n / 4, n / 2, 3 * n / 4].iter().all(|&q| mean(q - 2..=q + 2) < mean(4..=n - 3)))
        }
        _ => panic!("{name}"),
    }
}

#[test]
fn the_built_in_conjectures_state_the_definitions() {
    let names: Vec<&str> = builtin().iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["alpha1_eq_alpha2_plus_alpha3", "alpha1_eq_2_alpha2", "alpha1_largest", "gilbert_dips"]);
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mut seen = [[0usize; 2]; 4];
    for n in 1..=40 {
        for trial in 0..40 {
            // Random, symmetric and hand-shaped strategies, so that each conjecture both holds and fails.
            let mut weights: Vec<i64> = (0..n).map(|_| rng.random_range(1..6)).collect();
            match trial % 4 {
                0 => {}
                1 => {
                    weights[0] = 12;
                    if n >= 3 {
                        weights[1] = 6;
                        weights[2] = 6;
                    }
                }
                2 => {
                    for k in [n / 4, n / 2, 3 * n / 4] {
                        if k >= 1 {
                            weights[k - 1] = 1;
                        }
                    }
                    weights[0] = 8;
                }
                _ => weights = (0..n).map(|k| 1 + (k.min(n - 1 - k) % 3) as i64).collect(),
            }
            let total: i64 = weights.iter().sum();
            let alpha: Vec<Rational> = weights.iter().map(|&w| q(w, total)).collect();
            for (c, claim) in builtin().iter().enumerate() {
                let evaluation = claim.evaluate(&alpha);
                let expected = direct(claim.name.as_str(), &alpha);
                assert_eq!(evaluation.applies, expected.is_some(), "{} at N = {n}", claim.name.as_str());
                assert_eq!(evaluation.holds, expected == Some(true), "{} on {alpha:?}", claim.name.as_str());
                if let Some(holds) = expected {
                    seen[c][usize::from(holds)] += 1;
                }
            }
        }
    }
    assert!(seen.iter().all(|s| s[0] > 0 && s[1] > 0), "each conjecture holds and fails somewhere: {seen:?}");
}

#[test]
fn the_detail_names_the_tightest_member() {
    let alpha = [q(4, 16), q(2, 16), q(2, 16), q(1, 16), q(1, 16), q(2, 16), q(4, 16)];
    let largest = builtin_named("alpha1_largest").unwrap().evaluate(&alpha);
    assert!(largest.applies && largest.holds);
    assert_eq!(largest.detail, "5 members; smallest margin on the computed alpha 1.2500e-1 at j = 2");
    let johnson = builtin_named("alpha1_eq_alpha2_plus_alpha3").unwrap().evaluate(&alpha);
    assert_eq!(johnson.detail, "2 members; smallest margin on the computed alpha 0");
}
