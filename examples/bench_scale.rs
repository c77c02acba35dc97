//! Scale benchmark: a results file of a million players (three million
//! lines), read, checked and ranked in one run; then the HK demo event.
//! Prints wall time, lines per second and peak memory.
//!
//! Run: `cargo run --release --example bench_scale` (or add `-- 250000` for
//! a quicker run with that many players).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use tilerank::event::{Event, Request};
use tilerank::profile::Rules;
use tilerank::rules::qualifiers::select;

/// Games of one 4-player table: (won, score, tiles) per seat, each game
/// valid under the hk checks, varied by `v` so that the ranking has work.
fn table_games(v: i64) -> [[(u8, i64, u16); 4]; 3] {
    let a = 5 + v % 7;
    let b = 10 + v % 11;
    let c = 15 + v % 5;
    [
        // someone went out
        [(1, a + b + c, 0), (0, -a, 2), (0, -b, 3), (0, -c, 4)],
        // nobody went out, one leader (HK example 1 shape)
        [(0, -5, 1), (1, 30, 1), (0, -10, 3), (0, -15, 4)],
        // nobody went out, two leaders sharing the pot (example 2 shape)
        [(0, 11, 3), (0, -12, 2), (1, 11, 1), (0, -10, 4)],
    ]
}

fn write_results(path: &PathBuf, players: usize) -> std::io::Result<usize> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(out, "session,table,game,seat,player,won,score,tiles")?;
    let tables = players / 4;
    let mut lines = 0;
    for t in 0..tables {
        let (session, table) = (t / 25 + 1, t % 25 + 1);
        for (g, seats) in table_games(t as i64).iter().enumerate() {
            for (s, (won, score, tiles)) in seats.iter().enumerate() {
                let seat = (b'A' + s as u8) as char;
                let player = t * 4 + s + 1;
                writeln!(
                    out,
                    "S{session:05},{table},{},{seat},P{player:07},{won},{score:+},{tiles}",
                    g + 1
                )?;
                lines += 1;
            }
        }
    }
    out.flush()?;
    Ok(lines)
}

fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn main() {
    let players: usize = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let dir = std::env::temp_dir().join(format!("tilerank-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("results.csv");

    let t0 = Instant::now();
    let lines = write_results(&path, players).expect("write the results file");
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!(
        "generated {lines} lines ({:.0} MiB) in {:.2?}",
        size as f64 / 1048576.0,
        t0.elapsed()
    );

    let t1 = Instant::now();
    let request = Request {
        inputs: vec![path.clone()],
        roster: None,
        rules: Rules::hk(),
    };
    let event = Event::load(&request).expect("load");
    let loaded = t1.elapsed();
    assert!(
        !event.problems.has_errors(),
        "the generated file has errors"
    );
    let stage = event.stages()[0].clone();
    let standings = event.standings(&stage);
    let q = select(&standings, 120, event.rules.cutoff_ties);
    let total = t1.elapsed();
    println!(
        "large: {} players, {} cards: read+check {:.2?}, total with ranking {:.2?} ({:.0} lines/s), {} qualifiers",
        standings.ranked.len(),
        event.cards.len(),
        loaded,
        total,
        lines as f64 / total.as_secs_f64(),
        q.qualified.len()
    );
    drop(event);
    let _ = std::fs::remove_dir_all(&dir);

    let demo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/hk-2026");
    if demo.join("cards").is_dir() {
        let t2 = Instant::now();
        let request = Request {
            inputs: vec![demo.join("cards")],
            roster: Some(demo.join("roster.csv")),
            rules: Rules::hk(),
        };
        let event = Event::load(&request).expect("load the demo");
        let standings = event.standings(&event.stages()[0]);
        let q = select(&standings, 120, event.rules.cutoff_ties);
        println!(
            "demo: {} cards, {} ranked, {} qualifiers in {:.2?}",
            event.cards.len(),
            standings.ranked.len(),
            q.qualified.len(),
            t2.elapsed()
        );
    }
    if let Some(mib) = peak_rss_mib() {
        println!("peak memory (VmHWM): {mib:.0} MiB");
    }
}
