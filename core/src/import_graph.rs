//! A check of a crate's module structure, run by `cargo test` for the app core and for the
//! Tauri host (which compiles this file in by path): every file of `src/` is a module, every
//! path it names (`crate::…`, `super::…`, `self::…`, or a child module's name) an edge to
//! the module that path leads into, and the graph must have no circle. A
//! circle means two modules can only be understood (and changed) together; the app core's
//! parts (`parts/`) are meant to be read one at a time, each only needing the ones below it.
//!
//! A module may also not glob its parent (`use super::*`) at file level: that hides which
//! parts it depends on. Test modules (`mod tests`, `tests.rs`) may.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A file's module path (`["state", "swap"]`; the crate root is `[]`).
type ModPath = Vec<String>;

/// Who names whom.
type Graph = BTreeMap<ModPath, BTreeSet<ModPath>>;

/// The module path of `file` (relative to `src/`), or `None` for a file that is not part of
/// the library (`main.rs`, the binary).
fn module_of(file: &str) -> Option<ModPath> {
    let file = file.strip_suffix(".rs")?;
    if file == "main" {
        return None;
    }
    let mut parts: ModPath = file.split('/').map(str::to_string).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    Some(parts)
}

/// `text` without comments (doc comments included); strings stay, as a serde attribute's
/// `with = "crate::…"` is a real dependency.
fn strip_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut in_string = false;
    while i < b.len() {
        let c = b[i];
        if in_string {
            if c == b'\\' && i + 1 < b.len() {
                out.push_str(&text[i..i + 2]);
                i += 2;
                continue;
            }
            if c == b'"' {
                in_string = false;
            }
        } else if c == b'"' {
            in_string = true;
        } else if c == b'\'' && b.get(i + 1) == Some(&b'"') && b.get(i + 2) == Some(&b'\'') {
            out.push_str("' '");
            i += 3;
            continue;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let end = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
            out.push(' ');
            i = end;
            continue;
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// What one file names: the module paths (absolute, not yet cut to a known module) and
/// whether it globs its parent at file level.
#[derive(Debug, Default)]
struct Named {
    paths: Vec<ModPath>,
    globs_parent: bool,
}

/// The paths `text` (the file of module `module`) names, its `mod x;` children named bare
/// included.
fn named_paths(module: &ModPath, text: &str) -> Named {
    let text = strip_comments(text);
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut named = Named::default();
    let children: BTreeSet<String> = text
        .lines()
        .filter_map(|l| {
            let l = l.trim().strip_prefix("pub ").unwrap_or(l.trim());
            let name = l.strip_prefix("mod ")?.strip_suffix(';')?;
            Some(name.trim().to_string())
        })
        .collect();
    // The inline modules (`mod tests { … }`) around each point, by brace depth.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        match c {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
            }
            // A string: only a serde attribute's `with = "crate::…"` names a module in one.
            '"' => {
                let mut end = i + 1;
                while end < chars.len() && chars[end].1 != '"' {
                    end += if chars[end].1 == '\\' { 2 } else { 1 };
                }
                let content: String = chars[i + 1..end.min(chars.len())]
                    .iter()
                    .map(|&(_, c)| c)
                    .collect();
                if let Some(path) = content.strip_prefix("crate::").filter(|p| !p.is_empty()) {
                    named.paths.extend(use_tree(path));
                }
                i = end + 1;
                continue;
            }
            // A character literal (`'{'`, `'\''`), not a lifetime.
            '\'' if chars.get(i + 1).is_some_and(|&(_, c)| c == '\\') => {
                i += 4;
                continue;
            }
            '\'' if chars.get(i + 2).is_some_and(|&(_, c)| c == '\'') => {
                i += 3;
                continue;
            }
            _ => {}
        }
        let prev = if i == 0 { ' ' } else { chars[i - 1].1 };
        if !is_ident(c) || is_ident(prev) || prev == ':' {
            i += 1;
            continue;
        }
        let rest = &text[at..];
        let word: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        let after = &rest[word.len()..];
        // `mod name {`: an inline module opens.
        if word == "mod" {
            let name: String = after
                .trim_start()
                .chars()
                .take_while(|&c| is_ident(c))
                .collect();
            if after.trim_start()[name.len()..]
                .trim_start()
                .starts_with('{')
            {
                inline.push((name, depth));
            }
        }
        let here: ModPath = module
            .iter()
            .cloned()
            .chain(inline.iter().map(|(n, _)| n.clone()))
            .collect();
        let found = match word.as_str() {
            "crate" => after.strip_prefix("::").map(|t| (Vec::new(), t)),
            "self" => after.strip_prefix("::").map(|t| (here.clone(), t)),
            "super" => after
                .strip_prefix("::")
                .map(|t| (here[..here.len().saturating_sub(1)].to_vec(), t)),
            // A child module named bare, as in `pub use child::Thing` (not `self.child`).
            w if children.contains(w) && inline.is_empty() && prev != '.' => {
                after.starts_with("::").then(|| (module.clone(), rest))
            }
            _ => None,
        };
        if let Some((base, tail)) = found {
            if word == "super" && inline.is_empty() && tail.starts_with('*') {
                named.globs_parent |= module.last().map_or(true, |m| m != "tests");
            }
            for path in use_tree(tail) {
                named.paths.push(base.iter().cloned().chain(path).collect());
            }
        }
        i += word.chars().count();
    }
    named
}

