//! The browser's host, natively: the commands by name with JSON in and out, the documents
//! passed on to the page, and the analysis one round per step.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use crate::host::WebHost;
use crate::store::WebStore;

/// The page's storage as the forwarded writes leave it.
type Page = Arc<Mutex<BTreeMap<String, String>>>;

fn host_over(docs: &Page) -> WebHost {
    let start: Vec<(String, String)> = docs
        .lock()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let page = Arc::clone(docs);
    WebHost::new(WebStore::new(
        start,
        Box::new(move |name, text| {
            let mut page = page.lock().unwrap();
            match text {
                Some(text) => page.insert(name.to_string(), text.to_string()),
                None => page.remove(name),
            };
        }),
    ))
}

fn call(host: &mut WebHost, name: &str, args: Value) -> Result<Value, Value> {
    host.call(name, &args, &mut |_, _| panic!("{name} sent on a channel"))
}

#[test]
fn a_game_against_the_computer_is_kept_in_the_pages_storage() {
    let page = Page::default();
    let mut host = host_over(&page);
    let state = call(&mut host, "get_state", json!({})).unwrap();
    assert_eq!(state["notices"], json!([]));
    assert_eq!(state["game"]["computerToMove"], false);
    let v = call(
        &mut host,
        "play",
        json!({ "point": "h8", "gameId": 1, "moveNumber": 0 }),
    )
    .unwrap();
    assert_eq!(v["computerToMove"], true);
    let v = call(
        &mut host,
        "computer_move",
        json!({ "gameId": 1, "moveNumber": 1 }),
    )
    .unwrap();
    assert_eq!(v["moves"].as_array().unwrap().len(), 2, "{v}");
    assert_eq!(call(&mut host, "save_now", json!({})).unwrap(), Value::Null);
    assert!(page.lock().unwrap().contains_key("settings.json"));
    // The next visit starts from what the page stored.
    let mut again = host_over(&page);
    let state = call(&mut again, "get_state", json!({})).unwrap();
    assert_eq!(state["game"]["moves"], v["moves"]);
    assert_eq!(state["notices"], json!([]));
}

#[test]
fn a_damaged_save_gives_a_fresh_game_a_notice_and_keeps_the_damage_aside() {
    let page = Page::default();
    page.lock()
        .unwrap()
        .insert("game.json".into(), "{\"version\":1,\"gameId\":".into());
    let mut host = host_over(&page);
    let state = call(&mut host, "get_state", json!({})).unwrap();
    assert_eq!(state["notices"], json!(["gameDamaged"]));
    assert_eq!(state["game"]["moveNumber"], 0);
    let stored = page.lock().unwrap().clone();
    assert_eq!(stored["game.json.corrupt"], "{\"version\":1,\"gameId\":");
    // The fresh game replaced the damaged one at once: the next visit is clean.
    assert!(stored["game.json"].contains("\"gameId\": 1"), "{stored:?}");
    let state = call(&mut host_over(&page), "get_state", json!({})).unwrap();
    assert_eq!(state["notices"], json!([]));
}

#[test]
fn without_storage_the_game_is_played_unsaved_and_the_player_told() {
    let mut host = WebHost::unsaved();
    let state = call(&mut host, "get_state", json!({})).unwrap();
    assert_eq!(state["notices"], json!(["notSaved"]));
    assert_eq!(
        call(&mut host, "save_now", json!({})).unwrap_err()["code"],
        "io"
    );
}

#[test]
fn bad_arguments_and_unknown_commands_are_refused_as_bad_arguments() {
    let mut host = host_over(&Page::default());
    for (name, args) in [
        ("play", json!({ "point": 5, "gameId": 1, "moveNumber": 0 })),
        ("play", json!({ "gameId": 1, "moveNumber": 0 })),
        ("new_game", json!({})),
        ("new_game", json!({ "options": { "size": 99 } })),
        ("export_record", json!({ "format": "pdf" })),
        (
            "start_analysis",
            json!({ "gameId": 1, "moveNumber": 0, "onUpdate": 7 }),
        ),
        ("no_such_command", json!({})),
    ] {
        let err = call(&mut host, name, args.clone()).unwrap_err();
        assert_eq!(err["code"], "badArgument", "{name} {args}: {err}");
        assert!(err["message"].is_string(), "{err}");
    }
    let err = call(
        &mut host,
        "play",
        json!({ "point": "h8", "gameId": 1, "moveNumber": 3 }),
    )
    .unwrap_err();
    assert_eq!(err["code"], "stale");
}

#[test]
fn the_host_answers_every_command_of_the_list() {
    let list = include_str!("../../src-tauri/src/command_list.rs");
    let listed: Vec<&str> = list[list.find("$then! {").unwrap() + 8..]
        .split('}')
        .next()
        .unwrap()
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    assert_eq!(WebHost::COMMANDS, listed.as_slice());
}

#[test]
fn analysis_runs_a_round_per_step_while_it_is_wanted() {
    let mut host = host_over(&Page::default());
    call(
        &mut host,
        "new_game",
        json!({ "options": { "mode": "local" } }),
    )
    .unwrap();
    let generation = call(
        &mut host,
        "start_analysis",
        json!({ "gameId": 2, "moveNumber": 0, "onUpdate": "__CHANNEL__:7" }),
    )
    .unwrap();
    assert!(host.analysing());
    let mut sent = Vec::new();
    assert!(host.step(&mut |c, m| sent.push((c, m))));
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].0, 7);
    assert_eq!(sent[0].1["generation"], generation);
    assert_eq!(sent[0].1["round"], 1);
    // A move in between: the job is no longer current, nothing more is sent.
    call(
        &mut host,
        "play",
        json!({ "point": "h8", "gameId": 2, "moveNumber": 0 }),
    )
    .unwrap();
    assert!(!host.step(&mut |c, m| sent.push((c, m))));
    assert_eq!(sent.len(), 1);
    assert!(!host.analysing());
}

#[test]
fn a_review_reports_its_progress_on_the_channel() {
    let mut host = host_over(&Page::default());
    call(
        &mut host,
        "new_game",
        json!({ "options": { "mode": "local" } }),
    )
    .unwrap();
    call(
        &mut host,
        "play",
        json!({ "point": "h8", "gameId": 2, "moveNumber": 0 }),
    )
    .unwrap();
    let mut sent = Vec::new();
    let v = host
        .call(
            "start_review",
            &json!({ "gameId": 2, "moveNumber": 1, "onProgress": "__CHANNEL__:3" }),
            &mut |c, m| sent.push((c, m)),
        )
        .unwrap();
    assert_eq!(v["review"]["moves"][0]["point"], "h8", "{v}");
    assert_eq!(
        sent.last().unwrap(),
        &(3, json!({ "gameId": 2, "done": 2, "total": 2 }))
    );
}
