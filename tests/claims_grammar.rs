//! docs/claims.md against the code it documents: the terminals of its EBNF
//! grammar are exactly the parser's (`syntax::TERMINALS`), every rule it uses
//! is defined; every statement of its examples table parses and plans as a
//! config's claim, and applies at some N; every refused example is refused at
//! its column with its message; the statements of its commands and its TOML
//! configs pass the same checks; its verdict table lists exactly the verdict
//! strings, its built-in table exactly `data/conjectures.toml`, and its
//! limits are the parser's.
//!
//! The page is read from `CLAIMS_DOC` if set (to try the test on a planted
//! mistake), else from docs/claims.md.

use gamesweep::config::ConfigFile;
use gamesweep::games::higher_lower::claims::syntax::{self, TERMINALS};
use gamesweep::games::higher_lower::claims::{self, AtN, Claim};
use gamesweep::games::higher_lower::face::verdicts::ClaimVerdict;
use gamesweep::{games, sweep};
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn doc_path() -> PathBuf {
    std::env::var_os("CLAIMS_DOC")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/claims.md"))
}

/// A table cell: its text, with code spans in backticks as written.
type Row = Vec<String>;

/// What the page holds: its fenced code blocks (info string, text) and its
/// tables (the heading above each, its rows with the header row first).
struct Page {
    blocks: Vec<(String, String)>,
    tables: Vec<(String, Vec<Row>)>,
    text: String,
}

fn page() -> Page {
    let path = doc_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut page = Page { blocks: Vec::new(), tables: Vec::new(), text: text.clone() };
    let (mut heading, mut in_heading) = (String::new(), false);
    let mut block: Option<(String, String)> = None;
    let mut table: Option<Vec<Row>> = None;
    let mut cell: Option<String> = None;
    for event in Parser::new_ext(&text, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Heading { .. }) => (heading, in_heading) = (String::new(), true),
            Event::End(TagEnd::Heading(_)) => in_heading = false,
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                block = Some((info, String::new()));
            }
            Event::End(TagEnd::CodeBlock) => page.blocks.extend(block.take()),
            Event::Start(Tag::Table(_)) => table = Some(Vec::new()),
            Event::End(TagEnd::Table) => page.tables.push((heading.clone(), table.take().expect("a table"))),
            Event::Start(Tag::TableHead | Tag::TableRow) => table.as_mut().expect("a table").push(Vec::new()),
            Event::Start(Tag::TableCell) => cell = Some(String::new()),
            Event::End(TagEnd::TableCell) => {
                let row = table.as_mut().and_then(|t| t.last_mut()).expect("a row");
                row.push(cell.take().expect("a cell").trim().to_string());
            }
            Event::Text(t) => {
                if let Some((_, body)) = block.as_mut() {
                    body.push_str(&t);
                } else if let Some(cell) = cell.as_mut() {
                    cell.push_str(&t);
                } else if in_heading {
                    heading.push_str(&t);
                }
            }
            Event::Code(code) => {
                if let Some(cell) = cell.as_mut() {
                    cell.push_str(&format!("`{code}`"));
                } else if in_heading {
                    heading.push_str(&code);
                }
            }
            _ => {}
        }
    }
    page
}

impl Page {
    /// The body rows of the one table under `heading`, by the header's column names.
    fn table(&self, heading: &str, columns: &[&str]) -> Vec<BTreeMap<String, String>> {
        let found: Vec<&Vec<Row>> = self.tables.iter().filter(|(h, _)| h == heading).map(|(_, t)| t).collect();
        assert_eq!(found.len(), 1, "docs/claims.md: expected one table under the heading {heading:?}");
        let (header, rows) = found[0].split_first().expect("a header row");
        assert_eq!(header, columns, "docs/claims.md: the columns of the table under {heading:?}");
        assert!(!rows.is_empty(), "docs/claims.md: the table under {heading:?} is empty");
        rows.iter().map(|row| header.iter().cloned().zip(row.iter().cloned()).collect()).collect()
    }

