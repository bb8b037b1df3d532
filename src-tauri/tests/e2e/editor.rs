//! The position editor and set-up positions (issue 10 §5).

use crate::support::*;

#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn a_set_up_position_is_refused_with_a_five_then_played_against_the_computer() {
    let (_data, mut driver, c) = launch("editor", settings("computer"), PHONE).await;

    open_editor(&c).await;
    // Black in hand: a five on row 8 and a white stone beside it.
    for point in ["d8", "e8", "f8", "g8", "h8"] {
        place(&c, point, "black").await;
    }
    click(&c, Locator::Css("#edit-white")).await;
    place(&c, "i8", "white").await;
    click(&c, Locator::Css("#edit-done")).await;
    wait_for(
        &c,
        "the refusal",
        "document.querySelector('#edit-message').textContent.includes('five in a row')",
        Duration::from_secs(5),
    )
    .await;
    let message = js(
        &c,
        "return document.querySelector('#edit-message').textContent;",
        vec![],
    )
    .await;
    assert_eq!(
        message,
        json!("Black already has five in a row (D8–H8): a position to play cannot be won already")
    );
    assert!(shown(&c, "#editor").await, "the editor stays open");
    let marked = js(
        &c,
        "return [...document.querySelectorAll('#board [data-win=\"true\"]')].map((e) => e.dataset.point).sort();",
        vec![],
    )
    .await;
    assert_eq!(marked, json!(["d8", "e8", "f8", "g8", "h8"]));
    let game = invoke(&c, "get_state", json!({})).await["game"].clone();
    assert_eq!(
        (
            game["gameId"].clone(),
            game["moves"].clone(),
            game["setup"].clone()
        ),
        (json!(1), json!([]), Value::Null),
        "the refused position changed nothing"
    );
    screenshot(&c, "editor-390x844.png").await;

    // White at h8 instead, and white to move: black threatens c8, so the computer (white)
    // must answer there.
    place(&c, "h8", "white").await;
    click(&c, Locator::Css("#edit-to-move")).await;
    wait_for(
        &c,
        "white to move",
        "document.querySelector('#edit-to-move').dataset.color === 'white'",
        Duration::from_secs(5),
    )
    .await;
    finish_editing(&c).await;
    screenshot(&c, "editor-choice-390x844.png").await;
    click(&c, Locator::Css("#setup-computer-black")).await;
    wait_for(
        &c,
        "the computer's answer at c8",
        "document.querySelector('#editor').hidden \
         && document.querySelector('#board [data-point=\"c8\"]').getAttribute('data-stone') === 'white'",
        Duration::from_secs(30),
    )
    .await;
    let on_board = stones(&c).await;
    assert_eq!(
        on_board,
        json!({ "d8": "black", "e8": "black", "f8": "black", "g8": "black",
                "h8": "white", "i8": "white", "c8": "white" })
    );
    wait_for(
        &c,
        "the human's turn",
        "document.querySelector('#status').textContent === 'Your move'",
        Duration::from_secs(5),
    )
    .await;
    let sgf = invoke(&c, "export_record", json!({ "format": "sgf" })).await;
    let sgf = sgf.as_str().unwrap_or_default();
    assert!(
        sgf.contains("AB[dh][eh][fh][gh]") && sgf.contains("PL[W]") && sgf.contains(";W[ch]"),
        "{sgf}"
    );
    // The human's move, then a restart finds the set-up game as it was.
    place(&c, "j8", "black").await;
    wait_whites(
        &c,
        "the computer's second answer",
        4,
        Duration::from_secs(30),
    )
    .await;
    let on_board = stones(&c).await;

    let c = restart(&mut driver, c).await;
    wait_stones(&c, "the restored set-up game", 9, Duration::from_secs(10)).await;
    assert_eq!(stones(&c).await, on_board);
    let meta = meta_text(&c).await;
    assert!(
        meta.as_str()
            .unwrap_or_default()
            .contains("set-up position"),
        "{meta}"
    );
    c.close().await.expect("end session");
}

#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn a_set_up_position_is_analysed_from_its_own_stones() {
    let (_data, _driver, c) = launch("editor-analyse", settings("computer"), PHONE).await;
    open_editor(&c).await;
    for point in ["d8", "e8", "f8", "g8"] {
        place(&c, point, "black").await;
    }
    click(&c, Locator::Css("#edit-white")).await;
    place(&c, "h8", "white").await;
    click(&c, Locator::Css("#edit-to-move")).await;
    finish_editing(&c).await;
    let tapped = Instant::now();
    click(&c, Locator::Css("#setup-analyse")).await;
    // White must block at c8: the best candidate there proves the engine saw the set-up stones.
    wait_for(
        &c,
        "the analysis' best move at c8",
        "document.querySelector('#eval').hasAttribute('data-score') \
         && document.querySelector('.mark.cand[data-rank=\"1\"]')?.dataset.point === 'c8'",
        Duration::from_secs(20),
    )
    .await;
    eprintln!(
        "e2e: Analyse it → first line on screen in {} ms",
        tapped.elapsed().as_millis()
    );
    let status = status_text(&c).await;
    assert_eq!(status, "White to move");
    assert_eq!(
        js(
            &c,
            "return document.querySelector('#analysis').getAttribute('aria-pressed');",
            vec![]
        )
        .await,
        json!("true")
    );
    c.close().await.expect("end session");
}
