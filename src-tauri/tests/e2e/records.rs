//! Loading, copying and reviewing records (issue 26 §1–4).

use crate::support::*;

/// The text of the message inside the settings sheet's record section, or `null` while it is
/// hidden (or outside the open sheet, where the player would not see it).
async fn record_message(c: &Client) -> Value {
    js(
        c,
        "const sheet = document.querySelector('#settings-sheet');
         const box = document.querySelector('#record-message');
         if (!sheet.open || !box || !sheet.contains(box) || box.getClientRects().length === 0) return null;
         const r = box.getBoundingClientRect(), s = sheet.getBoundingClientRect();
         if (r.top < s.top || r.bottom > s.bottom) return 'outside the sheet: ' + box.textContent;
         return box.querySelector('.sheet-message-text').textContent;",
        vec![],
    )
    .await
}

/// Types `text` into the record box of the open settings sheet and presses Load record.
async fn load_record(c: &Client, text: &str) {
    let field = c
        .find(Locator::Css("#record-text"))
        .await
        .expect("record box");
    field.clear().await.expect("clear the record box");
    field.send_keys(text).await.expect("type the record");
    click(c, Locator::Css("#import-record")).await;
}

/// Waits for the game-over sheet a finished record brings, then closes it.
async fn close_game_over(c: &Client) {
    wait_sheet_still(c, "gameover-sheet").await;
    click(c, Locator::Css("#gameover-sheet [data-close]")).await;
    wait_for(
        c,
        "the game-over sheet to close",
        "!document.querySelector('#gameover-sheet').open",
        Duration::from_secs(5),
    )
    .await;
}

/// What a player met with records (issue 26 §1–4), at the default window size against the
/// computer under freestyle: the editor clear of the header; a garbage record's error inside the
/// sheet until dismissed; finished records of another rule kept (SGF, then a move list read
/// under the game's rule); an unfinished loaded game reviewed against the computer.
#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn loaded_records_are_kept_reviewed_and_their_errors_shown_in_the_sheet() {
    let (_data, _driver, c) = launch("records", settings("computer"), DESKTOP).await;

    // §4: the editor's rows push the board up, never the status bar onto the header.
    open_editor(&c).await;
    let overlap = js(
        &c,
        "const brand = document.querySelector('.brand'), bar = document.querySelector('.statusbar');
         if (brand.getClientRects().length === 0) return 'no header';
         const a = brand.getBoundingClientRect(), b = bar.getBoundingClientRect();
         return [a.top, a.bottom, b.top, b.bottom];",
        vec![],
    )
    .await;
    screenshot(&c, "editor-480x800.png").await;
    if let Some(r) = overlap.as_array() {
        let (brand_bottom, bar_top) = (r[1].as_f64().unwrap(), r[2].as_f64().unwrap());
        assert!(
            brand_bottom <= bar_top + 0.5,
            "header [top, bottom] and status bar [top, bottom]: {overlap}"
        );
    }
    click(&c, Locator::Css("#edit-cancel")).await;
    wait_for(
        &c,
        "the editor to close",
        "document.querySelector('#editor').hidden",
        Duration::from_secs(5),
    )
    .await;

    // §2: a garbage record is refused inside the sheet, and the refusal stays there.
    open_settings(&c).await;
    load_record(&c, "hello world ((").await;
    wait_for(
        &c,
        "the refusal inside the sheet",
        "document.querySelector('#record-message .sheet-message-text')?.textContent",
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(
        record_message(&c).await,
        json!("That record could not be read")
    );
    let since = js(&c, "return performance.now();", vec![]).await;
    // Longer than the status line's notices last (2.6 s).
    wait_for(
        &c,
        "four seconds",
        &format!("performance.now() > {since} + 4000"),
        Duration::from_secs(10),
    )
    .await;
    assert_eq!(
        record_message(&c).await,
        json!("That record could not be read"),
        "the refusal stays until dismissed"
    );
    screenshot(&c, "record-error-480x800.png").await;
    click(&c, Locator::Css("#record-message .sheet-message-close")).await;
    wait_for(
        &c,
        "the refusal dismissed",
        "document.querySelector('#record-message').hidden",
        Duration::from_secs(5),
    )
    .await;
    // Copying says what happened, in the sheet, whether the clipboard took it or not.
    click(&c, Locator::Css("#copy-moves")).await;
    wait_for(
        &c,
        "the copy's outcome inside the sheet",
        "document.querySelector('#record-message')?.hidden === false",
        Duration::from_secs(5),
    )
    .await;
    let copied = record_message(&c).await;
    assert!(
        copied == json!("Copied")
            || copied
                .as_str()
                .is_some_and(|m| m.starts_with("Could not copy")),
        "{copied}"
    );
    println!("copy moves: {copied}");

    // §1: a finished record of another rule is the game now: it stays, under its own rule.
    load_record(
        &c,
        "(;GM[4]FF[4]SZ[15]RU[standard];B[hh];W[ao];B[ih];W[co];B[jh];W[eo];B[kh];W[go];B[lh])",
    )
    .await;
    close_game_over(&c).await;
    let view = game_view(&c).await;
    assert_eq!(view["rule"], json!("standard"));
    assert_eq!(view["moves"].as_array().map(Vec::len), Some(9));
    assert!(view["result"].is_object(), "{view}");
    assert_eq!(
        count_stones(&c, "black").await + count_stones(&c, "white").await,
        9
    );
    assert!(
        meta_text(&c).await.as_str().unwrap().contains("Standard"),
        "{}",
        meta_text(&c).await
    );
    // A move list is read under the game's rule (standard), not the settings' (freestyle).
    open_settings(&c).await;
    load_record(&c, "h8 a1 i8 a3 j8 a5 k8 a7 l8").await;
    close_game_over(&c).await;
    let view = game_view(&c).await;
    assert_eq!(view["rule"], json!("standard"));
    assert_eq!(view["moves"].as_array().map(Vec::len), Some(9));
    assert_eq!(
        count_stones(&c, "black").await + count_stones(&c, "white").await,
        9
    );

    // §3: an unfinished loaded game is reviewed against the computer too.
    open_settings(&c).await;
    load_record(&c, "h8 i9 h9 h10 g8 i8 j7 f9").await;
    wait_for(
        &c,
        "the sheet to close on the loaded game",
        "!document.querySelector('#settings-sheet').open",
        Duration::from_secs(5),
    )
    .await;
    wait_stones(&c, "the record on the board", 8, Duration::from_secs(5)).await;
    open_settings(&c).await;
    let disabled = js(
        &c,
        "return document.querySelector('#review-record').disabled;",
        vec![],
    )
    .await;
    assert_eq!(disabled, json!(false), "Review the game is enabled");
    click(&c, Locator::Css("#review-record")).await;
    review_to_the_end(&c, 8, Duration::from_secs(60)).await;
    let view = game_view(&c).await;
    assert_eq!(view["mode"], json!("computer"));
    assert!(view["result"].is_null(), "{view}");
    assert_eq!(
        view["analysed"],
        json!(true),
        "a game reviewed while it is played against the computer counts as analysed"
    );
    screenshot(&c, "review-loaded-480x800.png").await;
    c.close().await.expect("end session");
}