    fn ebnf(&self) -> &str {
        let found: Vec<&str> = self.blocks.iter().filter(|(info, _)| info == "ebnf").map(|(_, b)| b.as_str()).collect();
        assert_eq!(found.len(), 1, "docs/claims.md: expected one ```ebnf block");
        found[0]
    }
}

/// The text of a cell that is one code span (`x`), or "" for an empty cell.
fn code(cell: &str) -> String {
    if cell.is_empty() {
        return String::new();
    }
    let inner = cell.strip_prefix('`').and_then(|c| c.strip_suffix('`'));
    match inner {
        Some(inner) if !inner.contains('`') => inner.to_string(),
        _ => panic!("docs/claims.md: expected one code span, found {cell:?}"),
    }
}

/// A grammar rule: its name and the tokens of its right-hand side.
struct Rule {
    name: String,
    tokens: Vec<String>,
}

/// The rules of the EBNF block: `name ::= ...`, continued on lines that
/// start with whitespace; `/* ... */` comments dropped.
fn rules(ebnf: &str) -> Vec<Rule> {
    let mut without_comments = String::new();
    let mut rest = ebnf;
    while let Some(start) = rest.find("/*") {
        without_comments.push_str(&rest[..start]);
        let end = rest[start..].find("*/").expect("a closed comment in the grammar");
        rest = &rest[start + end + 2..];
    }
    without_comments.push_str(rest);
    let mut rules: Vec<Rule> = Vec::new();
    for line in without_comments.lines() {
        if line.trim().is_empty() {
            continue;
        }
        let body = if line.starts_with(char::is_whitespace) {
            assert!(!rules.is_empty(), "the grammar starts with a continuation line: {line:?}");
            line
        } else {
            let (name, body) = line.split_once("::=").unwrap_or_else(|| panic!("not a rule: {line:?}"));
            let name = name.trim();
            assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "a rule's name: {name:?}");
            assert!(rules.iter().all(|r| r.name != name), "the rule {name} is defined twice");
            rules.push(Rule { name: name.to_string(), tokens: Vec::new() });
            body
        };
        rules.last_mut().unwrap().tokens.extend(rhs_tokens(body));
    }
    rules
}

/// A right-hand side as tokens: "quoted" terminals (with their quotes),
/// [character classes], names, and the operators ( ) | * + ?.
fn rhs_tokens(body: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '"' => {
                let mut t = String::from('"');
                for c in chars.by_ref() {
                    t.push(c);
                    if c == '"' {
                        break;
                    }
                }
                assert!(t.len() >= 3 && t.ends_with('"'), "an unclosed or empty terminal in {body:?}");
                tokens.push(t);
            }
            '[' => {
                let mut t = String::from('[');
                for c in chars.by_ref() {
                    t.push(c);
                    if c == ']' {
                        break;
                    }
                }
                tokens.push(t);
            }
            '(' | ')' | '|' | '*' | '+' | '?' => tokens.push(c.to_string()),
            c if c.is_ascii_alphabetic() || c == '_' => {
                let mut t = c.to_string();
                while let Some(&c) = chars.peek().filter(|c| c.is_ascii_alphanumeric() || **c == '_') {
                    t.push(c);
                    chars.next();
                }
                tokens.push(t);
            }
            other => panic!("unexpected {other:?} in the grammar: {body:?}"),
        }
    }
    tokens
}

/// Rules named in capitals are tokens, read character by character.
fn lexical(name: &str) -> bool {
    name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
}

/// The terminals of the grammar's syntactic rules (not the tokens' characters).
fn grammar_terminals(rules: &[Rule]) -> BTreeSet<String> {
    rules
        .iter()
        .filter(|r| !lexical(&r.name))
        .flat_map(|r| r.tokens.iter())
        .filter_map(|t| t.strip_prefix('"').and_then(|t| t.strip_suffix('"')))
        .map(str::to_string)
        .collect()
}

fn parser_terminals() -> BTreeSet<String> {
    TERMINALS.symbols.iter().chain(TERMINALS.words.iter()).map(|t| t.to_string()).collect()
}

