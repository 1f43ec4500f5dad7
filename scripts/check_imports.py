#!/usr/bin/env python3
"""Fails if a module of src/ imports, directly or through others, a module that imports it back,
at the level of files and at the level of folders.

A module is a file. An edge A -> B is any path in A that resolves to B: `crate::...`, `super::...`,
`self::...` (with groups `{...}`, nested or not, and globs), the uses of a child declared with
`mod b;` (`b::...`) and of a module imported by name (`use crate::x::b;` or `use super::{b, c}`,
then `b::...`). Declaring a child is not an edge. Paths in comments and string literals do not
count. Test modules count too: an inline module such as `#[cfg(test)] mod tests { ... }` (any
name, anywhere in the file) has its `super::` resolved to the file's own module, and a test file
declared with `#[cfg(test)] mod tests;` (`dir/tests.rs`) is a module of its own like any other.

Two checks, both must pass:

- files: the graph of files must be acyclic;
- folders: a folder module (a directory with mod.rs) is seen by its siblings as one node, its whole
  subtree collapsed. At every folder L, the graph whose nodes are L's own file (L/mod.rs) and L's
  children (each file, each collapsed folder) must be acyclic. An import A -> B belongs to the
  level of the deepest folder that holds both. A cycle at a level is not reported again when it
  has no collapsed folder in it or is a file cycle already reported, seen from that level.

Usage: scripts/check_imports.py [-v] [SRC_DIR]  (exit 1 and the cycles if any: per strongly
connected group of nodes, a line naming them, one line per cycle among them, then one witnessing
import per edge, `file:line uses file`; -v lists every witnessing import). It first checks itself
on a tiny tree with known file and folder cycles (exit 2 if it misses them).
"""
import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
ROOT_WORD = re.compile(r"(?<![\w:$])(crate|super|self)\s*::")
CHILD = re.compile(r"^\s*(?:pub(?:\([a-z ]+\))?\s+)?mod\s+(" + IDENT + r")\s*;", re.M)
INLINE_MOD = re.compile(r"(?<![\w])mod\s+(" + IDENT + r")\s*\{")
RAW_STRING = re.compile(r'b?r(#*)"')
CHAR = re.compile(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'\n])'")


def modules(root):
    """Module path (tuple of names) -> file, for every .rs file under root."""
    found = {}
    for directory, _, names in os.walk(root):
        for name in names:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(directory, name)
            parts = tuple(os.path.relpath(path, root)[:-3].split(os.sep))
            if parts[-1] == "mod":
                parts = parts[:-1]
            if parts in (("lib",), ("main",)):
                parts = () if parts == ("lib",) else ("<main>",)
            found[parts] = path
    return found


def blank(source):
    """The source with comments and the insides of string and char literals replaced by spaces
    (newlines kept), so that offsets and line numbers stay those of the file."""
    out = list(source)
    i, n = 0, len(source)

    def wipe(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = source[i]
        if source.startswith("//", i):
            j = source.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif source.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if source.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif source.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            wipe(i, j)
            i = j
        elif (m := RAW_STRING.match(source, i)) and (i == 0 or not (source[i - 1].isalnum() or source[i - 1] == "_")):
            end = source.find('"' + m.group(1), m.end())
            end = n if end < 0 else end + 1 + len(m.group(1))
            wipe(m.end(), end - 1 - len(m.group(1)))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and source[j] != '"':
                j += 2 if source[j] == "\\" else 1
            wipe(i + 1, min(j, n))
            i = j + 1
        elif c == "'":
            m = CHAR.match(source, i)
            if m:
                wipe(i + 1, m.end() - 1)
                i = m.end()
            else:
                i += 1  # a lifetime
        else:
            i += 1
    return "".join(out)


def inline_depths(text):
    """For every inline `mod name { ... }`, its (start, end) offsets: paths inside it are one
    `super` deeper than the file's module."""
    regions = []
    for m in INLINE_MOD.finditer(text):
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        regions.append((m.end(), j))
    return regions


def parse_tree(text, i):
    """The use tree starting at offset i: a list of (segments, alias) and the offset after it."""
    ws = re.compile(r"\s*")
    ident = re.compile(IDENT + "|\\*")

    def path(i):
        segments = []
        while True:
            i = ws.match(text, i).end()
            if i < len(text) and text[i] == "{":
                items, i = group(i + 1)
                return [(segments + s, a) for s, a in items] or [(segments, None)], i
            m = ident.match(text, i)
            if not m:
                return [(segments, None)], i
            segments.append(m.group(0))
            i = ws.match(text, m.end()).end()
            if text.startswith("::", i) and not text.startswith("<", ws.match(text, i + 2).end()):
                i += 2
                continue
            alias = re.compile(r"as\s+(" + IDENT + r")\b").match(text, i)
            if alias:
                return [(segments, alias.group(1))], alias.end()
            return [(segments, None)], i

    def group(i):
        items = []
        while True:
            i = ws.match(text, i).end()
            if i >= len(text):
                return items, i
            if text[i] == "}":
                return items, i + 1
            if text[i] == ",":
                i += 1
                continue
            start = i
            found, i = path(i)
            items.extend(found)
            if i == start:  # nothing parsed: skip a character rather than loop
                i += 1

    return path(i)


def edges_of(module, path, files):
    """Target module -> the first line of `path` whose path resolves to it."""
    source = open(path, encoding="utf-8").read()
    text = blank(source)
    regions = inline_depths(text)
    targets = {}

    def line_of(offset):
        return source.count("\n", 0, offset) + 1

    def resolve(full):
        return next((tuple(full[:k]) for k in range(len(full), 0, -1) if tuple(full[:k]) in files), None)

    def add(full, offset):
        full = [s for s in full if s != "*"]
        resolved = resolve(full)
        if resolved not in (None, module, ()):
            targets.setdefault(resolved, line_of(offset))
        return resolved

    def absolute(segments, offset):
        """The path of segments starting with crate/super/self, as seen from the file's module."""
        depth = sum(1 for a, b in regions if a <= offset < b)
        head, rest = segments[0], list(segments[1:])
        if head == "crate":
            return rest
        if head == "self":
            return list(module) + [s for s in rest if s != "self"]
        supers = 1
        while rest and rest[0] == "super":
            supers, rest = supers + 1, rest[1:]
        up = max(0, supers - depth)
        start = list(module[: max(0, len(module) - up)])
        return start + [s for s in rest if s != "self"]

    aliases = {child: module + (child,) for child in CHILD.findall(text)}
    # Paths from crate/super/self, and the modules they import by name.
    for m in ROOT_WORD.finditer(text):
        for segments, alias in parse_tree(text, m.start())[0]:
            full = absolute(segments, m.start())
            resolved = add(full, m.start())
            if resolved and resolved == tuple(full):  # a module imported by name
                aliases[alias or resolved[-1]] = resolved
    # Paths through a child or an imported module: `b::...`.
    for name, target in aliases.items():
        for m in re.finditer(r"(?<![\w:$])" + re.escape(name) + r"\s*::", text):
            for segments, _ in parse_tree(text, m.start())[0]:
                add(list(target) + [s for s in segments[1:] if s != "self"], m.start())
    return targets


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


OWN = "<own>"


def levels(graph, files):
    """Folder -> {node -> {node -> [(file, line, target file)]}}: each import at the level of the
    deepest folder holding both ends; a node is a child's name or OWN (the folder's own file)."""
    by_level = {}
    for a, targets in graph.items():
        for b, line in targets.items():
            k = 0
            while k < min(len(a), len(b)) and a[k] == b[k]:
                k += 1
            level = a[:k]
            u = OWN if len(a) == k else a[k]
            v = OWN if len(b) == k else b[k]
            by_level.setdefault(level, {}).setdefault(u, {}).setdefault(v, []).append((files[a], line, files[b]))
    return by_level


def folder_cycles(graph, files, file_cycles):
    """Folder-level cycles not already file cycles: (level, component, edges of level)."""
    folders = {m for m in files if os.path.basename(files[m]) in ("mod.rs", "lib.rs")}
    explained = set()
    for component in file_cycles:
        k = min(len(m) for m in component)
        while k and len({m[:k] for m in component}) > 1:
            k -= 1
        level = component[0][:k]
        explained.add((level, frozenset(OWN if len(m) == k else m[k] for m in component)))
    found = []
    for level, edges in sorted(levels(graph, files).items()):
        for component in cycles({u: set(vs) for u, vs in edges.items()}):
            has_folder = any(c != OWN and level + (c,) in folders for c in component)
            if has_folder and (level, frozenset(component)) not in explained:
                found.append((level, component, edges))
    return found


def node_name(level, node, files, folders):
    if node == OWN:
        return os.path.basename(files[level]) if level in files else "<root>"
    return node + "/" if level + (node,) in folders else node + ".rs" if level + (node,) in files else node


def elementary_cycles(component, edges, limit=20):
    """The simple cycles within a component (each from its smallest node), at most `limit`."""
    found, order = [], {v: i for i, v in enumerate(sorted(component))}

    def extend(path):
        for w in sorted(edges.get(path[-1], {})):
            if len(found) >= limit:
                return
            if w == path[0]:
                found.append(list(path))
            elif w in order and order[w] > order[path[0]] and w not in path:
                extend(path + [w])

    for start in sorted(component):
        extend([start])
    return sorted(found, key=lambda c: (len(c), c))


def report(root, verbose=False, out=print):
    """Prints the cycles; returns (modules, imports, file cycles, folder cycles)."""
    files = modules(root)
    graph = {module: edges_of(module, path, files) for module, path in files.items()}
    folders = {m for m in files if os.path.basename(files[m]) in ("mod.rs", "lib.rs")}
    name = lambda m: "::".join(m) or "crate"  # noqa: E731
    found = cycles(graph)
    for component in found:
        out("import cycle: " + ", ".join(name(m) for m in component))
        for a in component:
            for b in sorted(set(graph[a]) & set(component)):
                out(f"    {name(a)} -> {name(b)}  ({files[a]}:{graph[a][b]})")
    folder_found = folder_cycles(graph, files, found)
    for level, component, edges in folder_found:
        where = os.path.dirname(files[level]) if level in files else root
        nodes = ", ".join(node_name(level, c, files, folders) for c in component)
        out(f"folder import cycle in {where}/ between {nodes}:")
        for cycle in elementary_cycles(component, edges):
            out("    cycle: " + " -> ".join(node_name(level, c, files, folders) for c in cycle + cycle[:1]))
        for u in component:
            for v in sorted(set(edges.get(u, {})) & set(component)):
                witnesses = sorted(edges[u][v])
                shown = witnesses if verbose else witnesses[:1]
                more = "" if verbose or len(witnesses) == 1 else f"  (+{len(witnesses) - 1} more)"
                for i, (file, line_no, target) in enumerate(shown):
                    head = f"{node_name(level, u, files, folders)} -> {node_name(level, v, files, folders)}:"
                    head = head if i == 0 else " " * len(head)
                    out(f"    {head} {file}:{line_no} uses {target}{more if i == 0 else ''}")
    return files, graph, found, folder_found


def self_test():
    """The check on a tiny tree with known cycles, so that a broken parser cannot pass silently."""
    import tempfile

    tree = {
        "lib.rs": "mod a;\nmod b;\nmod p;\nmod f;\nmod g;\nmod k;\nmod m;\nmod t;\nmod u;\nmod v;\nmod w;\n"
        "mod q;\nmod s;\nmod lone;\nmod x;\nmod h;\n",
        # a <-> b through crate:: and super:: paths (files)
        "a.rs": "use crate::b::B;\nuse crate::lone::l;\npub struct A;\n",
        "b.rs": "use super::a::A;\npub struct B;\n",
        # no edge back to a: paths in comments and strings
        "lone.rs": "pub fn l() {}\n// crate::a::A\n/* use crate::b::B; */\nconst S: &str = \"crate::a::A\";\n"
        "const C: char = '{';\n",
        # x <-> h::j, seen only through the module x imports by name (`use crate::h; h::j::J`)
        "x.rs": "use crate::h;\npub fn x() -> h::j::J { todo!() }\n",
        "h/mod.rs": "pub mod j;\n",
        "h/j.rs": "pub struct J;\npub fn j() { crate::x::x(); }\n",
        # p (p/mod.rs) <-> p::c: the parent calls its child, the child imports the parent (files)
        "p/mod.rs": "mod c;\npub struct P;\npub fn f() { c::g(); }\n",
        "p/c.rs": "use super::P;\npub fn g() {}\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
        # f/ <-> g/ through different files: a folder cycle only
        "f/mod.rs": "pub mod x;\npub mod y;\n",
        "f/x.rs": "use crate::g;\npub fn x() { g::z::z(); }\n",
        "f/y.rs": "pub struct Y;\n",
        "g/mod.rs": "pub mod z;\npub mod w;\n",
        "g/z.rs": "pub fn z() {}\n",
        "g/w.rs": "use super::super::f::{y::{self, Y}};\n",
        # k/ <-> m.rs, with nested groups from the crate root: a folder cycle only
        "k/mod.rs": "pub mod a;\npub mod b;\n",
        "k/a.rs": "use crate::{m::{M}, a};\n",
        "k/b.rs": "pub struct B;\n",
        "m.rs": "pub struct M;\nuse crate::k::{b::*};\n",
        # t (t/mod.rs) <-> u: a test module declared before the rest of the file (files)
        "t/mod.rs": "#[cfg(test)]\nmod tests;\npub fn f() { super::u::g(); }\n",
        "t/tests.rs": "use super::f;\n",
        "u.rs": "pub fn g() {}\npub fn h() { crate::t::f(); }\n",
        # v/ <-> w/ through a test file v/tests.rs: a folder cycle only
        "v/mod.rs": "#[cfg(test)]\nmod tests;\npub fn v() {}\n",
        "v/tests.rs": "use crate::w::W;\n",
        "w/mod.rs": "pub struct W;\npub fn f() { crate::v::v(); }\n",
        # q/ <-> s.rs through an inline test module (not named tests) in q/r.rs: a folder cycle only
        "q/mod.rs": "pub mod r;\npub struct Q;\n",
        "q/r.rs": "pub fn r() {}\n#[cfg(test)]\nmod r_tests {\n    use super::super::super::s::S;\n}\n",
        "s.rs": "pub struct S;\npub fn f() -> crate::q::Q { todo!() }\n",
    }
    with tempfile.TemporaryDirectory() as root:
        for name, text in tree.items():
            os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
            with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                f.write(text)
        _, _, found, folder_found = report(root, out=lambda _: None)
    found = [["::".join(m) for m in c] for c in found]
    folder_found = sorted(["/".join(level)] + list(component) for level, component, _ in folder_found)
    expected = [["a", "b"], ["h::j", "x"], ["p", "p::c"], ["t", "u"]]
    expected_folders = [["", "f", "g"], ["", "k", "m"], ["", "q", "s"], ["", "v", "w"]]
    if found != expected or folder_found != expected_folders:
        print(f"check_imports: self-test failed: found {found} and folder cycles {folder_found}, "
              f"expected {expected} and {expected_folders}")
        sys.exit(2)


def main():
    self_test()
    args = [a for a in sys.argv[1:] if a != "-v"]
    root = args[0] if args else "src"
    files, graph, found, folder_found = report(root, verbose="-v" in sys.argv[1:])
    print(f"check_imports: {len(files)} modules, {sum(map(len, graph.values()))} imports, "
          f"{len(found)} file cycles, {len(folder_found)} folder cycles")
    sys.exit(1 if found or folder_found else 0)


if __name__ == "__main__":
    main()
