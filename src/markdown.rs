//! Text from outside gamesweep (paths, config values, table strings) made
//! inert in the report's Markdown: it shows as the characters it holds and
//! can add no markup, whatever it contains.

/// `text` as a Markdown code span that no character of it can end: the
/// fence is longer than its longest run of backticks, line breaks and other
/// control characters are shown escaped, `|` (a table's cell border) too,
/// and text longer than 200 characters is cut.
pub fn code_span(text: &str) -> String {
    let mut shown: String = text
        .chars()
        .take(200)
        .map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.to_string() })
        .collect();
    if text.chars().count() > 200 {
        shown.push_str("...");
    }
    let shown = shown.replace('|', "\\|");
    let longest = shown.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    format!("{fence} {shown} {fence}")
}

/// `text` as plain Markdown text: every character that could start markup
/// (emphasis, links, images, raw HTML, headings, table borders, entities) is
/// backslash-escaped, line breaks and other control characters are shown
/// escaped (so it stays on its line), and text longer than 200 characters
/// is cut.
pub fn plain(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars().take(200) {
        if c.is_control() {
            shown.extend(c.escape_debug());
        } else {
            if "\\`*_[]<>#|!~&".contains(c) {
                shown.push('\\');
            }
            shown.push(c);
        }
    }
    if text.chars().count() > 200 {
        shown.push_str("...");
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_text_is_inert() {
        assert_eq!(plain("1/3"), "1/3");
        assert_eq!(
            plain("a*b*_c_ <img src=x> [l](u) |x| \n"),
            "a\\*b\\*\\_c\\_ \\<img src=x\\> \\[l\\](u) \\|x\\| \\n"
        );
        assert_eq!(plain("x\n# h"), "x\\n\\# h");
        assert_eq!(code_span("a`b"), "`` a`b ``");
        assert_eq!(code_span("a|b\n"), "` a\\|b\\n `");
    }
}