/// The paths of a use tree or a plain path (`a::b::{c, d::e}` gives `[a, b, c]` and
/// `[a, b, d, e]`), stopping at the first character that ends it.
fn use_tree(text: &str) -> Vec<ModPath> {
    fn tree(s: &[char], i: &mut usize) -> Vec<ModPath> {
        let mut prefix = Vec::new();
        loop {
            let word: String = s[*i..].iter().take_while(|&&c| is_ident(c)).collect();
            if !word.is_empty() {
                *i += word.len();
                prefix.push(word);
            }
            if s.get(*i) == Some(&'{') {
                *i += 1;
                let mut out = Vec::new();
                loop {
                    while s.get(*i).is_some_and(|c| c.is_whitespace() || *c == ',') {
                        *i += 1;
                    }
                    if s.get(*i).map_or(true, |&c| c == '}') {
                        *i += 1;
                        break;
                    }
                    let before = *i;
                    for sub in tree(s, i) {
                        out.push(prefix.iter().cloned().chain(sub).collect());
                    }
                    if *i == before {
                        *i += 1;
                    }
                }
                return out;
            }
            if s[*i..].starts_with(&[':', ':']) {
                *i += 2;
                continue;
            }
            return vec![prefix];
        }
    }
    let s: Vec<char> = text.chars().take(2000).collect();
    tree(&s, &mut 0)
}

/// The module `path` leads into: its longest prefix that is a known module.
fn resolve<'a>(modules: &'a BTreeSet<ModPath>, path: &[String]) -> Option<&'a ModPath> {
    (0..=path.len())
        .rev()
        .find_map(|n| modules.get(&path[..n].to_vec()))
}

/// The edges between `files` (module path and text): who names whom.
fn edges(files: &[(ModPath, String)]) -> (Graph, Vec<ModPath>) {
    let modules: BTreeSet<ModPath> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut graph = Graph::new();
    let mut globbers = Vec::new();
    for (module, text) in files {
        let named = named_paths(module, text);
        if named.globs_parent {
            globbers.push(module.clone());
        }
        let targets = graph.entry(module.clone()).or_default();
        for path in &named.paths {
            if let Some(target) = resolve(&modules, path) {
                if target != module {
                    targets.insert(target.clone());
                }
            }
        }
    }
    (graph, globbers)
}

