//! Bad input: one line on stderr, exit code 2, and finished artifacts untouched.

mod common;
use common::*;

const GOOD: &str = "[risk]\nlong_run = true\nvalue_iteration = { horizon = 20 }\n";
/// A finished higher-lower run with a claim of its own, for `gamesweep conjecture`'s bad inputs.
const HIGHER_LOWER: &str = "[higher_lower]\nn = { from = 1, to = 8 }\nchunk = 4\n[[higher_lower.conjectures]]\nname = \"taken\"\nstatement = \"a[1] >= a[2]\"\n";

/// Splits an argument line like a shell: whitespace separates, double quotes group ("" is an empty argument).
fn split_args(line: &str) -> Vec<String> {
    let (mut args, mut current, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '"' => (quoted, any) = (!quoted, true),
            c if c.is_whitespace() && !quoted => {
                if any {
                    args.push(std::mem::take(&mut current));
                }
                any = false;
            }
            c => (current, any) = (current + &c.to_string(), true),
        }
    }
    if any {
        args.push(current);
    }
    args
}

/// Every case of `tests/bad_inputs/`: the configs (each names its exit code and
/// a fragment of its message in its first lines) run into the output of a
/// finished run, and the argument lines. Each bad input exits with its code
/// and one line naming what is wrong, and nothing already written changes.
#[test]
fn bad_input_corpus_is_one_line_exit_2_and_harmless() {
    let tmp = TempDir::new("bad");
    let good = tmp.config("good.toml", GOOD);
    let out = tmp.join("out");
    let o = out.to_str().unwrap();
    assert!(run(&["run", good.to_str().unwrap(), "--out", o]).status.success());
    let hl = tmp.join("hl");
    let hl_config = tmp.config("hl.toml", HIGHER_LOWER);
    assert!(run(&["run", hl_config.to_str().unwrap(), "--out", hl.to_str().unwrap()]).status.success());
    let hl_before = snapshot(&hl);
    let file = tmp.config("a-file", "not a directory");
    std::fs::create_dir_all(tmp.join("empty")).unwrap();
    // An output directory whose scratch space `.tmp` is a plain file.
    std::fs::create_dir_all(tmp.join("scratch-is-a-file")).unwrap();
    std::fs::write(tmp.join("scratch-is-a-file/.tmp"), "not a directory").unwrap();
    let before = snapshot(&out);
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad_inputs");

    let mut cases = 0;
    let mut configs: Vec<_> = std::fs::read_dir(corpus.join("configs")).unwrap().map(|e| e.unwrap().path()).collect();
    configs.sort();
    for config in &configs {
        let text = String::from_utf8_lossy(&std::fs::read(config).unwrap()).into_owned();
        let header = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("# {key}: ")))
                .unwrap_or_else(|| panic!("{config:?}: no {key}"))
        };
        let name = config.file_name().unwrap().to_string_lossy().into_owned();
        let output = run(&["run", config.to_str().unwrap(), "--out", o]);
        check(&name, &output, header("exit").parse().unwrap(), &format!("{name}:"));
        check(&name, &output, header("exit").parse().unwrap(), header("error"));
        cases += 1;
    }
    let lines = std::fs::read_to_string(corpus.join("arguments.txt")).unwrap();
    for line in lines.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let [code, fragment, args] = line.splitn(3, " | ").collect::<Vec<_>>()[..] else { panic!("bad line {line:?}") };
        let args: Vec<String> = split_args(args)
            .into_iter()
            .map(|a| {
                a.replace("{good}", good.to_str().unwrap())
                    .replace("{out}", o)
                    .replace("{hl}", hl.to_str().unwrap())
                    .replace("{file}", file.to_str().unwrap())
                    .replace("{empty}", tmp.join("empty").to_str().unwrap())
                    .replace("{scratch-is-a-file}", tmp.join("scratch-is-a-file").to_str().unwrap())
                    .replace("{tmp}", tmp.path().to_str().unwrap())
            })
            .collect();
        let output = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        check(line, &output, code.parse().unwrap(), fragment.trim());
        cases += usize::from(code != "0");
    }
    assert!(cases >= 190, "the corpus has {cases} bad inputs");
    assert_eq!(snapshot(&out), before, "finished artifacts changed");
    assert_eq!(snapshot(&hl), hl_before, "finished higher-lower artifacts changed");
}

fn check(name: &str, output: &std::process::Output, code: i32, expected: &str) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(code), "{name}: {err}");
    if code == 0 {
        let out = String::from_utf8_lossy(&output.stdout);
        assert!(out.contains(expected), "{name}: {out:?} lacks {expected:?}");
        return;
    }
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

/// Runs `gamesweep ARGS`, failing the test if it has not exited after
/// `limit` (a hang, or work quadratic in the input, is the bug caught here).
fn run_within(limit: std::time::Duration, args: &[&str]) -> std::process::Output {
    let mut child =
        binary().args(args).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            child.kill().unwrap();
            panic!("gamesweep {:?} still running after {limit:?}", &args[..1]);
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// Inputs too big for the corpus files, made here: each is refused in one
/// short line with exit 2, promptly and without a crash.
#[test]
fn huge_inputs_are_refused_in_one_short_line() {
    let tmp = TempDir::new("huge");
    let limit = std::time::Duration::from_secs(60);
    let key = "k".repeat(1 << 20);
    let pots: Vec<String> = (1..=1_000_000).map(|k| format!("\"{k}/100\"")).collect();
    let goals: Vec<String> = (0..1_000_000).map(|k| format!("[{}, {}]", k / 1000, k % 1000)).collect();
    let cases = [
        ("a 1 MiB unknown key", format!("[risk]\n{key} = 1\n"), "unknown field"),
        // The duplicate check is O(n log n): pairwise it took minutes.
        (
            "10^6 pots, one twice",
            format!("[fritzen]\ngoals = [[1, 1]]\npot = [{}, \"2/200\"]\n", pots.join(", ")),
            "duplicate value 0.01",
        ),
        (
            "10^6 distinct goals",
            format!("[fritzen]\ngoals = [{}]\n", goals.join(", ")),
            "1000000 goals listed, at most 100000",
        ),
        (
            "100,000 parentheses",
            format!(
                "[higher_lower]\nn = 5\n[[higher_lower.conjectures]]\nname = \"deep\"\nstatement = \"{}a[1]{} >= 0\"\n",
                "(".repeat(100_000),
                ")".repeat(100_000)
            ),
            "longer than 2000 characters",
        ),
    ];
    for (what, text, expected) in cases {
        let config = tmp.config("huge.toml", &text);
        let output = run_within(limit, &["plan", config.to_str().unwrap()]);
        let err = stderr(&output);
        assert_eq!(output.status.code(), Some(2), "{what}: {}", &err[..err.len().min(500)]);
        assert!(err.len() < 1000 && err.trim_end().lines().count() == 1, "{what}: {} bytes", err.len());
        assert!(err.contains(expected), "{what}: {err}");
    }
}
