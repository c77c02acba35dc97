//! Linear time in rejected cards: results files of 12,500 to 50,000 cards
//! that all fail a check (a `won` of 2 on every card), read and checked as
//! `tilerank check` does; prints the time per card at each size. The time
//! per card stays flat when checking is linear (issue 11: counting errors
//! once scanned every problem for every card, 40k bad cards took 37 s).
//!
//! Run: `cargo run --release --example bench_bad_cards` (add `-- 100000` for
//! a larger top size).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tilerank::event::{Event, Request};
use tilerank::profile::Rules;

/// `cards` cards of 4 seats and 3 games; game 1 of each has a won of 2.
fn write_bad_cards(path: &Path, cards: usize) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(out, "session,table,game,seat,player,won,score,tiles")?;
    for t in 0..cards {
        let (session, table) = (t / 100 + 1, t % 100 + 1);
        let games = [
            [(2, 30, 0), (0, -5, 2), (0, -10, 3), (0, -15, 4)],
            [(0, -5, 1), (1, 30, 1), (0, -10, 3), (0, -15, 4)],
            [(0, 11, 3), (0, -12, 2), (1, 11, 1), (0, -10, 4)],
        ];
        for (g, seats) in games.iter().enumerate() {
            for (s, (won, score, tiles)) in seats.iter().enumerate() {
                let seat = (b'A' + s as u8) as char;
                let player = t * 4 + s + 1;
                writeln!(
                    out,
                    "S{session:04},{table},{},{seat},P{player:07},{won},{score:+},{tiles}",
                    g + 1
                )?;
            }
        }
    }
    out.flush()
}

fn main() {
    let top: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50_000);
    let dir = std::env::temp_dir().join(format!("tilerank-bench-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    println!(
        "{:>8} {:>8} {:>10} {:>14}",
        "cards", "errors", "seconds", "µs per card"
    );
    let mut sizes = vec![top / 4, top / 2, top];
    sizes.dedup();
    for cards in sizes {
        let path: PathBuf = dir.join(format!("bad-{cards}.csv"));
        write_bad_cards(&path, cards).unwrap();
        let start = Instant::now();
        let event = Event::load(&Request {
            keep: tilerank::event::Keep::Cards,
            inputs: vec![path.clone()],
            roster: None,
            rules: Rules::hk(),
        })
        .unwrap();
        // what `check` prints: every problem, sorted, and the counts
        let listed = event
            .problems
            .sorted()
            .iter()
            .map(|p| p.to_string().len())
            .sum::<usize>();
        let errors = event.problems.error_count();
        let seconds = start.elapsed().as_secs_f64();
        assert_eq!(event.counts.cards_rejected, cards, "every card is rejected");
        assert!(listed > 0);
        println!(
            "{cards:>8} {errors:>8} {seconds:>10.3} {:>14.1}",
            seconds * 1e6 / cards as f64
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
