//! The report adds no markup that its input asked for: hostile strings in a
//! directory name, in a config value (`output`) and in a table string (a
//! forged part, resealed so that its marker matches) leave the generated
//! index.html with exactly the elements and attributes of a benign run's,
//! and every image and link points at one of the report's own figures.

mod common;
use arrow::array::StringArray;
use common::*;
use scraper::Html;
use std::path::Path;
use std::sync::Arc;

/// Markup, a script, links and images of every kind Markdown or HTML knows,
/// a table border and a heading on a line of its own.
const HOSTILE: &str = "x`<img src=x onerror=alert(1)>`y <script>alert(2)</script> *em* __strong__ \
                       [a](javascript:alert(3)) ![i](http://evil.example/i.png) <http://evil.example> \
                       &lt;b&gt; | cell | ~~del~~";

/// A risk run (its long-run table holds the string column `rule`) into `out`,
/// or into the config's `output` when `out` is `None`, with `rule` forged to
/// `rule`, resealed and reported; the report's HTML.
fn report_of(tmp: &TempDir, name: &str, output: Option<&Path>, out: &Path, rule: &str) -> String {
    let output_line = output.map_or(String::new(), |o| format!("output = {:?}\n", o.to_str().unwrap()));
    let config = tmp.config(&format!("{name}.toml"), &format!("{output_line}[risk]\nlong_run = true\n"));
    let mut args = vec!["run", config.to_str().unwrap()];
    if output.is_none() {
        args.extend(["--out", out.to_str().unwrap()]);
    }
    let ran = run(&args);
    assert!(ran.status.success(), "{}", stderr(&ran));
    let part = std::fs::read_dir(out.join("risk/long_run")).unwrap().next().unwrap().unwrap().path();
    rewrite_column(&part, "rule", |column| {
        let rows = column.len();
        Arc::new(StringArray::from(vec![rule; rows]))
    });
    // Not verified: `verify` would fail the forged rule, and the report leaves out what it failed.
    let report = run(&["report", out.to_str().unwrap()]);
    assert!(report.status.success(), "{}", stderr(&report));
    std::fs::read_to_string(out.join("report/index.html")).unwrap()
}

/// Every element of the page in document order with its attribute names.
fn shape(html: &str) -> Vec<String> {
    Html::parse_document(html)
        .tree
        .values()
        .filter_map(|node| node.as_element())
        .map(|e| {
            let mut attributes: Vec<&str> = e.attrs().map(|(name, _)| name).collect();
            attributes.sort();
            format!("{}[{}]", e.name(), attributes.join(","))
        })
        .collect()
}

