//! Issue 26 §8: WebDriver sessions were lost when the page was queried while a move, the
//! computer's reply or a hint was still being handled. Here the page is queried at once after
//! every tap, and again and again until the UI is idle, for many moves: the session, the page
//! and the app must all survive it.

use crate::support::*;

/// Points near the centre, tried in order: the computer plays near them too, so the game is
/// short and every move is a real search.
const POINTS: [&str; 24] = [
    "h8", "i9", "g7", "h9", "g9", "i7", "j10", "f6", "f10", "j6", "h10", "h6", "e8", "k8", "g8",
    "i8", "h7", "j8", "f8", "e5", "k11", "e11", "k5", "d4",
];

/// Queries the page (the stones, the status, the busy flag) without pause until `done` holds,
/// and returns how many queries it took.
async fn hammer(c: &Client, what: &str, done: &str, timeout: Duration) -> u32 {
    let deadline = Instant::now() + timeout;
    let mut queries = 0;
    loop {
        let v = js(
            c,
            &format!(
                "return {{ stones: document.querySelectorAll('#board [data-stone=\"black\"], #board [data-stone=\"white\"]').length,
                           status: document.querySelector('#status').textContent,
                           busy: document.body.hasAttribute('data-busy'),
                           done: !!({done}) }};"
            ),
            vec![],
        )
        .await;
        queries += 1;
        if v["done"] == json!(true) {
            return queries;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what} ({done}); last answer {v}"
        );
    }
}

/// Starts a new game as a player does, so the page knows of it (the shell tells the page
/// nothing on its own): Play again on the game-over sheet, or Settings → Start a new game for a
/// game in progress.
async fn new_game(c: &Client, over: bool) {
    if over {
        wait_sheet_still(c, "gameover-sheet").await;
        click(c, Locator::Css("#play-again")).await;
    } else {
        open_settings(c).await;
        click(c, Locator::Css("#apply-new-game")).await;
    }
    wait_for(
        c,
        "a new game",
        &format!(
            "{IDLE} && document.querySelectorAll('#board [data-stone=\"black\"], #board [data-stone=\"white\"]').length === 0"
        ),
        Duration::from_secs(10),
    )
    .await;
}

#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn the_page_answers_queries_while_moves_replies_and_hints_are_in_flight() {
    const MOVES: usize = 40;
    let (_data, _driver, c) = launch("stress", settings("computer"), DESKTOP).await;
    let (mut played, mut hints, mut queries, mut games) = (0, 0, 0, 1);
    while played < MOVES {
        let view = game_view(&c).await;
        if !view["result"].is_null() {
            new_game(&c, true).await;
            games += 1;
            continue;
        }
        // Every other move, a hint first: tap it and query the page while the engine thinks.
        if played % 2 == 0 {
            click(&c, Locator::Css("#hint")).await;
            queries += hammer(
                &c,
                "the hint",
                "!document.body.hasAttribute('data-busy') \
                 && document.querySelector('#hint').getAttribute('aria-pressed') === 'true'",
                Duration::from_secs(30),
            )
            .await;
            hints += 1;
        }
        let taken = stones(&c).await;
        let Some(point) = POINTS.iter().find(|p| taken.get(**p).is_none()) else {
            new_game(&c, false).await;
            games += 1;
            continue;
        };
        let before = taken.as_object().map_or(0, serde_json::Map::len);
        click_point(&c, point).await;
        // The move and the computer's reply (or the end): queried from the first moment on.
        queries += hammer(
            &c,
            &format!("the move at {point} and the reply"),
            &format!(
                "!document.body.hasAttribute('data-busy') \
                 && (document.querySelectorAll('#board [data-stone=\"black\"], #board [data-stone=\"white\"]').length >= {before} + 2 \
                     || document.querySelector('#gameover-sheet').open)"
            ),
            Duration::from_secs(30),
        )
        .await;
        played += 1;
    }
    println!(
        "stress: {played} moves and {hints} hints in {games} games, {queries} page queries \
         while they were in flight"
    );
    c.close().await.expect("end session");
}