/// A circle in `graph`, as the modules around it, if there is one.
fn find_circle(graph: &Graph) -> Option<Vec<ModPath>> {
    fn visit(
        graph: &Graph,
        node: &ModPath,
        done: &mut BTreeSet<ModPath>,
        stack: &mut Vec<ModPath>,
    ) -> Option<Vec<ModPath>> {
        if let Some(at) = stack.iter().position(|m| m == node) {
            let mut circle = stack[at..].to_vec();
            circle.push(node.clone());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(circle) = visit(graph, next, done, stack) {
                return Some(circle);
            }
        }
        stack.pop();
        done.insert(node.clone());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(graph, node, &mut done, &mut Vec::new()))
}

fn read_tree(dir: &Path, under: &str, out: &mut Vec<(ModPath, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let rel = if under.is_empty() {
            name
        } else {
            format!("{under}/{name}")
        };
        if path.is_dir() {
            read_tree(&path, &rel, out);
        } else if let Some(module) = module_of(&rel) {
            out.push((
                module,
                std::fs::read_to_string(&path).expect("a source file"),
            ));
        }
    }
}

fn show(m: &ModPath) -> String {
    if m.is_empty() {
        "crate".to_string()
    } else {
        m.join("::")
    }
}

/// Checks the crate whose sources are in `src`: the graph has the edges `must_have` (`from`,
/// `to`, as `state::persist` or `crate`), so the check is known to see the imports that are
/// there, and no circle; no file globs its parent at file level.
///
/// # Panics
/// On a circle, a glob, or a missing edge.
pub(crate) fn check(src: &Path, must_have: &[(&str, &str)]) {
    let mut files = Vec::new();
    read_tree(src, "", &mut files);
    assert!(files.len() > 3, "{} files", files.len());
    let (graph, globbers) = edges(&files);
    for (from, to) in must_have {
        let has = graph
            .iter()
            .any(|(m, t)| show(m) == *from && t.iter().any(|t| show(t) == *to));
        assert!(has, "no edge {from} → {to} in {graph:?}");
    }
    if let Some(circle) = find_circle(&graph) {
        let names: Vec<String> = circle.iter().map(show).collect();
        panic!("an import circle: {}", names.join(" → "));
    }
    let names: Vec<String> = globbers.iter().map(show).collect();
    assert!(
        names.is_empty(),
        "`use super::*` at file level in {names:?}"
    );
}

#[test]
fn a_circle_through_any_kind_of_path_is_found() {
    let file = |m: &str, text: &str| (module_of(m).unwrap(), text.to_string());
    let parent = "mod a;\nmod b;\n";
    // `crate::` one way, a braced `super::` the other.
    let files = [
        file("x/mod.rs", parent),
        file("x/a.rs", "use crate::x::b::Thing;\n"),
        file(
            "x/b.rs",
            "// crate::y is only a comment\nuse super::{a::Other, c};\n",
        ),
        file("y.rs", "fn f() {}\n"),
    ];
    let (graph, _) = edges(&files);
    let circle = find_circle(&graph).expect("a → b → a");
    assert_eq!(circle.len(), 3, "{circle:?}");
    // A parent naming its child bare, and a file-level glob of the parent.
    let files = [
        file("x/mod.rs", "mod a;\npub use a::Thing;\n"),
        file("x/a.rs", "use super::*;\n"),
    ];
    let (graph, globbers) = edges(&files);
    assert!(find_circle(&graph).is_some(), "{graph:?}");
    assert_eq!(globbers, [module_of("x/a.rs").unwrap()]);
    // Without those: no circle, and a test module's glob is fine.
    let files = [
        file("x/mod.rs", "mod a;\nfn f() {}\n"),
        file(
            "x/a.rs",
            "use crate::y::Z;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
        ),
        file("y.rs", "pub struct Z;\n"),
    ];
    let (graph, globbers) = edges(&files);
    assert_eq!(find_circle(&graph), None, "{graph:?}");
    assert!(globbers.is_empty());
}
