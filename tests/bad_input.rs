//! Bad input: one line on stderr, exit code 2, and finished artifacts untouched.

mod common;
use common::*;

const GOOD: &str = "[risk]\nlong_run = true\nvalue_iteration = { horizon = 20 }\n";

#[test]
fn bad_input_is_one_line_exit_2_and_harmless() {
    let tmp = TempDir::new("bad");
    let good = tmp.config("good.toml", GOOD);
    let out = tmp.join("out");
    let o = out.to_str().unwrap();
    assert!(run(&["run", good.to_str().unwrap(), "--out", o]).status.success());
    let before = snapshot(&out);

    let cases: Vec<(&str, Option<&str>, Vec<&str>, &str)> = vec![
        (
            "unknown key",
            Some("[risk]\nlong_run = true\nlong_rum = true\n"),
            vec![],
            "3:1: risk.long_rum: unknown field `long_rum`",
        ),
        (
            "unknown section",
            Some("[riks]\nlong_run = true\n"),
            vec![],
            "1:2: riks: unknown key, expected one of `output`, `higher_lower`, `fritzen`, `cards`, `nim`, `turtles`, `risk`",
        ),
        (
            "wrong type",
            Some("[risk]\nvalue_iteration = { horizon = \"ten\" }\n"),
            vec![],
            "2:31: risk.value_iteration.horizon: invalid type: string \"ten\"",
        ),
        (
            "zero horizon",
            Some("[risk]\nvalue_iteration = { horizon = 0 }\n"),
            vec![],
            "risk.value_iteration.horizon: invalid value: integer `0`, expected an integer from 1 to 10000",
        ),
        (
            "negative horizon",
            Some("[risk.value_iteration]\nhorizon = -5\n"),
            vec![],
            "2:11: risk.value_iteration.horizon: invalid value: integer `-5`, expected an integer from 1 to 10000",
        ),
        (
            "too many armies",
            Some("[risk.battles]\nattackers = 1000\ndefenders = 5\n"),
            vec![],
            "risk.battles.attackers: invalid value: integer `1000`, expected an integer from 2 to 300",
        ),
        (
            "unknown rule",
            Some("[risk.battles]\nattackers = 10\ndefenders = 5\ndefender = [\"greedy\"]\n"),
            vec![],
            "unknown variant `greedy`, expected `max-dice` or `optimal`",
        ),
        ("syntax", Some("[risk\n"), vec![], "bad.toml:1:"),
        ("empty config", Some("output = \"x\"\n"), vec![], "no tasks"),
        (
            "N = 0",
            Some("[higher_lower]\nn = [0, 5]\n"),
            vec![],
            "2:5: higher_lower.n: invalid value: integer `0`, expected an integer from 1 to 4096",
        ),
        (
            "N above max_n",
            Some("[higher_lower]\nmax_n = 500\nn = { from = 1, to = 600 }\n"),
            vec![],
            "3:1: higher_lower.n: N = 501 is above max_n = 500 (raise max_n, at most 4096, to allow it)",
        ),
        (
            "unknown method",
            Some("[higher_lower]\nn = 5\nmethods = [\"simplex\"]\n"),
            vec![],
            "unknown variant `simplex`, expected one of `dresher`, `fast-pricing`, `guess`, `auto`",
        ),
        (
            "zero tolerance",
            Some("[higher_lower]\nn = 5\ntolerance = 0.0\n"),
            vec![],
            "higher_lower.tolerance: invalid value 0, expected a tolerance in (0, 0.1]",
        ),
        (
            "negative tolerance",
            Some("[higher_lower]\nn = 5\ntolerance = -1e-9\n"),
            vec![],
            "expected a tolerance in (0, 0.1]",
        ),
        (
            "negative lambda",
            Some("[fritzen]\nlambda = -1\nmu = 1\n"),
            vec![],
            "2:10: fritzen.lambda: -1 is out of range, expected a number from 0 to 1000",
        ),
        ("lambda without mu", Some("[fritzen]\nlambda = [1, 2]\n"), vec![], "fritzen.lambda: lambda needs mu as well"),
        (
            "bad fraction",
            Some("[fritzen]\ngoals = [[1, \"1/0\"]]\n"),
            vec![],
            "2:14: fritzen.goals[0][1]: \"1/0\" is not a number",
        ),
        (
            "goal out of range",
            Some("[fritzen]\ngoals = [[1, 5000]]\n"),
            vec![],
            "fritzen.goals: mu = 5000 is out of range, expected a number from 0 to 1000",
        ),
        (
            "mixed table too big",
            Some("[fritzen.simulation]\ngames = 10\nmixed = [[[0, 0]]]\n"),
            vec![],
            "fritzen.simulation.mixed: a table has 1 players, allowed 2 to 6",
        ),
        (
            "unknown rollout policy",
            Some("[fritzen.rollout]\ngoals = [[0, 0]]\nrollouts = 5\npolicies = [\"mcts\"]\n"),
            vec![],
            "unknown variant `mcts`, expected `random` or `highest`",
        ),
        ("malformed shard", None, vec!["--shard", "3/2"], "shard index 3 must be below the shard count 2"),
        ("shard syntax", None, vec!["--shard", "two"], "expected K/N"),
        ("zero jobs", None, vec!["--jobs", "0"], "--jobs"),
    ];
    for (name, config, extra, expected) in cases {
        let path = match config {
            Some(text) => tmp.config("bad.toml", text),
            None => good.clone(),
        };
        let mut args = vec!["run", path.to_str().unwrap(), "--out", o];
        args.extend(extra);
        check(name, &run(&args), expected);
    }
    check(
        "missing file",
        &run(&["run", tmp.join("nope.toml").to_str().unwrap(), "--out", o]),
        "nope.toml: cannot read config file",
    );
    check("verify missing dir", &run(&["verify", tmp.join("nowhere").to_str().unwrap()]), "no such output directory");
    check("bad die", &run(&["risk", "defend", "--attack", "7,1"]), "is not a die value (allowed: 1 to 6)");
    check(
        "dice vs armies",
        &run(&["risk", "defend", "--attack", "6,1", "--attackers", "10", "--defenders", "3"]),
        "throws 3 dice, got 2",
    );
    check("battle range", &run(&["risk", "battle", "--attackers", "1", "--defenders", "3"]), "--attackers");
    let advise = |aside: &str, throw: &str| run(&["fritzen", "advise", "--aside", aside, "--throw", throw]);
    check("fritzen: a 7", &advise("2,4", "3,4,7,1"), "--throw: \"7\" is not a die (allowed: 1 to 6)");
    check("fritzen: empty throw", &advise("2,4", ""), "--throw: no dice given");
    check("fritzen: five dice", &advise("2,4", "3,4,4"), "2 dice aside and 3 thrown make 5, a turn has exactly 6 dice");
    check("fritzen: seven dice", &advise("", "1,1,1,1,1,1,1"), "at most 6 allowed");
    check("fritzen: bad lambda", &run(&["fritzen", "advise", "--lambda", "x", "--throw", "1,2,3,4,5,6"]), "--lambda");

    assert_eq!(snapshot(&out), before, "finished artifacts changed");
}

