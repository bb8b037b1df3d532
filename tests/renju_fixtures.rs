//! Every referee case in `tests/fixtures/renju_cases.txt` (a copy of the project's verified
//! fixture file) and `tests/fixtures/renju_five_point_threes.txt` (threes whose straight-four
//! point makes a five, issue 11). Each file's header and each case cite their sources.

use std::fmt::Write as _;

use wuzi::{forbidden_at, forbidden_points, win_at, Board, Color, Forbidden, Point, Rule, WinKind};

/// Each fixture file with the number of cases it holds, so a lost case is noticed.
const FIXTURES: [(&str, &str, usize); 2] = [
    (
        "renju_cases.txt",
        include_str!("fixtures/renju_cases.txt"),
        66,
    ),
    (
        "renju_five_point_threes.txt",
        include_str!("fixtures/renju_five_point_threes.txt"),
        20,
    ),
];

#[derive(Debug, PartialEq)]
enum Expect {
    Legal,
    WinFive,
    WinOverline(Color),
    NoWin,
    Forbidden(Forbidden),
}

#[derive(Debug)]
struct Case {
    id: String,
    rule: Rule,
    board: Board,
    to_move: Color,
    probe: Point,
    expect: Expect,
}

fn parse_expect(s: &str) -> Result<Expect, String> {
    Ok(match s.trim() {
        "legal" => Expect::Legal,
        "win five" => Expect::WinFive,
        "win overline(white)" => Expect::WinOverline(Color::White),
        "win overline(black)" => Expect::WinOverline(Color::Black),
        "no win, game continues" => Expect::NoWin,
        "forbidden double-three" => Expect::Forbidden(Forbidden::DoubleThree),
        "forbidden double-four" => Expect::Forbidden(Forbidden::DoubleFour),
        "forbidden overline" => Expect::Forbidden(Forbidden::Overline),
        other => return Err(format!("unknown expect {other:?}")),
    })
}

