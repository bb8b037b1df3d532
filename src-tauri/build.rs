//! Generates the Tauri context and one `allow-<command>` permission per app command, so the
//! capabilities can grant exactly the commands the UI calls and nothing else.

/// Every `#[tauri::command]` the app registers; keep in step with `generate_handler!` in lib.rs.
const COMMANDS: &[&str] = &[
    "get_state",
    "new_game",
    "play",
    "computer_move",
    "choose_opening",
    "cancel_search",
    "undo",
    "redo",
    "hint",
    "export_record",
    "import_record",
    "get_settings",
    "set_settings",
    "get_stats",
    "save_now",
    "haptic_tick",
    "start_analysis",
    "stop_analysis",
    "start_review",
    "cancel_review",
    "set_clock_paused",
    "check_clock",
    "check_setup",
    "start_setup",
];

fn main() {
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS)),
    )
    .expect("failed to run tauri-build");
}
