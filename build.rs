//! Records the git commit the program is built from (`GAMESWEEP_COMMIT`),
//! for the provenance `gamesweep export` writes into its files: the short
//! hash, with "-dirty" when the sources differ from it, or "unknown" outside
//! a git checkout.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?.trim().to_string();
    (output.status.success() && !text.is_empty()).then_some(text)
}

fn main() {
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(hash) => {
            let clean = Command::new("git")
                .args(["diff", "--quiet", "HEAD", "--", "src", "Cargo.toml", "Cargo.lock", "build.rs"])
                .status()
                .is_ok_and(|s| s.success());
            if clean { hash } else { format!("{hash}-dirty") }
        }
        None => "unknown".to_string(),
    };
    println!("cargo:rustc-env=GAMESWEEP_COMMIT={commit}");
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        for watched in ["HEAD", "index", "refs", "packed-refs"] {
            println!("cargo:rerun-if-changed={dir}/{watched}");
        }
    }
    for watched in ["src", "Cargo.toml", "Cargo.lock", "build.rs"] {
        println!("cargo:rerun-if-changed={watched}");
    }
}
