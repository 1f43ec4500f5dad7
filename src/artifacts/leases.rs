//! Leases: a lease file per task being computed, so that two runs on one
//! directory (a resubmitted job array while the first still runs, or two
//! shells) split the work instead of both computing every task.
//!
//! ```text
//! DIR/.claims/<game>/<task>.json   {host, pid, token, claimed_unix} of the process computing it
//! ```
//!
//! The directory keeps the name `.claims` (a run claims a task by writing
//! its lease there), and the lease file its field `claimed_unix`, so that
//! directories written by earlier versions are read alike.
//!
//! A lease is created complete or not at all: written in the scratch
//! directory, then hard-linked into place, which fails if a lease exists
//! (atomic on local file systems and NFS alike). The holder refreshes the
//! file's modification time every [`HEARTBEAT`]; a lease is stale when its
//! heartbeat is older than [`STALE_AFTER`], whatever its pid says (after a
//! restart a pid may belong to another process), or when its process is gone
//! (same host: no such pid), and a stale lease is taken over. Leases
//! only save work: tasks are deterministic and every write is atomic, so in
//! the rare race where two processes take over one stale lease together both
//! compute the task and the second write replaces an identical first.

use super::{OutputDir, host_name, remove_if_present, unix_now};
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::{Duration, SystemTime};

/// How often a running process refreshes its leases.
pub const HEARTBEAT: Duration = Duration::from_secs(20);
/// A lease without a heartbeat for this long is stale (on any host).
pub const STALE_AFTER: Duration = Duration::from_secs(120);

/// The content of a lease file.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct LeaseFile {
    host: String,
    pid: u32,
    /// Unique per lease taken, so a process never releases a lease it lost.
    token: String,
    claimed_unix: u64,
}

/// The answer to a request for a task's lease.
pub enum Acquisition {
    /// This process holds the task's lease until it calls [`Leases::release`].
    Acquired,
    /// Another live process holds it (described for messages).
    HeldBy(String),
}

/// The leases this process holds in one output directory.
pub struct Leases<'a> {
    out: &'a OutputDir,
    /// Lease path -> token.
    held: Mutex<BTreeMap<PathBuf, String>>,
}

impl<'a> Leases<'a> {
    pub fn new(out: &'a OutputDir) -> Self {
        Leases { out, held: Mutex::new(BTreeMap::new()) }
    }

    fn path(&self, game: &str, task: &str) -> PathBuf {
        self.out.root().join(".claims").join(game).join(format!("{task}.json"))
    }

    /// Takes a task's lease if it is free or stale, or says who holds it.
    pub fn acquire(&self, game: &str, task: &str) -> anyhow::Result<Acquisition> {
        let path = self.path(game, task);
        let n = self.out.counter.fetch_add(1, Ordering::Relaxed);
        let token = format!("{}-{}-{n}", host_name(), std::process::id());
        let lease =
            LeaseFile { host: host_name(), pid: std::process::id(), token: token.clone(), claimed_unix: unix_now() };
        for _attempt in 0..2 {
            if self.create(&path, &lease)? {
                self.held.lock().unwrap().insert(path, token);
                return Ok(Acquisition::Acquired);
            }
            match holder(&path) {
                Holder::Gone => continue,
                Holder::Live(who) => return Ok(Acquisition::HeldBy(who)),
                Holder::Stale(who) => {
                    eprintln!("taking over {game}/{task} from {who} (stale lease)");
                    remove_if_present(&path)?;
                }
            }
        }
        Ok(Acquisition::HeldBy("another process that took its lease at the same moment".into()))
    }

    /// Writes the lease in scratch space and links it into place; `false` if a lease exists.
    fn create(&self, path: &Path, lease: &LeaseFile) -> anyhow::Result<bool> {
        let n = self.out.counter.fetch_add(1, Ordering::Relaxed);
        let tmp = self.out.scratch.join(format!("lease-{n}.tmp"));
        let result = (|| {
            std::fs::create_dir_all(&self.out.scratch)?;
            std::fs::create_dir_all(path.parent().expect("a lease has a directory"))?;
            std::fs::write(&tmp, serde_json::to_vec(lease)?)?;
            match std::fs::hard_link(&tmp, path) {
                Ok(()) => Ok(true),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
                Err(e) => Err(anyhow::Error::from(e)),
            }
        })();
        let _ = std::fs::remove_file(&tmp);
        result.with_context(|| format!("taking the lease {}", path.display()))
    }

