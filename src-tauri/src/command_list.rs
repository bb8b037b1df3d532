// The app's commands (the App IPC contract in docs/architecture.md), listed once. This list
// drives `generate_handler!` (lib.rs), the `allow-<command>` permissions and the capability
// that grants them (build.rs, which includes this file), and the browser host's dispatch
// (web/src/host.rs, which includes it too); tests/contract.rs checks the
// `#[tauri::command]` functions, ui/api.js and the docs' table against it. Plain `macro_rules!`
// with no imports, so build.rs can `include!` it.

/// Calls the macro `$then` with the name of every command, in braces.
macro_rules! app_commands {
    ($then:ident) => {
        $then! {
            get_state,
            new_game,
            play,
            computer_move,
            choose_opening,
            cancel_search,
            undo,
            redo,
            hint,
            export_record,
            import_record,
            get_settings,
            set_settings,
            get_stats,
            save_now,
            haptic_tick,
            start_analysis,
            stop_analysis,
            start_review,
            cancel_review,
            set_clock_paused,
            check_clock,
            check_setup,
            start_setup,
        }
    };
}
