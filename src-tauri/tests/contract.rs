//! One list of commands, `src/command_list.rs`: it drives the handler (`generate_handler!` in
//! lib.rs), the permissions build.rs generates and the capability that grants them (written
//! by build.rs); the `#[tauri::command]` functions, the UI's `ui/api.js` and the IPC contract in
//! docs/architecture.md must name the same commands. A command added to one place and
//! forgotten in another fails here, not on a phone.

use std::collections::BTreeSet;
use std::path::Path;

fn read(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text between the first `start` and the next `end` after it.
fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text.find(start).unwrap_or_else(|| panic!("no {start:?}")) + start.len();
    let len = text[from..]
        .find(end)
        .unwrap_or_else(|| panic!("no {end:?}"));
    &text[from..from + len]
}

/// Every identifier that follows `prefix` in `text` (letters, digits, `_` and `-`).
fn after_each(text: &str, prefix: &str) -> BTreeSet<String> {
    text.match_indices(prefix)
        .map(|(i, _)| {
            text[i + prefix.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                .collect::<String>()
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// The commands of the one list.
fn listed() -> BTreeSet<String> {
    let text = read("src/command_list.rs");
    between(&text, "$then! {", "}")
        .split(',')
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
        .collect()
}

#[test]
fn every_layer_names_the_same_commands() {
    let commands = listed();
    assert!(commands.len() >= 10, "{commands:?}");
    for name in &commands {
        assert!(
            name.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
            "{name}"
        );
    }

    // The list drives the handler and the permissions.
    let lib = read("src/lib.rs");
    assert!(lib.contains(".invoke_handler(app_commands!(handler))"));
    assert!(read("build.rs").contains("const COMMANDS: &[&str] = app_commands!(names);"));

    let src = read("src/commands.rs");
    // The first `fn` after each attribute is the command.
    let functions: BTreeSet<String> = src
        .split("\n#[tauri::command]")
        .skip(1)
        .filter_map(|part| {
            let at = part.find("fn ")?;
            after_each(&part[at..], "fn ").into_iter().next().map(|_| {
                part[at + 3..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect()
            })
        })
        .collect();
    assert_eq!(
        functions, commands,
        "#[tauri::command] functions vs src/command_list.rs"
    );

    let granted: BTreeSet<String> = after_each(&read("capabilities/default.json"), "\"allow-")
        .into_iter()
        .map(|p| p.replace('-', "_"))
        .collect();
    assert_eq!(
        granted, commands,
        "capabilities/default.json vs src/command_list.rs"
    );

    let ui = after_each(&read("../ui/api.js"), "call('");
    assert_eq!(ui, commands, "ui/api.js vs src/command_list.rs");

    let docs = read("../docs/architecture.md");
    let section = &docs[docs
        .find("## App IPC contract")
        .expect("the IPC contract section")..];
    let contract = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    let documented: BTreeSet<String> = after_each(contract, "| `")
        .into_iter()
        .chain(after_each(contract, "` / `"))
        .filter(|name| commands.contains(name) || name.contains('_'))
        .collect();
    assert_eq!(
        documented, commands,
        "docs/architecture.md's IPC table vs src/command_list.rs"
    );
}

#[test]
fn the_capability_grants_only_the_apps_commands() {
    let cap: serde_json::Value = serde_json::from_str(&read("capabilities/default.json")).unwrap();
    let permissions: Vec<&str> = cap["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    for p in &permissions {
        assert!(
            p.starts_with("allow-"),
            "{p}: the UI needs no other permission"
        );
    }
}
