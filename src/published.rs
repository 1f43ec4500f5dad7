//! The published numbers of `data/reference/published.toml`, embedded in the
//! binary for the report's "published" column. Solvers never read them.

use std::sync::OnceLock;

const TEXT: &str = include_str!("../data/reference/published.toml");

/// The published values of one game (its `[game]` table).
pub fn section(game: &str) -> &'static toml::Table {
    static TABLE: OnceLock<toml::Table> = OnceLock::new();
    let all = TABLE.get_or_init(|| TEXT.parse().expect("data/reference/published.toml is valid TOML"));
    all.get(game).and_then(toml::Value::as_table).unwrap_or_else(|| panic!("no [{game}] in published.toml"))
}

/// A published value as text (strings as written, numbers formatted).
pub fn text(table: &toml::Table, key: &str) -> String {
    match table.get(key) {
        Some(toml::Value::String(s)) => s.clone(),
        Some(value) => value.to_string(),
        None => panic!("published.toml lacks {key}"),
    }
}

/// A published table of integers (a list of integer rows, e.g. Table 3.1's ranges).
pub fn integer_rows(table: &toml::Table, key: &str) -> Vec<Vec<i64>> {
    let rows = table.get(key).and_then(toml::Value::as_array).unwrap_or_else(|| panic!("{key} is not a list"));
    rows.iter()
        .map(|row| {
            let row = row.as_array().unwrap_or_else(|| panic!("{key}: rows are lists"));
            row.iter().map(|v| v.as_integer().unwrap_or_else(|| panic!("{key}: integers"))).collect()
        })
        .collect()
}
