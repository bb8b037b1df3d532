//! The `--games-out` file: one JSON object per game, a line each.

use serde_json::json;
use wuzi::notation::moves_to_string;
use wuzi::Color;

use crate::game::GameRecord;
use crate::runner::PairResult;

/// The two games of a pair as lines of JSON (one object per game, each ending in `\n`).
#[must_use]
pub fn games_json(pair: &PairResult, names: &[String; 2], opening: &str, size: u8) -> String {
    let mut out = String::new();
    for (n, g) in pair.games.iter().enumerate() {
        let (black, white) = if n == 0 {
            (&names[0], &names[1])
        } else {
            (&names[1], &names[0])
        };
        let value = game_json(pair.index, n + 1, g, opening, black, white, size);
        out.push_str(&value.to_string());
        out.push('\n');
    }
    out
}

fn game_json(
    pair: usize,
    game: usize,
    g: &GameRecord,
    opening: &str,
    black: &str,
    white: &str,
    size: u8,
) -> serde_json::Value {
    let result = match g.winner {
        Some(c) => c.name(),
        None => "draw",
    };
    let winner = g.winner.map(|c| match c {
        Color::Black => black,
        Color::White => white,
    });
    let times: Vec<f64> = g
        .times_ms
        .iter()
        .map(|t| (t * 10.0).round() / 10.0)
        .collect();
    json!({
        "pair": pair + 1,
        "game": game,
        "opening": opening,
        "black": black,
        "white": white,
        "moves": moves_to_string(&g.moves, size),
        "result": result,
        "winner": winner,
        "reason": g.reason.name(),
        "detail": g.detail,
        "messages": g.messages,
        "times_ms": times,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Reason;

    #[test]
    fn games_are_json_lines() {
        let pair = PairResult {
            index: 4,
            opening: 0,
            games: [
                GameRecord::sample(None, Reason::Full, &[1.04]),
                GameRecord::sample(Some(Color::White), Reason::Timeout, &[]),
            ],
        };
        let names = ["a".to_string(), "b".to_string()];
        let text = games_json(&pair, &names, "h8 i7 g9", 15);
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["pair"], 5);
        assert_eq!(lines[0]["result"], "draw");
        assert_eq!(lines[0]["winner"], serde_json::Value::Null);
        assert_eq!(lines[0]["moves"], "h8 i7 g9");
        assert_eq!(lines[0]["times_ms"][0], 1.0);
        assert_eq!(lines[1]["black"], "b");
        assert_eq!(lines[1]["winner"], "a");
        assert_eq!(lines[1]["reason"], "timeout");
    }
}
