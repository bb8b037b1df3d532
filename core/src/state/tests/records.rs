//! Game records: export and import as a new game.

use crate::state::RecordFormat;

use super::{fresh, play, two_players};

#[test]
fn records_round_trip_as_a_new_game() {
    let (_dir, mut core) = fresh();
    two_players(&mut core);
    for p in ["h8", "i9", "g7"] {
        play(&mut core, p);
    }
    let before = core.view();
    for format in [RecordFormat::Moves, RecordFormat::Sgf] {
        let text = core.game().export_record(format).unwrap();
        let v = core.game().import_record(&text).unwrap();
        assert_eq!(v.moves, before.moves, "{format:?}: {text}");
        assert!(v.game_id > before.game_id);
    }
}