fn check(name: &str, output: &std::process::Output, expected: &str) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(2), "{name}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{name}: not one line: {err}");
    assert!(err.contains(expected), "{name}: {err:?} lacks {expected:?}");
}

#[test]
fn queries_answer() {
    let policy = run(&["risk", "policy"]);
    assert!(policy.status.success());
    let text = String::from_utf8_lossy(&policy.stdout);
    assert!(text.contains("two dice exactly when the second attack die is at most 3"), "{text}");
    assert!(text.contains("1943/3888 = 0.499743"), "{text}");
    let defend = run(&["risk", "defend", "--attack", "6,4,1"]);
    assert!(String::from_utf8_lossy(&defend.stdout).contains("Against 6-4: defend with one die"));
    let defend = run(&["risk", "defend", "--attack", "6,3,3"]);
    assert!(String::from_utf8_lossy(&defend.stdout).contains("Against 6-3: defend with two dice"));
    let battle = run(&["risk", "battle", "--attackers", "2", "--defenders", "1"]);
    assert!(String::from_utf8_lossy(&battle.stdout).contains("conquest probability: 0.416667  exact 5/12"));
    // The thesis's (1, 1): a first throw of six 2s goes for the street at R = 12.
    let advise = run(&["fritzen", "advise", "--lambda", "1", "--mu", "1", "--throw", "2,2,2,2,2,2"]);
    assert!(advise.status.success());
    assert!(String::from_utf8_lossy(&advise.stdout).contains("Announce a street? yes"), "{advise:?}");
    let advise = run(&["fritzen", "advise", "--lambda", "1", "--mu", "1", "--aside", "2,4,5", "--throw", "3,4,4"]);
    let text = String::from_utf8_lossy(&advise.stdout);
    assert!(text.contains("best (normal): set aside") && text.contains("runner-up:"), "{text}");
}