#[test]
fn the_grammar_has_exactly_the_parsers_terminals() {
    let page = page();
    let rules = rules(page.ebnf());
    let ours = grammar_terminals(&rules);
    let parsers = parser_terminals();
    let missing: Vec<&String> = parsers.difference(&ours).collect();
    let extra: Vec<&String> = ours.difference(&parsers).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "docs/claims.md's grammar and the parser (syntax::TERMINALS) disagree: terminals the parser has and the \
         grammar lacks: {missing:?}; terminals of the grammar the parser does not know: {extra:?}"
    );
    // The symbols are distinct, and listed longest first (the lexer takes the first that matches).
    for (k, symbol) in TERMINALS.symbols.iter().enumerate() {
        for later in &TERMINALS.symbols[k + 1..] {
            assert!(
                !later.starts_with(symbol),
                "syntax::TERMINALS.symbols: {later:?} comes after {symbol:?}, so it is never read"
            );
        }
    }
}

#[test]
fn every_rule_of_the_grammar_is_defined_and_used() {
    let page = page();
    let rules = rules(page.ebnf());
    let defined: BTreeSet<&str> = rules.iter().map(|r| r.name.as_str()).collect();
    let mut used = BTreeSet::new();
    for rule in &rules {
        for token in &rule.tokens {
            let name = token.as_str();
            if name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                assert!(defined.contains(name), "the grammar's rule {} uses {name}, which it never defines", rule.name);
                used.insert(name);
            }
        }
    }
    // The two start symbols: a claim's statement and a condition on N.
    for start in ["statement", "condition"] {
        assert!(defined.contains(start), "the grammar has no rule {start}");
        used.insert(start);
    }
    let unused: Vec<&&str> = defined.difference(&used).collect();
    assert!(unused.is_empty(), "rules of the grammar that nothing uses: {unused:?}");
    // Every word terminal is reserved, and the tokens' words say so.
    for word in TERMINALS.words {
        assert!(page.text.contains(&format!("`{word}`")), "docs/claims.md never names the reserved word `{word}`");
    }
}

/// The claims of `entries` (name, statement, from, when) planned as one
/// config's `[[higher_lower.conjectures]]`, as `gamesweep run` would.
fn plan_claims(entries: &[(String, String, u32, String)]) {
    let mut text = String::from("[higher_lower]\nn = { from = 1, to = 300 }\nchunk = 300\n");
    for (name, statement, from, when) in entries {
        let toml_string = |s: &str| toml::Value::String(s.to_string()).to_string();
        text.push_str(&format!(
            "\n[[higher_lower.conjectures]]\nname = {}\nstatement = {}\nfrom = {from}\n",
            toml_string(name),
            toml_string(statement)
        ));
        if !when.is_empty() {
            text.push_str(&format!("when = {}\n", toml_string(when)));
        }
    }
    plan_config("the examples", &text, 1 + entries.len());
}

/// Plans a config's text; `tasks`: the number of tasks it must plan, if known.
fn plan_config(what: &str, text: &str, tasks: usize) -> Vec<String> {
    let config = ConfigFile::from_text(Path::new("claims.toml"), text.to_string())
        .unwrap_or_else(|e| panic!("docs/claims.md: {what}: {e}\n{text}"));
    let games = games::all();
    let planned = sweep::plan(&games, &config).unwrap_or_else(|e| panic!("docs/claims.md: {what}: {e}\n{text}"));
    let ids: Vec<String> = planned.into_iter().map(|t| t.id).collect();
    if tasks > 0 {
        assert_eq!(ids.len(), tasks, "docs/claims.md: {what}: planned {ids:?}");
    }
    ids
}

