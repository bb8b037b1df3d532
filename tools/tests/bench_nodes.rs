//! `wuzi-tools bench`'s node counts are the ones `docs/bench-nodes.txt` records: the count at a
//! fixed depth is deterministic, so a change to move generation, ordering, pruning, evaluation
//! or the threat search moves it, and must update the file knowingly in the same commit (the
//! way chess engines check their bench signature in CI).

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_wuzi-tools");

/// `(depth, nodes)` from the file's `depth D: N nodes` lines.
fn recorded() -> Vec<(u32, u64)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/bench-nodes.txt");
    let text = std::fs::read_to_string(path).expect("docs/bench-nodes.txt is readable");
    text.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("depth ")?;
            let (depth, nodes) = rest.split_once(": ")?;
            let nodes = nodes.strip_suffix(" nodes")?;
            Some((depth.parse().ok()?, nodes.parse().ok()?))
        })
        .collect()
}

#[test]
fn bench_node_counts_match_the_recorded_ones() {
    let recorded = recorded();
    assert!(
        recorded.len() >= 3,
        "docs/bench-nodes.txt records depths 3, 6 and 8: {recorded:?}"
    );
    for (depth, nodes) in recorded {
        let out = Command::new(BIN)
            .args(["bench", "--depth", &depth.to_string()])
            .output()
            .expect("wuzi-tools bench runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let measured: u64 = stdout
            .lines()
            .find_map(|l| l.strip_prefix("nodes: "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("no `nodes:` line in {stdout}"));
        assert_eq!(
            measured, nodes,
            "wuzi-tools bench --depth {depth} searched {measured} nodes, docs/bench-nodes.txt says \
             {nodes}: a search change must update the file and say why"
        );
    }
}
