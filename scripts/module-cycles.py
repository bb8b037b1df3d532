#!/usr/bin/env python3
"""Lists pairs of modules of one crate or binary (SRC_DIR, default the engine's src/; a crate's
bin/ is skipped, so each binary with modules of its own is checked as its own SRC_DIR) that
import each other.

A module may use its parent and its own submodules freely (a module split into files is one
concern); between any other two modules the imports must go one way only, so that each file can
be read knowing only what it imports. Paths are read from `use` lines and from `crate::…` /
`super::…` paths in code, test modules included; a path through a re-export (`crate::Board`,
`super::Reply`) counts as an import of the module that defines the item.

Exits 1 and prints the pairs if there are any. Usage: scripts/module-cycles.py [SRC_DIR]
"""
import os
import re
import sys

SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "src")


def module_of(path):
    """`src/ai/eval.rs` → ("ai", "eval"); `src/ai/mod.rs` → ("ai",); `src/lib.rs` → ()."""
    rel = os.path.relpath(path, SRC)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib"):
        rel = rel[:-1]
    return tuple(rel)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)


def expand_use(tree):
    """`a::{b, c::{d, e as f}}` → ["a::b", "a::c::d", "a::c::e"] (aliases dropped)."""
    tree = " ".join(tree.split())
    brace = tree.find("{")
    if brace < 0:
        return [tree.split(" as ")[0].replace(" ", "")]
    prefix, inner = tree[:brace].replace(" ", ""), tree[brace + 1 : tree.rfind("}")]
    parts, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    parts.append(cur)
    out = []
    for p in parts:
        if p.strip():
            out += [prefix + q for q in expand_use(p.strip())]
    return out


files = {}
for root, dirs, names in os.walk(SRC):
    if os.path.relpath(root, SRC).split(os.sep)[0] == "bin":
        continue
    for n in names:
        if n.endswith(".rs"):
            path = os.path.join(root, n)
            files[module_of(path)] = strip_comments(open(path, encoding="utf-8").read())
modules = set(files)

# Re-exports: (module, name) → the module the item comes from.
reexports = {}
for mod, text in files.items():
    for m in re.finditer(r"pub(\([a-z]+\))?\s+use\s+([^;]+);", text):
        for path in expand_use(m.group(2)):
            name = path.split("::")[-1]
            reexports[(mod, name)] = path


def resolve(mod, path):
    """The module a path used in `mod` points into, or None (std, other crates)."""
    segs = [s for s in path.split("::") if s]
    if not segs:
        return None
    if segs[0] == "crate":
        base, segs = (), segs[1:]
    elif segs[0] in ("super", "self"):
        base = mod
        while segs and segs[0] in ("super", "self"):
            base = base[:-1] if segs[0] == "super" else base
            segs = segs[1:]
    elif (mod + (segs[0],)) in modules:
        base = mod
    else:
        return None
    for _ in range(8):  # follow re-export chains
        cur = base
        for s in segs:
            if cur + (s,) in modules:
                cur = cur + (s,)
            else:
                break
        rest = segs[len(cur) - len(base) :]
        if rest and (cur, rest[0]) in reexports:
            target = reexports[(cur, rest[0])]
            base, segs = cur, [s for s in target.split("::") if s] + rest[1:]
            if segs[0] == "crate":
                base, segs = (), segs[1:]
            while segs and segs[0] in ("super", "self"):
                base = base[:-1] if segs[0] == "super" else base
                segs = segs[1:]
            continue
        return cur
    return cur


edges = {}
for mod, text in files.items():
    targets = set()
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        for path in expand_use(m.group(1)):
            targets.add(resolve(mod, path))
    for m in re.finditer(r"\b((?:crate|super)(?:::\w+)+)", text):
        targets.add(resolve(mod, m.group(1)))
    edges[mod] = {t for t in targets if t is not None and t != mod}


def related(a, b):
    """One module contains the other: a parent and its submodules."""
    return a[: len(b)] == b or b[: len(a)] == a


pairs = sorted(
    (a, b) for a in edges for b in edges[a] if a < b and a in edges.get(b, ()) and not related(a, b)
)
for a, b in pairs:
    print(f"{'::'.join(a) or 'crate'} <-> {'::'.join(b) or 'crate'}")
sys.exit(1 if pairs else 0)
