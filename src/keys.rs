//! Completeness of stored tables: the keys a table holds (every N, every row
//! index) must be exactly the ones its task planned, each once. Games call
//! this from `Task::verify`, so a deleted, repeated or foreign row fails the
//! check by name instead of being certified.

use crate::game::StoredTask;
use std::collections::{BTreeMap, BTreeSet};

/// Compares the keys of the rows of `table` with the planned keys: `Ok`, or
/// one line naming the first missing, unexpected and repeated key (as
/// `describe` writes them) with how many there are of each.
pub fn exact_keys<K: Ord>(
    table: &str,
    stored: impl IntoIterator<Item = K>,
    planned: impl IntoIterator<Item = K>,
    describe: impl Fn(&K) -> String,
) -> Result<(), String> {
    let planned: BTreeSet<K> = planned.into_iter().collect();
    let mut seen: BTreeMap<K, usize> = BTreeMap::new();
    for key in stored {
        *seen.entry(key).or_default() += 1;
    }
    let missing: Vec<&K> = planned.iter().filter(|k| !seen.contains_key(k)).collect();
    let unexpected: Vec<&K> = seen.keys().filter(|k| !planned.contains(k)).collect();
    let repeated: Vec<&K> = seen.iter().filter(|(_, c)| **c > 1).map(|(k, _)| k).collect();
    let mut problems = Vec::new();
    for (keys, what) in [(missing, "missing"), (unexpected, "not planned"), (repeated, "stored more than once")] {
        if let Some(first) = keys.first() {
            let more = if keys.len() > 1 { format!(" (and {} more)", keys.len() - 1) } else { String::new() };
            problems.push(format!("{} {what}{more}", describe(first)));
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(format!("{table}: {}", problems.join("; "))) }
}

/// The task's stored tables are exactly `planned` (none missing, none extra).
pub fn exact_tables(stored: &StoredTask, planned: &[&str]) -> Result<(), String> {
    exact_keys("the task", stored.tables.keys().map(String::as_str), planned.iter().copied(), |t| format!("table {t}"))
}

/// As [`exact_keys`], and the rows in the planned order (games that match
/// rows by position, such as 462 first throws per setting, need both).
pub fn exact_sequence<K: Ord + Clone>(
    table: &str,
    stored: Vec<K>,
    planned: Vec<K>,
    describe: impl Fn(&K) -> String,
) -> Result<(), String> {
    exact_keys(table, stored.iter().cloned(), planned.iter().cloned(), &describe)?;
    match stored.iter().zip(&planned).position(|(s, p)| s != p) {
        Some(row) => {
            Err(format!("{table}: row {row} holds {}, planned {}", describe(&stored[row]), describe(&planned[row])))
        }
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(k: &u32) -> String {
        format!("N = {k}")
    }

    #[test]
    fn names_missing_foreign_and_repeated_keys() {
        assert_eq!(exact_keys("values", [3, 1, 2], 1..=3, n), Ok(()));
        assert_eq!(exact_keys("values", [1, 3], 1..=3, n).unwrap_err(), "values: N = 2 missing");
        assert_eq!(
            exact_keys("values", [1, 2, 2, 3, 9], 1..=4, n).unwrap_err(),
            "values: N = 4 missing; N = 9 not planned; N = 2 stored more than once"
        );
        assert_eq!(exact_keys("alice", [1], 1..=5, n).unwrap_err(), "alice: N = 2 missing (and 3 more)");
        assert_eq!(exact_keys("empty", Vec::<u32>::new(), Vec::new(), n), Ok(()));
        assert_eq!(exact_sequence("t", vec![1, 2, 3], vec![1, 2, 3], n), Ok(()));
        assert_eq!(
            exact_sequence("t", vec![1, 3, 2], vec![1, 2, 3], n).unwrap_err(),
            "t: row 1 holds N = 3, planned N = 2"
        );
        assert_eq!(exact_sequence("t", vec![1, 3], vec![1, 2, 3], n).unwrap_err(), "t: N = 2 missing");
    }
}
