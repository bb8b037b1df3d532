//! Helpers shared by the crate's unit tests.

use crate::Point;

/// The point written `s` in RIF notation on a 15×15 board (`"h8"` is the centre).
pub(crate) fn pt(s: &str) -> Point {
    Point::from_rif(s, 15).unwrap()
}

/// The points of a move string on a 15×15 board, `"h8 i9 g7"`.
pub(crate) fn pts(list: &str) -> Vec<Point> {
    list.split_whitespace().map(pt).collect()
}
