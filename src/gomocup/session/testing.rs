//! Helpers shared by the session's unit tests.

use super::*;
use crate::gomocup::Parser;

pub(super) use crate::testing::pt;

/// Feeds lines; returns the replies of the last one and its `Next`.
pub(super) fn run(session: &mut BrainSession, lines: &[&str]) -> Response {
    let mut parser = Parser::new();
    let mut last = Response::idle(Vec::new());
    for l in lines {
        for parsed in parser.feed(l) {
            last = session.handle(parsed);
        }
    }
    last
}

pub(super) fn request(o: Response) -> ThinkRequest {
    match o.next {
        Next::Think(r) => *r,
        other => panic!("expected a search, got {other:?} with {:?}", o.replies),
    }
}

pub(super) fn error(o: &Response) -> &str {
    match o.replies.last() {
        Some(Reply::Error(m)) => m,
        other => panic!("expected ERROR, got {other:?}"),
    }
}

pub(super) fn started() -> BrainSession {
    let mut s = BrainSession::new();
    let o = run(&mut s, &["START 15"]);
    assert_eq!(o.replies, vec![Reply::Ok]);
    s
}

pub(super) fn thought(p: Point) -> Option<Thought> {
    Some(Thought {
        best: Some(p),
        depth: 3,
        nodes: 10,
        ..Thought::default()
    })
}
