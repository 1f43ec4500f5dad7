//! The one error kind the user can fix: bad input. It prints as a single
//! line and makes the program exit with code 2; every other failure is an
//! internal error (`anyhow`) with exit code 1.

use std::fmt;

/// A bad config, argument or query, explained in one line that names the
/// field, the bad value and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserError(pub String);

impl UserError {
    pub fn new(message: impl Into<String>) -> Self {
        UserError(message.into())
    }
}

impl fmt::Display for UserError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One line, whatever the source message looked like, and short
        // whatever the user wrote: a long word (a 1 MiB key quoted back) keeps
        // its head and tail, control characters are shown escaped.
        let words: Vec<String> = self.0.split_whitespace().map(shortened).collect();
        f.write_str(&words.join(" "))
    }
}

/// Words longer than this are cut in a message (a path with its file name stays whole).
const LONGEST_WORD: usize = 160;

/// One word of a message, control characters escaped, cut to its first 80
/// and last 60 characters when longer than `LONGEST_WORD`.
fn shortened(word: &str) -> String {
    let chars: Vec<String> =
        word.chars().map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.to_string() }).collect();
    if chars.len() <= LONGEST_WORD {
        return chars.concat();
    }
    format!("{}...({} characters)...{}", chars[..80].concat(), chars.len(), chars[chars.len() - 60..].concat())
}

impl std::error::Error for UserError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_short_line() {
        let key = "k".repeat(1 << 20);
        let shown =
            UserError::new(format!("x.toml:2:1: risk.{key}: unknown field `{key}`, expected `a`\n")).to_string();
        assert!(shown.len() < 500, "{} characters", shown.len());
        assert!(shown.starts_with("x.toml:2:1: risk.kkk") && shown.ends_with("expected `a`"), "{shown}");
        assert_eq!(UserError::new("a\u{1b}[31m  b\n\tc").to_string(), "a\\u{1b}[31m b c");
    }
}