/// One `=== id title` block: its `key: value` lines, then an optional board diagram.
fn parse_case(block: &str) -> Result<Case, String> {
    let mut lines = block.lines();
    let header = lines.next().unwrap_or_default();
    let id = header.split_whitespace().next().unwrap_or("?").to_string();
    let size = 15;
    let mut rule = None;
    let mut to_move = None;
    let mut probe_text = None;
    let mut expect = None;
    let mut moves = None;
    let mut rows: Vec<&str> = Vec::new();
    let mut in_board = false;
    for line in lines {
        if in_board {
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            if t.chars().all(|c| c.is_ascii_lowercase()) {
                continue; // the column-letter header
            }
            rows.push(line);
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match key.trim() {
            "rule" => rule = Some(value.parse::<Rule>().map_err(|e| e.to_string())?),
            "to_move" => to_move = Some(value.parse::<Color>().map_err(|e| e.to_string())?),
            // "i8   (played by the side to move after the moves)": the point is the first word.
            "probe" => probe_text = value.split_whitespace().next().map(str::to_string),
            "expect" => expect = Some(parse_expect(value)?),
            "moves" => moves = Some(value.to_string()),
            "board" => in_board = true,
            _ => {}
        }
    }
    let rule = rule.ok_or("no rule")?;
    let expect = expect.ok_or("no expect")?;
    let probe_text = probe_text.ok_or("no probe")?;
    let probe = Point::from_rif(&probe_text, size).map_err(|e| e.to_string())?;
    let mut board = Board::new(size).map_err(|e| e.to_string())?;

    let to_move = if let Some(moves) = moves {
        let mut color = Color::Black;
        for m in moves.split_whitespace() {
            let p = Point::from_rif(m, size).map_err(|e| e.to_string())?;
            if !board.is_empty_at(p) {
                return Err(format!("move {m} is on an occupied point"));
            }
            board.place(p, color);
            color = color.other();
        }
        if let Some(given) = to_move {
            if given != color {
                return Err(format!(
                    "to_move {given} but the moves leave {color} to move"
                ));
            }
        }
        color
    } else {
        if rows.len() != usize::from(size) {
            return Err(format!("board has {} rows, expected {size}", rows.len()));
        }
        let mut question = None;
        for row in rows {
            let (num, cells) = row.trim_start().split_once(' ').ok_or("malformed row")?;
            let number: u8 = num.parse().map_err(|_| format!("bad row number {num:?}"))?;
            if number == 0 || number > size || cells.chars().count() != usize::from(size) {
                return Err(format!("malformed board row {row:?}"));
            }
            let y = size - number;
            for (x, c) in (0u8..).zip(cells.chars()) {
                let p = Point::new(x, y);
                match c {
                    'X' => board.place(p, Color::Black),
                    'O' => board.place(p, Color::White),
                    '.' => {}
                    '?' => question = Some(p),
                    other => return Err(format!("unknown board character {other:?}")),
                }
            }
        }
        // Some boards mark the probe with '?', others only name it.
        if question.is_some_and(|q| q != probe) {
            return Err(format!("probe {probe_text} is not the board's '?'"));
        }
        to_move.ok_or("no to_move for a board case")?
    };
    if !board.is_empty_at(probe) {
        return Err(format!("probe {probe_text} is occupied"));
    }
    Ok(Case {
        id,
        rule,
        board,
        to_move,
        probe,
        expect,
    })
}

fn parse_file(text: &str) -> Vec<Result<Case, (String, String)>> {
    text.split("\n=== ")
        .skip(1) // the header with the format and sources
        .map(|block| {
            parse_case(block).map_err(|e| {
                let id = block.split_whitespace().next().unwrap_or("?").to_string();
                (id, e)
            })
        })
        .collect()
}

fn parse_all() -> Vec<Result<Case, (String, String)>> {
    FIXTURES
        .iter()
        .flat_map(|(_, text, _)| parse_file(text))
        .collect()
}

/// What the referee says when the side to move plays the probe.
fn judge(case: &Case) -> Result<Expect, String> {
    let mut board = case.board.clone();
    if case.rule.has_forbidden(case.to_move) {
        let before = board.clone();
        let verdict = forbidden_at(&mut board, case.probe);
        if board != before || board.hash() != before.hash() {
            return Err("forbidden_at did not restore the board".into());
        }
        let listed = forbidden_points(&board, case.rule)
            .into_iter()
            .find(|(p, _)| *p == case.probe)
            .map(|(_, r)| r);
        if listed != verdict {
            return Err(format!(
                "forbidden_at says {verdict:?} but forbidden_points lists {listed:?}"
            ));
        }
        if let Some(reason) = verdict {
            return Ok(Expect::Forbidden(reason));
        }
    }
    board.place(case.probe, case.to_move);
    Ok(match win_at(&board, case.probe, case.rule) {
        None => match case.expect {
            // "legal" and "no win, game continues" both mean: allowed and not winning.
            Expect::NoWin => Expect::NoWin,
            _ => Expect::Legal,
        },
        Some(win) if win.color != case.to_move => {
            return Err(format!(
                "win credited to {} instead of the mover",
                win.color
            ))
        }
        Some(win) => match win.kind {
            WinKind::Five if win.line.len() == 5 => Expect::WinFive,
            WinKind::Overline if win.line.len() > 5 => Expect::WinOverline(win.color),
            kind => return Err(format!("{kind} with a line of {}", win.line.len())),
        },
    })
}

#[test]
fn every_fixture_case_passes() {
    let cases = parse_all();
    let mut failures = String::new();
    let mut passed = 0;
    for case in &cases {
        match case {
            Err((id, e)) => writeln!(failures, "  {id}: cannot parse: {e}").unwrap(),
            Ok(case) => match judge(case) {
                Ok(got) if got == case.expect => passed += 1,
                Ok(got) => writeln!(
                    failures,
                    "  {}: expected {:?}, got {got:?}\n{}",
                    case.id, case.expect, case.board
                )
                .unwrap(),
                Err(e) => writeln!(failures, "  {}: {e}", case.id).unwrap(),
            },
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} referee fixture cases failed:\n{failures}",
        cases.len() - passed,
        cases.len()
    );
    for (name, text, expected) in FIXTURES {
        assert_eq!(
            parse_file(text).len(),
            expected,
            "{name} lost or gained cases"
        );
    }
}

#[test]
fn fixture_verdicts_are_symmetric() {
    // The referee must not care how the board is turned: every case under all 8 symmetries.
    for case in parse_all().into_iter().flatten() {
        let size = case.board.size();
        for sym in 1..8 {
            let mut board = Board::new(size).unwrap();
            for (p, c) in case.board.stones() {
                board.place(p.transform(sym, size), c);
            }
            let turned = Case {
                id: case.id.clone(),
                rule: case.rule,
                board,
                to_move: case.to_move,
                probe: case.probe.transform(sym, size),
                expect: Expect::Legal,
            };
            let expected = judge(&case).unwrap();
            let mut got = judge(&turned).unwrap();
            if expected == Expect::NoWin && got == Expect::Legal {
                got = Expect::NoWin;
            }
            assert_eq!(got, expected, "{} under symmetry {sym}", case.id);
        }
    }
}
