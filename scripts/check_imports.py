#!/usr/bin/env python3
"""Fails if a module of src/ imports, directly or through others, a module that imports it back.

A module is a file. An edge A -> B is any path in A that resolves to B: `crate::...`, `super::...`,
`self::...` and the uses of a child declared with `mod b;` (`b::...`). Declaring a child is not an
edge. Test modules (`#[cfg(test)] mod tests`) count too, with their `super::` resolved to the file's
own module. Usage: scripts/check_imports.py [SRC_DIR]  (exit 1 and the cycles if any). It first checks
itself on a tiny tree with two known cycles (exit 2 if it misses them).
"""
import os
import re
import sys

PATH = re.compile(r"\b(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)(::\{([^;]*?)\})?", re.S)
CHILD = re.compile(r"^\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+([a-z_0-9]+)\s*;", re.M)


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


def edges_of(module, path, files):
    source = open(path, encoding="utf-8").read()
    split = source.find("#[cfg(test)]\nmod tests")
    if split >= 0:
        # Inside `mod tests`, `super::` is the file's own module.
        tests = re.sub(r"\bsuper::(super::)?", lambda m: "super::" if m.group(1) else "self::", source[split:])
        source = source[:split] + tests
    source = re.sub(r"//[^\n]*", "", source)
    # `super` of a directory module (mod.rs, lib.rs) is its parent; of a file, the directory's module.
    directory = list(module) if os.path.basename(path) in ("mod.rs", "lib.rs") else list(module[:-1])
    targets = set()
    for match in PATH.finditer(source):
        head, rest, group = match.group(1), match.group(2), match.group(4)
        segments = [s for s in rest.split("::") if s]
        if head == "crate":
            start = []
        elif head == "self":
            start = list(module)
        else:
            start = directory[:-1] if os.path.basename(path) in ("mod.rs", "lib.rs") else directory
            while segments and segments[0] == "super":
                segments, start = segments[1:], start[:-1]
        paths = [start + segments]
        for item in (group or "").split(","):
            item = item.strip().split(" as ")[0].split("::{")[0].strip()
            if item and item != "self":
                paths.append(start + segments + [s for s in item.split("::") if s and s != "*"])
        for full in paths:
            resolved = next((tuple(full[:k]) for k in range(len(full), 0, -1) if tuple(full[:k]) in files), None)
            if resolved not in (None, module, ()):
                targets.add(resolved)
    for child in CHILD.findall(source):
        if re.search(r"(?<![:\w])" + child + r"::", source):
            targets.add(module + (child,))
    return targets


def cycles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    sys.setrecursionlimit(10_000)
    for v in graph:
        if v not in index:
            visit(v)
    return found


def self_test():
    """The check on a tiny tree with known cycles, so that a broken parser cannot pass silently."""
    import tempfile

    tree = {
        "lib.rs": "mod a;\nmod b;\nmod p;\n",
        # a <-> b through crate:: and super:: paths
        "a.rs": "use crate::b::B;\npub struct A;\n",
        "b.rs": "use super::a::A;\npub struct B;\n",
        # p (p/mod.rs) <-> p::c: the parent calls its child, the child imports the parent
        "p/mod.rs": "mod c;\npub struct P;\npub fn f() { c::g(); }\n",
        "p/c.rs": "use super::P;\npub fn g() {}\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
    }
    with tempfile.TemporaryDirectory() as root:
        for name, text in tree.items():
            os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
            with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                f.write(text)
        files = modules(root)
        graph = {module: edges_of(module, path, files) for module, path in files.items()}
        found = sorted(sorted("::".join(m) for m in c) for c in cycles(graph))
    if found != [["a", "b"], ["p", "p::c"]]:
        print(f"check_imports: self-test failed: found {found}, expected a <-> b and p <-> p::c")
        sys.exit(2)


def main():
    self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else "src"
    files = modules(root)
    graph = {module: edges_of(module, path, files) for module, path in files.items()}
    name = "::".join
    found = cycles(graph)
    for component in found:
        print("import cycle:", ", ".join(sorted(name(m) for m in component)))
        for a in sorted(component):
            for b in sorted(graph[a] & set(component)):
                print(f"    {name(a)} -> {name(b)}")
    print(f"check_imports: {len(files)} modules, {sum(map(len, graph.values()))} imports, {len(found)} cycles")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
