//! TOML sweep configs: loading, top-level keys, and typed per-game sections.
//!
//! The file is parsed once; each game then deserializes only its own section
//! (the orchestrator knows section names, never their contents). Every error
//! becomes one line `file:line:column: key.path: message`.

use crate::error::UserError;
use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use sha2::{Digest, Sha256};
use std::fmt;
use std::marker::PhantomData;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Top-level keys that belong to the run itself rather than to a game.
const RUN_KEYS: &[&str] = &["output"];

/// A config file, parsed and fingerprinted.
pub struct ConfigFile {
    pub path: PathBuf,
    text: String,
    /// Hex SHA-256 of the file's bytes, recorded in the manifest.
    pub sha256: String,
    /// The top-level keys in file order, with the span of each key.
    keys: Vec<(String, Range<usize>)>,
    /// Default output directory (`output = "..."`), relative to the working directory.
    pub output: Option<PathBuf>,
}

impl ConfigFile {
    /// Reads and parses `path`; fails on unreadable files and TOML syntax errors.
    pub fn load(path: &Path) -> Result<Self, UserError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| UserError::new(format!("{}: cannot read config file: {e}", path.display())))?;
        Self::from_text(path, text)
    }

    pub fn from_text(path: &Path, text: String) -> Result<Self, UserError> {
        let sha256 = Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        let mut file = ConfigFile { path: path.to_path_buf(), text, sha256, keys: Vec::new(), output: None };
        let table = toml::de::DeTable::parse(&file.text).map_err(|e| file.toml_error(&e, None))?;
        file.keys = table.get_ref().iter().map(|(k, _)| (k.get_ref().to_string(), k.span())).collect();
        file.output = file.section_value::<PathBuf>("output")?;
        if file.output.as_ref().is_some_and(|o| o.as_os_str().to_string_lossy().trim().is_empty()) {
            let at = file.keys.iter().find(|(k, _)| k == "output").map_or(0, |(_, span)| span.start);
            return Err(file.error_at(at, "output", "an empty path; give a directory (e.g. output = \"data/run\")"));
        }
        Ok(file)
    }

    /// The file's text, as read.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Fails on the first top-level key that is neither a run key nor one of `sections`.
    pub fn check_keys(&self, sections: &[&str]) -> Result<(), UserError> {
        for (key, span) in &self.keys {
            if !RUN_KEYS.contains(&key.as_str()) && !sections.contains(&key.as_str()) {
                let allowed: Vec<_> = RUN_KEYS.iter().chain(sections).map(|k| format!("`{k}`")).collect();
                return Err(self.error_at(
                    span.start,
                    key,
                    &format!("unknown key, expected one of {}", allowed.join(", ")),
                ));
            }
        }
        Ok(())
    }

    /// The section `[name]`, if the file has one.
    pub fn section<'a>(&'a self, name: &'a str) -> Option<Section<'a>> {
        self.keys.iter().any(|(k, _)| k == name).then_some(Section { file: self, name })
    }

    /// Deserializes the value of the top-level key `name`, with error
    /// positions and key paths.
    fn section_value<T: DeserializeOwned>(&self, name: &str) -> Result<Option<T>, UserError> {
        let deserializer = toml::de::Deserializer::parse(&self.text).map_err(|e| self.toml_error(&e, None))?;
        let mut track = serde_path_to_error::Track::new();
        let tracked = serde_path_to_error::Deserializer::new(deserializer, &mut track);
        let seed = PickSection::<T> { name, _value: PhantomData };
        seed.deserialize(tracked).map_err(|e| self.toml_error(&e, Some(track.path().to_string())))
    }

    fn toml_error(&self, error: &toml::de::Error, key_path: Option<String>) -> UserError {
        let at = error.span().map_or(0, |s| s.start);
        let key_path = key_path.filter(|p| p != ".").unwrap_or_default();
        // toml says "duplicate key" without the key: it is the text at the span.
        let message = match error.span().and_then(|span| self.text.get(span)) {
            Some(key) if error.message().trim_end().ends_with("duplicate key") => {
                format!("duplicate key `{}` (each key may appear once per table)", key.trim())
            }
            // toml reads a date-time as a table with one private key; say what it is.
            Some(value)
                if error.message().contains("invalid type: map")
                    && value.trim().parse::<toml::value::Datetime>().is_ok() =>
            {
                error.message().trim_end().replace("invalid type: map", "invalid type: a date-time")
            }
            _ if error.message().contains("$__toml_private_datetime") => {
                "a date or time is no valid value here (write a number, a string, a list or a table)".to_string()
            }
            _ => error.message().trim_end().to_string(),
        };
        self.error_at(at, &key_path, &in_config_words(&message))
    }

    fn error_at(&self, offset: usize, key_path: &str, message: &str) -> UserError {
        let (line, column) = line_column(&self.text, offset);
        let key_path = if key_path.is_empty() { String::new() } else { format!("{key_path}: ") };
        UserError::new(format!("{}:{line}:{column}: {key_path}{message}", self.path.display()))
    }
}