#[test]
fn every_example_parses_plans_and_applies_somewhere() {
    let page = page();
    let rows = page.table("Examples", &["statement", "from", "when", "what it says"]);
    let mut entries = Vec::new();
    for (k, row) in rows.iter().enumerate() {
        let statement = code(&row["statement"]);
        let when = code(&row["when"]);
        let from: u32 = match row["from"].as_str() {
            "" => 1,
            from => from.parse().unwrap_or_else(|_| panic!("docs/claims.md: example {statement:?}: from {from:?}")),
        };
        let name = format!("example_{}", k + 1);
        let claim = Claim::parse(&name, &statement, from, (!when.is_empty()).then_some(when.as_str()))
            .unwrap_or_else(|e| panic!("docs/claims.md: the example {statement:?} is refused: {e}"));
        // It claims something at some N, and can be evaluated there (on the uniform alpha).
        let applies = (1..=300usize).find_map(|n| match claim.at(n) {
            AtN::Applies(inequalities) => Some((n, inequalities)),
            AtN::NotApplicable(_) => None,
        });
        let (n, inequalities) =
            applies.unwrap_or_else(|| panic!("docs/claims.md: the example {statement:?} applies at no N <= 300"));
        assert!(!inequalities.is_empty());
        let uniform = vec![gamesweep::exact::Rational::from_unsigneds(1u64, n as u64); n];
        assert!(claim.evaluate(&uniform).applies, "example {statement:?} at N = {n}");
        entries.push((name, statement, from, when));
    }
    plan_claims(&entries);
}

#[test]
fn every_refused_example_is_refused_at_its_column_with_its_message() {
    let page = page();
    let rows = page.table("What the language refuses", &["kind", "text", "column", "message"]);
    for row in rows {
        let text = code(&row["text"]);
        let column: usize = row["column"].parse().expect("a column");
        let refused = match row["kind"].as_str() {
            "statement" => syntax::statement(&text).err(),
            "condition" => syntax::condition(&text).err(),
            kind => panic!("docs/claims.md: a refused example of kind {kind:?}, expected statement or condition"),
        };
        let error = refused.unwrap_or_else(|| panic!("docs/claims.md: {text:?} is said to be refused, but it is read"));
        assert_eq!(
            (error.column(&text), error.message.as_str()),
            (column, row["message"].as_str()),
            "docs/claims.md: how {text:?} is refused"
        );
    }
}

