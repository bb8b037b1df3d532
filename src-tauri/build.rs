//! Generates the Tauri context and one `allow-<command>` permission per app command, and the
//! main window's capability granting exactly those, so the UI can call the app's commands and
//! nothing else. The commands come from `src/command_list.rs`, their one list.

include!("src/command_list.rs");

/// The names of the commands, as the list gives them.
macro_rules! names {
    ($($name:ident),* $(,)?) => {
        &[$(stringify!($name)),*]
    };
}

/// Every `#[tauri::command]` the app registers (`src/command_list.rs`).
const COMMANDS: &[&str] = app_commands!(names);

/// The capability of the main window: exactly the app's commands, nothing else. Written here
/// from the list, so it never lags behind it.
fn default_capability() -> String {
    let permissions: Vec<String> = COMMANDS
        .iter()
        .map(|c| format!("    \"allow-{}\"", c.replace('_', "-")))
        .collect();
    format!(
        r#"{{
  "$schema": "../gen/schemas/desktop-schema.json",
  "identifier": "default",
  "description": "The main window may call the app's own commands and nothing else (the UI only invokes them).",
  "windows": ["main"],
  "permissions": [
{}
  ]
}}
"#,
        permissions.join(",\n")
    )
}

fn main() {
    println!("cargo:rerun-if-changed=src/command_list.rs");
    let capability = default_capability();
    let path = "capabilities/default.json";
    if std::fs::read_to_string(path).ok().as_deref() != Some(capability.as_str()) {
        std::fs::write(path, capability).expect("capabilities/default.json is writable");
    }
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS)),
    )
    .expect("failed to run tauri-build");
}