/// Elements and attributes of gamesweep's template, and only figure links.
fn check_allowed(html: &str, what: &str) {
    const ELEMENTS: &[&str] = &[
        "html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "h4", "p", "table", "thead", "tbody", "tr",
        "th", "td", "img", "code", "em", "strong", "ul", "ol", "li", "a",
    ];
    let figure = |url: &str| {
        url.strip_prefix("figures/")
            .and_then(|f| f.strip_suffix(".png"))
            .is_some_and(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
    };
    for node in Html::parse_document(html).tree.values() {
        let Some(e) = node.as_element() else { continue };
        assert!(ELEMENTS.contains(&e.name()), "{what}: element <{}> in the report", e.name());
        for (name, value) in e.attrs() {
            let allowed = match (e.name(), name) {
                ("meta", "charset") | ("img", "alt") => true,
                ("img", "src") | ("a", "href") => figure(value),
                ("th" | "td", "style") => value.starts_with("text-align:"),
                _ => false,
            };
            assert!(allowed, "{what}: <{} {name}={value:?}> in the report", e.name());
        }
    }
}

#[test]
fn hostile_names_values_and_table_strings_add_no_markup_to_the_report() {
    let tmp = TempDir::new("markup");
    let benign = report_of(&tmp, "benign", None, &tmp.join("plain"), "x");
    let hostile_dir = tmp.join(&HOSTILE.replace('/', "_"));
    let named = report_of(&tmp, "named", None, &hostile_dir, HOSTILE);
    let configured_out = tmp.join(&format!("from-config {}", HOSTILE.replace('/', "_").replace('`', "'")));
    let configured = report_of(&tmp, "configured", Some(&configured_out), &configured_out, HOSTILE);

    check_allowed(&benign, "benign run");
    for (html, what) in [(&named, "hostile directory name"), (&configured, "hostile config output")] {
        check_allowed(html, what);
        assert_eq!(shape(html), shape(&benign), "{what}: the hostile run's report has other elements or attributes");
        assert!(!html.contains("<script") && !html.contains("<img src=x"), "{what}");
        assert!(html.contains("onerror=alert(1)"), "{what}: the hostile text is shown as text");
    }
    // The forged rule is shown, escaped, in the Markdown too.
    let md = std::fs::read_to_string(hostile_dir.join("report/index.md")).unwrap();
    assert!(md.contains("\\<script\\>alert(2)\\</script\\>"), "{md}");
}

/// The text of every `<text>` element of an SVG, parsed as markup.
fn svg_texts(svg: &str) -> Vec<String> {
    let document = Html::parse_fragment(svg);
    let text = scraper::Selector::parse("text").unwrap();
    document.select(&text).map(|t| t.text().collect::<String>().trim().to_string()).collect()
}

#[test]
fn svg_flag_writes_an_svg_with_the_labels_beside_every_png() {
    let tmp = TempDir::new("svg");
    let config = tmp.config(
        "svg.toml",
        "[higher_lower]\nn = { from = 1, to = 12 }\nmethods = [\"auto\"]\n\
         [risk]\nvalue_iteration = { horizon = 50 }\nbattles = { attackers = 5, defenders = 5 }\n\
         [cards]\nn = [6, 10]\ndistributions = [\"uniform-1-10\"]\nrows = 50\nseed = 1\n",
    );
    let out = tmp.join("out");
    let ran = run(&["run", config.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(ran.status.success(), "{}", stderr(&ran));
    let verified = run(&["verify", out.to_str().unwrap()]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    let figures = out.join("report/figures");
    let with_extension = |ext: &str| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&figures)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter_map(|f| f.strip_suffix(ext).map(str::to_string))
            .collect();
        names.sort();
        names
    };

    let plain = run(&["report", out.to_str().unwrap()]);
    assert!(plain.status.success(), "{}", stderr(&plain));
    let pngs = with_extension(".png");
    assert!(pngs.len() >= 4, "{pngs:?}");
    assert!(with_extension(".svg").is_empty(), "an SVG without --svg");

    let report = run(&["report", out.to_str().unwrap(), "--svg"]);
    assert!(report.status.success(), "{}", stderr(&report));
    assert_eq!(with_extension(".svg"), pngs, "one SVG per PNG");
    for name in &pngs {
        let svg = std::fs::read_to_string(figures.join(format!("{name}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{name}.svg");
        let texts = svg_texts(&svg);
        assert!(texts.len() > 5, "{name}.svg: {texts:?}");
        for text in &texts {
            let digits = text.trim_start_matches('-');
            let zero = !digits.is_empty() && digits.bytes().all(|b| b == b'0' || b == b'.');
            assert!(!(text.starts_with('-') && zero), "{name}.svg: label {text:?}");
        }
    }
    // V(N) - lg N over N on a log2 axis, ticks 1, 2, 4, 8.
    let value = svg_texts(&std::fs::read_to_string(figures.join("higher_lower_value.svg")).unwrap());
    for label in ["1", "2", "4", "8", "N (keys, log scale)", "V(N) - lg N"] {
        assert!(value.iter().any(|t| t == label), "{label:?} not in {value:?}");
    }
    // The effort figure's axes are both whole numbers (N, counts): no label has decimals.
    let effort = svg_texts(&std::fs::read_to_string(figures.join("higher_lower_effort.svg")).unwrap());
    let numbers: Vec<&String> = effort.iter().filter(|t| t.parse::<f64>().is_ok()).collect();
    assert!(numbers.len() >= 4 && numbers.iter().all(|t| t.parse::<i64>().is_ok()), "{effort:?}");
    // The HTML still shows the PNGs, and says that the SVGs exist.
    let html = std::fs::read_to_string(out.join("report/index.html")).unwrap();
    check_allowed(&html, "report with --svg");
    assert!(html.contains("figures/higher_lower_value.png") && html.contains("SVG"));
}