/// Splits a command line like a shell, for the '...' quoting the page uses.
fn shell_words(line: &str) -> Vec<String> {
    let (mut words, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in line.chars() {
        match c {
            '\'' => (quoted, any) = (!quoted, true),
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => (word, any) = (word + &c.to_string(), true),
        }
    }
    assert!(!quoted, "an unclosed quote in {line:?}");
    if any {
        words.push(word);
    }
    words
}

#[test]
fn the_commands_and_configs_of_the_page_are_read_as_it_shows() {
    let page = page();
    let mut commands = 0;
    for (_, block) in &page.blocks {
        let lines: Vec<&str> = block.lines().collect();
        for (k, line) in lines.iter().enumerate() {
            let command = line.trim_start_matches("$ ");
            if !command.starts_with("gamesweep conjecture ") || command.contains("[--") {
                continue;
            }
            let words = shell_words(command);
            let (mut positional, mut options) = (Vec::new(), BTreeMap::new());
            let mut args = words[2..].iter();
            while let Some(arg) = args.next() {
                if let Some(option) = arg.strip_prefix("--") {
                    options.insert(option.to_string(), args.next().expect("an option's value").clone());
                } else {
                    positional.push(arg.clone());
                }
            }
            assert_eq!(positional.len(), 2, "docs/claims.md: DIR and STATEMENT in {line:?}");
            let from = options.get("from").map_or(1, |f| f.parse().expect("--from"));
            let parsed = Claim::parse(&options["name"], &positional[1], from, options.get("when").map(String::as_str));
            let shown = lines.get(k + 1).and_then(|next| next.strip_prefix("error: gamesweep conjecture: "));
            match (parsed, shown) {
                (Err(why), Some(shown)) => assert_eq!(why, shown, "docs/claims.md: {line:?}"),
                (Err(why), None) => panic!("docs/claims.md: {line:?} is refused: {why}"),
                (Ok(_), Some(shown)) if shown.starts_with("statement ") || shown.starts_with("condition ") => {
                    panic!("docs/claims.md: {line:?} is read, yet the page shows {shown:?}")
                }
                (Ok(_), _) => {}
            }
            commands += 1;
        }
    }
    assert!(commands >= 5, "docs/claims.md: only {commands} gamesweep conjecture commands found");
    let configs: Vec<&String> =
        page.blocks.iter().filter(|(info, b)| info == "toml" && b.contains("[higher_lower]")).map(|(_, b)| b).collect();
    assert!(configs.len() >= 2, "docs/claims.md: its TOML configs");
    for config in configs {
        let ids = plan_config("a TOML block", config, 0);
        assert!(ids.iter().any(|id| id.starts_with("claim-")), "docs/claims.md: {config} plans no claim: {ids:?}");
    }
}

#[test]
fn the_verdict_table_lists_every_verdict() {
    let page = page();
    let rows = page.table("Verdicts: the conjectures table", &["verdict", "meaning", "proof (`conjecture_proofs`)"]);
    let listed: Vec<String> = rows.iter().map(|r| code(&r["verdict"])).collect();
    let verdicts: Vec<String> = ClaimVerdict::ALL.iter().map(|v| v.as_str().to_string()).collect();
    assert_eq!(listed, verdicts, "docs/claims.md: the verdicts, in ClaimVerdict's order");
}

#[test]
fn the_built_in_table_is_data_conjectures_toml() {
    let page = page();
    let rows = page.table("The built-in claims", &["name", "statement", "from", "what it is"]);
    let listed: Vec<(String, String, u32)> =
        rows.iter().map(|r| (code(&r["name"]), code(&r["statement"]), r["from"].parse().expect("from"))).collect();
    let builtin: Vec<(String, String, u32)> = claims::builtin()
        .iter()
        .map(|c| (c.name.as_str().to_string(), c.statement.text().to_string(), c.from))
        .collect();
    assert_eq!(listed, builtin, "docs/claims.md: the built-in claims");
}

#[test]
fn the_limits_are_the_parsers() {
    let page = page();
    for phrase in [
        "at most 2,000 characters",
        "at most 32 levels",
        "30 parentheses around `a[1]` are the most",
        "at most 30 characters",
        "1 to 48 ASCII letters",
    ] {
        assert!(page.text.contains(phrase), "docs/claims.md no longer says {phrase:?}");
    }
    // 2,000 characters.
    let long = |chars: usize| format!("a[1] >= 0{}", " ".repeat(chars - 9));
    assert!(syntax::statement(&long(2000)).is_ok());
    assert!(syntax::statement(&long(2001)).is_err());
    assert!(syntax::condition(&format!("N > 0{}", " ".repeat(1995))).is_ok());
    assert!(syntax::condition(&format!("N > 0{}", " ".repeat(1996))).is_err());
    // 32 levels: 30 parentheses around a[1].
    let nested = |k: usize| format!("{}a[1]{} >= 0", "(".repeat(k), ")".repeat(k));
    assert!(syntax::statement(&nested(30)).is_ok());
    let deep = syntax::statement(&nested(31)).unwrap_err();
    assert!(deep.message.contains("deeper than 32"), "{}", deep.message);
    // Numbers of 30 characters.
    assert!(syntax::statement(&format!("a[1] >= {}", "1".repeat(30))).is_ok());
    assert!(syntax::statement(&format!("a[1] >= {}", "1".repeat(31))).is_err());
    assert!(syntax::statement(&format!("a[1] >= 0.{}", "1".repeat(28))).is_ok());
    // Names of 48.
    let name = |len: usize| format!("x{}", "_".repeat(len - 1));
    assert!(Claim::parse(&name(48), "a[1] >= 0", 1, None).is_ok());
    assert!(Claim::parse(&name(49), "a[1] >= 0", 1, None).is_err());
    assert!(Claim::parse("_leading", "a[1] >= 0", 1, None).is_ok());
    assert!(Claim::parse("9lives", "a[1] >= 0", 1, None).is_err());
}

/// The test can fail: a grammar with a terminal the parser lacks, or without one it has, is caught.
#[test]
fn a_planted_terminal_is_caught() {
    let page = page();
    let planted = format!("{}power      ::= expr \"^\" expr\n", page.ebnf());
    assert!(grammar_terminals(&rules(&planted)).contains("^"));
    assert_ne!(grammar_terminals(&rules(&planted)), parser_terminals());
    let without = page.ebnf().replace(" | \"%\"", "");
    assert_ne!(grammar_terminals(&rules(&without)), parser_terminals());
}