    /// Whether a live process (this one or another) holds the task's lease.
    pub fn held_by_anyone(&self, game: &str, task: &str) -> bool {
        matches!(holder(&self.path(game, task)), Holder::Live(_))
    }

    /// Gives a task's lease up (after its marker is written, or on failure).
    pub fn release(&self, game: &str, task: &str) {
        let path = self.path(game, task);
        let Some(token) = self.held.lock().unwrap().remove(&path) else { return };
        // Remove only our own lease: a stale one may have been taken over meanwhile.
        if read_lease(&path).is_some_and(|lease| lease.token == token) {
            let _ = std::fs::remove_file(&path);
        }
    }

    /// Refreshes the heartbeat of every lease held.
    pub fn beat(&self) {
        let now = SystemTime::now();
        for path in self.held.lock().unwrap().keys() {
            // Best effort: a missed beat only risks a takeover after STALE_AFTER.
            if let Ok(file) = std::fs::File::options().write(true).open(path) {
                let _ = file.set_modified(now);
            }
        }
    }
}

impl Drop for Leases<'_> {
    fn drop(&mut self) {
        let held: Vec<PathBuf> = self.held.lock().unwrap().keys().cloned().collect();
        for path in held {
            let _ = std::fs::remove_file(path);
        }
    }
}

enum Holder {
    Gone,
    Live(String),
    Stale(String),
}

fn read_lease(path: &Path) -> Option<LeaseFile> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

/// Who holds a lease, and whether it is still alive.
fn holder(path: &Path) -> Holder {
    let Ok(metadata) = std::fs::metadata(path) else { return Holder::Gone };
    let age = metadata.modified().ok().and_then(|m| m.elapsed().ok()).unwrap_or_default();
    match read_lease(path) {
        None => Holder::Stale("an unreadable lease".into()),
        Some(lease) => {
            let who = format!("{} pid {}", lease.host, lease.pid);
            let beating = age < STALE_AFTER;
            let alive = beating && (lease.host != host_name() || Path::new(&format!("/proc/{}", lease.pid)).exists());
            if alive { Holder::Live(who) } else { Holder::Stale(who) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_is_exclusive_until_released_and_a_dead_holder_is_taken_over() {
        let root = std::env::temp_dir().join(format!("gamesweep-leases-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let out = OutputDir::create(&root).unwrap();
        let (first, second) = (Leases::new(&out), Leases::new(&out));
        assert!(matches!(first.acquire("g", "t").unwrap(), Acquisition::Acquired));
        match second.acquire("g", "t").unwrap() {
            Acquisition::HeldBy(who) => assert!(who.contains(&format!("pid {}", std::process::id())), "{who}"),
            Acquisition::Acquired => panic!("leased twice"),
        }
        first.beat();
        first.release("g", "t");
        assert!(matches!(second.acquire("g", "t").unwrap(), Acquisition::Acquired));
        drop(second);
        assert!(!root.join(".claims/g/t.json").exists(), "leases are dropped with their holder");

        // A lease of a process that is gone (pid beyond pid_max) is stale.
        let dead = LeaseFile { host: host_name(), pid: u32::MAX, token: "x".into(), claimed_unix: 0 };
        std::fs::write(root.join(".claims/g/t.json"), serde_json::to_vec(&dead).unwrap()).unwrap();
        let third = Leases::new(&out);
        assert!(matches!(third.acquire("g", "t").unwrap(), Acquisition::Acquired));
        // A live pid whose heartbeat stopped long ago (a pid reused after a restart) is stale.
        let reused = LeaseFile { host: host_name(), pid: std::process::id(), token: "y".into(), claimed_unix: 0 };
        let path = root.join(".claims/g/r.json");
        std::fs::write(&path, serde_json::to_vec(&reused).unwrap()).unwrap();
        let old = SystemTime::now() - 2 * STALE_AFTER;
        std::fs::File::options().write(true).open(&path).unwrap().set_modified(old).unwrap();
        assert!(matches!(third.acquire("g", "r").unwrap(), Acquisition::Acquired));
        // Garbage in a lease file is stale too.
        std::fs::write(root.join(".claims/g/u.json"), b"{not json").unwrap();
        assert!(matches!(third.acquire("g", "u").unwrap(), Acquisition::Acquired));
        drop(third);
        drop(first);
        drop(out);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
