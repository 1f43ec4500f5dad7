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
        // One line, whatever the source message looked like.
        let line = self.0.split_whitespace().collect::<Vec<_>>().join(" ");
        f.write_str(&line)
    }
}

impl std::error::Error for UserError {}
