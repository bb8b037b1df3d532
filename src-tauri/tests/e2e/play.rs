//! Playing: against the computer and between two players, a restart, the cold start.

use crate::support::*;

#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn computer_answers_undo_takes_back_the_pair_and_a_restart_restores_the_game() {
    // The first start is a two-player game at level 1; the player switches in Settings.
    let mut first = settings("local");
    first["level"] = json!(1);
    let (_data, mut driver, c) = launch("computer", first, DESKTOP).await;
    place(&c, "a1", "black").await;

    click(&c, Locator::Css("#settings")).await;
    click(
        &c,
        Locator::XPath("//input[@name='mode'][@value='computer']/parent::label"),
    )
    .await;
    click(
        &c,
        Locator::XPath("//input[@name='level'][@value='2']/parent::label"),
    )
    .await;
    click(&c, Locator::Css("#apply-new-game")).await;
    wait_for(
        &c,
        "a new game against Easy",
        "document.querySelector('#meta').textContent.includes('Easy') \
         && document.querySelectorAll('#board [data-stone=\"black\"]').length === 0",
        Duration::from_secs(5),
    )
    .await;
    assert_eq!(
        stones(&c).await,
        json!({}),
        "the new game starts on an empty board"
    );

    place(&c, "h8", "black").await;
    wait_whites(&c, "the computer's reply", 1, Duration::from_secs(30)).await;
    assert_eq!(count_stones(&c, "black").await, 1);

    click(&c, Locator::Css("#undo")).await;
    wait_stones(&c, "undo of both moves", 0, Duration::from_secs(5)).await;

    place(&c, "g7", "black").await;
    wait_whites(&c, "the computer's reply", 1, Duration::from_secs(30)).await;
    place(&c, "j9", "black").await;
    wait_whites(
        &c,
        "the computer's second reply",
        2,
        Duration::from_secs(30),
    )
    .await;
    let before = stones(&c).await;
    screenshot(&c, "desktop-vs-computer-480x800.png").await;

    // The app is gone with the session; a new one must find the game on disk.
    let c = restart(&mut driver, c).await;
    wait_stones(&c, "the restored stones", 4, Duration::from_secs(10)).await;
    assert_eq!(
        stones(&c).await,
        before,
        "the restarted app shows the same game"
    );
    c.close().await.expect("end session");
}

#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn two_players_play_to_five_and_the_winning_line_is_marked() {
    let (_data, _driver, c) = launch("local", settings("local"), DESKTOP).await;

    let black = ["h8", "i8", "j8", "k8", "l8"];
    let white = ["h9", "i9", "j9", "k9"];
    for (i, b) in black.iter().enumerate() {
        place(&c, b, "black").await;
        if let Some(w) = white.get(i) {
            place(&c, w, "white").await;
        }
    }
    wait_for(
        &c,
        "the winning line",
        "document.querySelectorAll('#board [data-win=\"true\"]').length === 5",
        Duration::from_secs(5),
    )
    .await;
    let mut marked: Vec<String> = js(
        &c,
        "return [...document.querySelectorAll('#board [data-win=\"true\"]')].map(e => e.getAttribute('data-point'));",
        vec![],
    )
    .await
    .as_array()
    .expect("array")
    .iter()
    .map(|v| v.as_str().unwrap_or_default().to_string())
    .collect();
    marked.sort();
    assert_eq!(marked, black);
    let status = status_text(&c).await.to_lowercase();
    assert!(
        status.contains("black") && status.contains("win"),
        "#status tells the result: {status:?}"
    );

    // A tap after the end places nothing.
    tap_handled(&c, "a1").await;
    assert_eq!(count_stones(&c, "white").await, 4);
    assert_eq!(count_stones(&c, "black").await, 5);

    screenshot(&c, "desktop-five-480x800.png").await;
    resize(&c, PHONE.0, PHONE.1).await;
    screenshot(&c, "phone-five-390x844.png").await;
    c.close().await.expect("end session");
}

/// Cold start to a playable board, as the WebDriver client sees it: from asking for a session
/// (which launches the app) to gridcells in `#board`. Prints and records the median of 5.
#[tokio::test]
#[ignore = "needs Xvfb + tauri-driver (run by the test script)"]
async fn cold_start_to_a_playable_board() {
    let data = DataDir::new("cold-start");
    let mut driver = Driver::start(&data.0);
    let mut times = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let c = driver.session().await;
        wait_board(&c).await;
        times.push(start.elapsed());
        c.close().await.expect("end session");
    }
    times.sort();
    let ms: Vec<u128> = times.iter().map(Duration::as_millis).collect();
    let line = format!("cold start to board (ms, sorted): {ms:?}; median {}", ms[2]);
    println!("{line}");
    std::fs::write(artifacts().join("cold-start.txt"), line + "\n").expect("write result");
}
