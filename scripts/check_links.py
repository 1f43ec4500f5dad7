#!/usr/bin/env python3
"""Fails if a relative link or #anchor of the documentation does not resolve.

Checks every link `[text](target)` and reference definition `[x]: target` of README.md, ARCHITECTURE.md and
docs/*.md (outside code blocks and code spans), and every path to a Markdown file written in a comment of
src/ (`// ...`, `/// ...`, `//! ...`: `docs/claims.md#the-language`, `(higher-lower.md#x)`, relative to the
repository's root or to docs/, as comments write them). A target must exist (a file or directory, relative
to the linking file); an #anchor must be a heading of the target Markdown file under GitHub's rules
(lowercase; punctuation other than - and _ dropped; each space a -; a repeated heading gets -1, -2, ...) or an
explicit `<a name="...">` / `id="..."`. Links with a scheme (https:, mailto:) are skipped, and so are the
output directory's files that comments name (`DIR/...`, `index.md`).

Usage: scripts/check_links.py [ROOT]  (default: the repository holding this script). Prints each broken
link as `file:line: link (why)` and exits 1 if there is any. It first checks itself on a tiny tree with
planted broken links (exit 2 if it misses one or flags a good one).
"""
import glob
import os
import re
import sys
from urllib.parse import unquote

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# A code span: backticks, then text (not across a blank line), then as many backticks.
CODE_SPAN = re.compile(r"(`+)((?:(?!\n[ \t]*\n).)+?)(?<!`)\1(?!`)", re.S)
# A link's text may span lines and hold one level of brackets; its target has balanced parentheses.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(\S+)", re.M)
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
HTML_ANCHOR = re.compile(r"<a\s[^>]*\bname=\"([^\"]+)\"|\bid=\"([^\"]+)\"")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# A path to a Markdown file in a comment, with its anchor.
COMMENT_REF = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md)(#[\w-]+)?")
SKIPPED_IN_COMMENTS = re.compile(r"^(DIR/.*|index\.md)$")


def blank(text, start, end):
    """text with [start, end) replaced by spaces, newlines kept (so offsets and lines stay)."""
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


def without_code_blocks(text):
    """The text with fenced code blocks blanked out."""
    lines = text.split("\n")
    fence = None
    for k, line in enumerate(lines):
        m = FENCE.match(line)
        if fence is None:
            if m:
                fence = m.group(1)
                lines[k] = " " * len(line)
        else:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip()[len(m.group(1)):].strip():
                fence = None
            lines[k] = " " * len(line)
    return "\n".join(lines)


def without_code_spans(text):
    for m in reversed(list(CODE_SPAN.finditer(text))):
        text = blank(text, m.start(), m.end())
    return text


def heading_text(raw):
    """A heading's text as GitHub renders it: code spans kept as their content, links as their text,
    images, HTML tags and emphasis markers dropped."""
    parts = []
    last = 0
    for m in CODE_SPAN.finditer(raw):
        parts.append((False, raw[last:m.start()]))
        parts.append((True, m.group(2).strip() if m.group(2).strip() else m.group(2)))
        last = m.end()
    parts.append((False, raw[last:]))
    out = []
    for is_code, part in parts:
        if not is_code:
            part = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", part)
            part = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", part)
            part = re.sub(r"<[^>]+>", "", part)
            part = re.sub(r"\\(.)", r"\1", part)
            part = part.replace("*", "").replace("~~", "")
            part = re.sub(r"(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])", "", part)
        out.append(part)
    return "".join(out).strip()


def slugify(text):
    """GitHub's slug of a heading's text (github-slugger)."""
    text = text.lower()
    text = "".join(c for c in text if c.isalnum() or c in "-_ " or _is_mark(c))
    return text.replace(" ", "-")


def _is_mark(c):
    import unicodedata

    return unicodedata.category(c).startswith("M")


def anchors_of(text):
    """Every anchor a Markdown file defines: its headings' slugs (with -1, -2 for repeats) and HTML anchors."""
    plain = without_code_blocks(text)
    lines = plain.split("\n")
    headings = []
    for k, line in enumerate(lines):
        m = ATX.match(line)
        if m:
            headings.append(m.group(2) or "")
            continue
        if (
            SETEXT.match(line)
            and k > 0
            and lines[k - 1].strip()
            and not ATX.match(lines[k - 1])
            and not SETEXT.match(lines[k - 1])
            and "|" not in lines[k - 1]
            and not re.match(r"^\s*([-*+]|\d+[.)])\s", lines[k - 1])
            and (k < 2 or not lines[k - 2].strip() or SETEXT.match(lines[k - 2]) or ATX.match(lines[k - 2]))
        ):
            headings.append(lines[k - 1].strip())
    occurrences = {}
    anchors = set()
    for raw in headings:
        slug = original = slugify(heading_text(raw))
        while slug in occurrences:
            occurrences[original] += 1
            slug = f"{original}-{occurrences[original]}"
        occurrences[slug] = 0
        anchors.add(slug)
    for m in HTML_ANCHOR.finditer(plain):
        anchors.add(m.group(1) or m.group(2))
    return anchors


class Checker:
    def __init__(self, root):
        self.root = os.path.abspath(root)
        self.anchor_cache = {}
        self.links = 0

    def anchors(self, path):
        if path not in self.anchor_cache:
            with open(path, encoding="utf-8") as f:
                self.anchor_cache[path] = anchors_of(f.read())
        return self.anchor_cache[path]

    def resolve(self, base_dirs, target):
        """None if `target` (path#anchor) resolves from one of base_dirs, else why not."""
        self.links += 1
        path, _, anchor = target.partition("#")
        path, anchor = unquote(path), unquote(anchor)
        if path:
            candidates = [os.path.normpath(os.path.join(d, path)) for d in base_dirs]
            found = next((c for c in candidates if os.path.exists(c)), None)
            if found is None:
                return "no such file"
        else:
            found = base_dirs[0]
        if not anchor:
            return None
        if os.path.isdir(found) or not found.endswith(".md"):
            return None
        if anchor not in self.anchors(found):
            return f"no anchor #{anchor} in {os.path.relpath(found, self.root)}"
        return None

    def markdown_files(self):
        files = [os.path.join(self.root, f) for f in ("README.md", "ARCHITECTURE.md")]
        files += sorted(glob.glob(os.path.join(self.root, "docs", "*.md")))
        return [f for f in files if os.path.isfile(f)]

    def check_markdown(self, path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        self.anchor_cache.setdefault(path, anchors_of(text))
        plain = without_code_spans(without_code_blocks(text))
        here = os.path.dirname(path)
        found = []
        targets = [(m.start(1), m.group(1)) for m in LINK.finditer(plain)]
        targets += [(m.start(1), m.group(1)) for m in REFERENCE.finditer(plain)]
        for offset, target in sorted(targets):
            target = target.strip("<>").strip()
            if not target or SCHEME.match(target):
                continue
            if target.startswith("#"):
                why = self.resolve([path], target)
            else:
                why = self.resolve([here], target)
            if why:
                found.append((path, plain.count("\n", 0, offset) + 1, target, why))
        return found

    def check_source(self, path):
        found = []
        bases = [self.root, os.path.join(self.root, "docs")]
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                comment = comment_of(line)
                if comment is None:
                    continue
                for m in COMMENT_REF.finditer(comment):
                    target = m.group(1) + (m.group(2) or "")
                    if SKIPPED_IN_COMMENTS.match(m.group(1)):
                        continue
                    why = self.resolve(bases, target)
                    if why:
                        found.append((path, number, target, why))
        return found

    def check(self):
        broken = []
        for path in self.markdown_files():
            broken += self.check_markdown(path)
        for path in sorted(glob.glob(os.path.join(self.root, "src", "**", "*.rs"), recursive=True)):
            broken += self.check_source(path)
        return broken


def comment_of(line):
    """The text after `//` on a line of Rust, when that `//` is outside a string literal."""
    quoted = False
    k = 0
    while k < len(line):
        c = line[k]
        if quoted:
            if c == "\\":
                k += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", line[k:]):
            k += len(re.match(r"'(\\.|[^\\'])'", line[k:]).group(0)) - 1
        elif line.startswith("//", k):
            return line[k + 2 :]
        k += 1
    return None


def self_test():
    """The check on a tiny tree with planted broken links, so that a broken parser cannot pass silently."""
    import tempfile

    tree = {
        "README.md": (
            "# Top\n\n"
            "See [docs](docs/a.md), [its part](docs/a.md#part-two), [again](docs/a.md#part-two-1),\n"
            "[the code](src/lib.rs), [a folder](docs/), [the web](https://example.com/x.md#y),\n"
            "[here](#top), [a wrapped\nlink](docs/a.md#a_b-c), [with a title](docs/a.md \"title\").\n"
            "Broken: [gone](docs/missing.md), [no anchor](docs/a.md#nowhere), [self](#bottom).\n"
            "`[in code](docs/missing.md)` is no link.\n\n"
            "```sh\n# A comment, no heading\n[in a block](docs/missing.md)\n```\n"
        ),
        "docs/a.md": (
            "# Part two\n\n## Part two\n\n### `a_b` (c)!\n\nSetext heading\n--------------\n\n"
            "[up](../README.md#top), [setext](#setext-heading), [bad](#part-three)\n\n"
            "[ref]: ../README.md#nothing\n"
        ),
        "src/lib.rs": (
            "//! See docs/a.md#part-two and (a.md#setext-heading), ARCHITECTURE.md is missing.\n"
            "/// Written to DIR/report/index.md and `index.md`.\n"
            'fn f() { let s = "docs/missing.md"; } // docs/a.md#gone\n'
        ),
    }
    expected = {
        ("README.md", 7, "docs/missing.md"),
        ("README.md", 7, "docs/a.md#nowhere"),
        ("README.md", 7, "#bottom"),
        ("docs/a.md", 10, "#part-three"),
        ("docs/a.md", 12, "../README.md#nothing"),
        ("src/lib.rs", 1, "ARCHITECTURE.md"),
        ("src/lib.rs", 3, "docs/a.md#gone"),
    }
    with tempfile.TemporaryDirectory() as root:
        for name, text in tree.items():
            os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
            with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                f.write(text)
        found = {(os.path.relpath(p, root), line, link) for p, line, link, _ in Checker(root).check()}
    if found != expected:
        print("check_links: self-test failed")
        for item in sorted(expected - found):
            print("  missed:", item)
        for item in sorted(found - expected):
            print("  flagged a good link:", item)
        sys.exit(2)


def main():
    self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    checker = Checker(root)
    broken = checker.check()
    for path, line, link, why in broken:
        print(f"{os.path.relpath(path, checker.root)}:{line}: {link} ({why})")
    print(f"check_links: {checker.links} links checked, {len(broken)} broken")
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