/// serde's words for types (`struct RiskConfig`, `f64`, `map`) in the
/// words of a config file, so that no message names a Rust type.
fn in_config_words(message: &str) -> String {
    let mut words =
        message.replace("expected f64", "expected a number").replace("invalid type: map", "invalid type: table");
    if let Some(at) = words.find("expected struct ") {
        let end =
            words[at + 16..].find(|c: char| !c.is_alphanumeric() && c != '_').map_or(words.len(), |e| at + 16 + e);
        words.replace_range(at..end, "expected a table ([section] or { key = value })");
    }
    words
}

/// One game's section of a config file.
pub struct Section<'a> {
    file: &'a ConfigFile,
    name: &'a str,
}

impl Section<'_> {
    /// Deserializes the section into the game's typed config.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, UserError> {
        self.file
            .section_value::<T>(self.name)?
            .ok_or_else(|| UserError::new(format!("{}: missing section [{}]", self.file.path.display(), self.name)))
    }

    /// An error about the value at `keys` inside this section (checks that
    /// need several fields at once), located at that key in the file.
    pub fn invalid(&self, keys: &[&str], message: &str) -> UserError {
        let path: Vec<&str> = std::iter::once(self.name).chain(keys.iter().copied()).collect();
        let offset = toml::de::DeTable::parse(&self.file.text).ok().and_then(|root| {
            let mut table = root.get_ref();
            let mut found = None;
            for key in &path {
                let (k, v) = table.get_key_value(*key)?;
                found = Some(k.span().start);
                match v.get_ref() {
                    toml::de::DeValue::Table(inner) => table = inner,
                    _ => break,
                }
            }
            found
        });
        self.file.error_at(offset.unwrap_or(0), &path.join("."), message)
    }
}

/// 1-based line and column of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Deserializes the value of one top-level key and skips the others, so
/// that errors keep their positions in the whole file.
struct PickSection<'n, T> {
    name: &'n str,
    _value: PhantomData<T>,
}

impl<'de, T: DeserializeOwned> DeserializeSeed<'de> for PickSection<'_, T> {
    type Value = Option<T>;
    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, T: DeserializeOwned> Visitor<'de> for PickSection<'_, T> {
    type Value = Option<T>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a TOML document")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == self.name {
                found = Some(map.next_value::<T>()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Bounded;
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    struct Demo {
        horizon: Bounded<1, 100>,
    }

    fn file(text: &str) -> Result<ConfigFile, UserError> {
        ConfigFile::from_text(Path::new("demo.toml"), text.to_string())
    }

    #[test]
    fn parses_a_section_and_run_keys() {
        let f = file("output = \"data/x\"\n[demo]\nhorizon = 5\n").unwrap();
        assert_eq!(f.output.as_deref(), Some(Path::new("data/x")));
        let demo: Demo = f.section("demo").unwrap().parse().unwrap();
        assert_eq!(demo.horizon.get(), 5);
        assert!(f.section("other").is_none());
    }

    #[test]
    fn errors_name_file_line_column_and_key() {
        let f = file("[demo]\nhorizon = 0\n").unwrap();
        let e = f.section("demo").unwrap().parse::<Demo>().unwrap_err().to_string();
        assert!(e.starts_with("demo.toml:2:11: demo.horizon: "), "{e}");
        assert!(e.contains("from 1 to 100"), "{e}");

        let f = file("[demo]\nhorizon = 5\nhorizn = 3\n").unwrap();
        let e = f.section("demo").unwrap().parse::<Demo>().unwrap_err().to_string();
        assert!(e.starts_with("demo.toml:3:1: demo.horizn: unknown field `horizn`, expected `horizon`"), "{e}");

        let f = file("[demo]\nhorizon = \"ten\"\n").unwrap();
        let e = f.section("demo").unwrap().parse::<Demo>().unwrap_err().to_string();
        assert!(e.starts_with("demo.toml:2:11: demo.horizon: invalid type: string"), "{e}");
    }

    #[test]
    fn locates_errors_found_after_parsing() {
        let f = file("[demo]\nhorizon = 5\n\n[demo.inner]\nlimit = 3\n").unwrap();
        let section = f.section("demo").unwrap();
        let e = section.invalid(&["inner", "limit"], "is below the horizon").to_string();
        assert_eq!(e, "demo.toml:5:1: demo.inner.limit: is below the horizon");
        let e = section.invalid(&["horizon"], "too big").to_string();
        assert_eq!(e, "demo.toml:2:1: demo.horizon: too big");
    }

    #[test]
    fn rejects_unknown_sections_and_syntax_errors() {
        let f = file("[demo]\nhorizon = 5\n[typo]\nx = 1\n").unwrap();
        let e = f.check_keys(&["demo"]).unwrap_err().to_string();
        assert!(e.starts_with("demo.toml:3:2: typo: unknown key"), "{e}");
        let e = file("[demo\n").err().unwrap().to_string();
        assert!(e.starts_with("demo.toml:1:"), "{e}");
        assert!(!e.contains('\n'));
    }
}
