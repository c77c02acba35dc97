//! Scale benchmark: a results file of a million players (three million
//! lines, one per seat per game, every game legal under `hk`, at most two
//! jokers a game, made from a fixed seed) and a roster of the same players,
//! then side by side in one run:
//!
//! * the plain `csv` crate parse of the file (a `ByteRecord` loop): the floor;
//! * tilerank in this process: read, check every card, rank, select the top
//!   120 (wall time, peak memory);
//! * DuckDB ranking the same file in SQL (when `python3 -c "import duckdb"`
//!   works), without checking anything: D, the unit of every ratio; its top
//!   120 is compared with tilerank's;
//! * DuckDB doing the same while reading the roster too (its names joined,
//!   the players it lacks counted): D_R, printed for reference beside the
//!   rows that read a roster (their targets stay ratios to D);
//! * every command a director runs at this size, each as its own process
//!   (the release binary): with a file and a roster, and in an event folder
//!   (`roster`, `import`, then the reports), each row's time as a ratio to
//!   D and its peak memory, beside the target;
//! * the HK demo event (`qualifiers`, `publish`) as processes.
//!
//! Run: `cargo build --release && cargo run --release --example bench_scale`
//! (or add `-- 100000` for that many players; `--keep` keeps the files and
//! says where they are; `--runs N` takes the best of N runs, 3 by default;
//! `--make DIR` only writes the two files into DIR; `--growth` measures
//! instead how each command's time and memory grow from 100,000 players to
//! a million, the two sizes run in turn, see [`growth`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tilerank::event::{Event, Request};

/// A small generator with a fixed seed (SplitMix64): the same file on
/// every run and every machine.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// `0..n`
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A game where the seat `winner` went out: each other rack is counted
/// (1 to 13 a tile, a joker 30, at most two jokers in the game) and the
/// winner takes what they lost.
fn went_out(rng: &mut Seeded, winner: usize) -> [(u8, i64, u16); 4] {
    let mut game = [(0u8, 0i64, 0u16); 4];
    let mut jokers = 2;
    let mut pot = 0;
    for (seat, line) in game.iter_mut().enumerate() {
        if seat == winner {
            continue;
        }
        let tiles = 1 + rng.below(8) as u16;
        let joker = u16::from(jokers > 0 && rng.below(8) == 0);
        jokers -= joker;
        let value: i64 = 30 * i64::from(joker)
            + (0..tiles - joker)
                .map(|_| 1 + rng.below(13) as i64)
                .sum::<i64>();
        pot += value;
        *line = (0, -value, tiles);
    }
    game[winner] = (1, pot, 0);
    game
}

/// The three games of one 4-player table, each legal under the hk checks:
/// mostly someone went out; now and then nobody did (the rule sheet's two
/// examples, one leader or two sharing the pot, at a random seat).
fn table_games(rng: &mut Seeded) -> [[(u8, i64, u16); 4]; 3] {
    let game = |rng: &mut Seeded| match rng.below(10) {
        0 => rotated([(0, -5, 1), (1, 30, 1), (0, -10, 3), (0, -15, 4)], rng),
        1 => rotated([(0, 11, 3), (0, -12, 2), (1, 11, 1), (0, -10, 4)], rng),
        _ => {
            let winner = rng.below(4) as usize;
            went_out(rng, winner)
        }
    };
    [game(rng), game(rng), game(rng)]
}

fn rotated(mut game: [(u8, i64, u16); 4], rng: &mut Seeded) -> [(u8, i64, u16); 4] {
    game.rotate_left(rng.below(4) as usize);
    game
}

fn write_results(path: &PathBuf, players: usize) -> std::io::Result<usize> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(out, "session,table,game,seat,player,won,score,tiles")?;
    let tables = players / 4;
    let mut lines = 0;
    let mut rng = Seeded(2026);
    for t in 0..tables {
        let (session, table) = (t / 25 + 1, t % 25 + 1);
        for (g, seats) in table_games(&mut rng).iter().enumerate() {
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
    vm_hwm_kib(Path::new("/proc/self/status")).map(|k| k / 1024.0)
}

fn vm_hwm_kib(status: &Path) -> Option<f64> {
    let status = std::fs::read_to_string(status).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// CPU time (user + system) of a process so far, from /proc/PID/stat.
fn cpu_seconds(stat: &Path) -> Option<f64> {
    let text = std::fs::read_to_string(stat).ok()?;
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0) // USER_HZ
}

fn secs(s: Option<f64>) -> String {
    s.map_or("?".into(), |s| format!("{s:.2}s"))
}

fn mib(m: Option<f64>) -> String {
    m.map_or("?".into(), |m| format!("{m:.0} MiB"))
}

/// Each measure is the best of this many runs (the least disturbed by
/// whatever else the machine does), for every contender alike (`--runs N`).
/// The bench's command line.
#[derive(clap::Parser)]
#[command(
    about = "Times tilerank at a million players beside DuckDB (see README.md, Scale)",
    after_help = "Examples:\n  \
        cargo run --release --example bench_scale                      # 1,000,000 players, best of 3\n  \
        cargo run --release --example bench_scale -- --runs 5          # best of 5\n  \
        cargo run --release --example bench_scale -- 100000            # 100,000 players\n  \
        cargo run --release --example bench_scale -- --make /tmp/b     # only the two files\n  \
        cargo run --release --example bench_scale -- --growth --runs 3 # growth, 100,000 to 1,000,000\n\n\
        Build the release binary first (cargo build --release): the commands are run as processes.\n\
        TMPDIR sets where the files and event folders go (a memory file system, such as /dev/shm, \
        keeps the disk out of the figures)."
)]
struct Args {
    /// Players in the files made (three lines a player)
    #[arg(default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(100..))]
    players: u64,
    /// Each figure the best of this many runs
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    runs: u64,
    /// Only write results.csv and roster.csv into DIR, to run commands on by hand
    #[arg(long, value_name = "DIR")]
    make: Option<PathBuf>,
    /// How each command's time and memory grow from 100,000 players to 1,000,000
    #[arg(long)]
    growth: bool,
    /// Keep the files and the event folders, and say where they are
    #[arg(long)]
    keep: bool,
}

/// The command line, read once.
fn args() -> &'static Args {
    static ARGS: std::sync::OnceLock<Args> = std::sync::OnceLock::new();
    ARGS.get_or_init(<Args as clap::Parser>::parse)
}

fn runs() -> usize {
    args().runs as usize
}

/// [`run_measured`] `runs()` times: the run of the least wall time.
fn best_of(
    make: &mut dyn FnMut() -> Command,
) -> Option<(Duration, Option<f64>, Option<f64>, String)> {
    best_of_made(make, &mut || {})
}

/// As [`best_of`], the command made by `make` for each run (which readies
/// what it runs on, untimed), `before` run before each (and not timed).
fn best_of_made(
    make: &mut dyn FnMut() -> Command,
    before: &mut dyn FnMut(),
) -> Option<(Duration, Option<f64>, Option<f64>, String)> {
    let mut best: Option<(Duration, Option<f64>, Option<f64>, String)> = None;
    for _ in 0..runs() {
        before();
        let run = run_measured(&mut make())?;
        if best.as_ref().is_none_or(|b| run.0 < b.0) {
            best = Some(run);
        }
    }
    best
}

/// Runs a command to its end: wall time, its peak memory in MiB, its CPU
/// seconds and its standard output. GNU time (`/usr/bin/time`, Debian's
/// `time`) reports the peak and the CPU time when the command ends, so
/// nothing watches it while it runs; without it, they are read from /proc
/// every 2 ms.
fn run_measured(cmd: &mut Command) -> Option<(Duration, Option<f64>, Option<f64>, String)> {
    let time = Path::new("/usr/bin/time");
    if !time.is_file() {
        return run_polled(cmd);
    }
    let id = std::process::id();
    let out = std::env::temp_dir().join(format!("tilerank-bench-out-{id}"));
    let report = std::env::temp_dir().join(format!("tilerank-bench-time-{id}"));
    let mut timed = Command::new(time);
    timed
        .args(["-f", "%M %U %S", "-o"])
        .arg(&report)
        .arg(cmd.get_program())
        .args(cmd.get_args())
        .stdout(std::fs::File::create(&out).ok()?)
        .stderr(std::process::Stdio::null());
    if let Some(dir) = cmd.get_current_dir() {
        timed.current_dir(dir);
    }
    let t = Instant::now();
    let status = timed.status().ok()?;
    if !status.success() && status.code() != Some(1) {
        // a command that failed measured nothing: its row says FAILED
        eprintln!(
            "  ({:?} exited with {status})",
            cmd.get_args().collect::<Vec<_>>()
        );
        return None;
    }
    let wall = t.elapsed();
    let figures = std::fs::read_to_string(&report).unwrap_or_default();
    let last = figures.lines().last().unwrap_or("");
    let mut f = last.split_whitespace().map(|x| x.parse::<f64>().ok());
    let (peak, user, sys) = (f.next().flatten(), f.next().flatten(), f.next().flatten());
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(&report);
    Some((
        wall,
        peak.map(|k| k / 1024.0),
        user.zip(sys).map(|(u, s)| u + s),
        text,
    ))
}

/// [`run_measured`] without GNU time: the peak memory is the last VmHWM
/// read while the command ran, its CPU seconds the last read.
fn run_polled(cmd: &mut Command) -> Option<(Duration, Option<f64>, Option<f64>, String)> {
    let out = std::env::temp_dir().join(format!("tilerank-bench-out-{}", std::process::id()));
    let t = Instant::now();
    let mut child = cmd
        .stdout(std::fs::File::create(&out).ok()?)
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let status = PathBuf::from(format!("/proc/{}/status", child.id()));
    let stat = PathBuf::from(format!("/proc/{}/stat", child.id()));
    let (mut peak, mut cpu) = (None, None);
    loop {
        if let Some(k) = vm_hwm_kib(&status) {
            peak = Some(k / 1024.0);
        }
        if let Some(c) = cpu_seconds(&stat) {
            cpu = Some(c);
        }
        if child.try_wait().ok()?.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let wall = t.elapsed();
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    Some((wall, peak, cpu, text))
}

/// The plain parse: every record of the file through the `csv` crate.
fn csv_floor(path: &Path) -> (Duration, usize) {
    let t = Instant::now();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_path(path)
        .expect("open the results file");
    let mut record = csv::ByteRecord::new();
    let mut n = 0;
    while reader.read_byte_record(&mut record).expect("parse") {
        n += record.len();
    }
    (t.elapsed(), n)
}

/// DuckDB ranks the file by the hk keys (all players play 3 games, so the
/// average orders as the total), ties by player id as tilerank lists them.
const DUCKDB: &str = r#"
import duckdb, resource, sys, time
t = time.time()
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
rows = con.sql("""
  SELECT player FROM read_csv(?, header = true)
  GROUP BY player
  ORDER BY sum(won) DESC, sum(CAST(score AS INTEGER)) / count(*) DESC, sum(tiles) ASC, player
  LIMIT 120""", params=[sys.argv[1]]).fetchall()
print(time.time() - t)
for (p,) in rows:
    print(p)
"#;

/// The best of a DuckDB script's runs (`make` makes its command; the
/// script prints its query's seconds, then its top 120): the wall time,
/// and what to say of it (the query's time, the process's, and whether
/// its top 120 is `top`).
fn duckdb_best(make: &mut dyn FnMut() -> Command, top: &[String]) -> Option<(Duration, String)> {
    let (wall, peak, cpu, out) = best_of(make)?;
    let mut out = out.lines();
    let query = out.next().unwrap_or("?").to_string();
    let duck_top: Vec<&str> = out.collect();
    let said = format!(
        "query alone {query:.5} s): {wall:.2?} wall, {} CPU, peak {}; its top 120 {} tilerank's",
        secs(cpu),
        mib(peak),
        if duck_top == top { "is" } else { "is NOT" }
    );
    Some((wall, said))
}

/// D with the roster, for reference (not a target's unit): DuckDB ranks
/// the file as [`DUCKDB`] does and also reads the roster, as a command
/// with `--roster R` must: the top 120 with their names, and how many
/// players of the file the roster does not list.
const DUCKDB_ROSTER: &str = r#"
import duckdb, sys, time
t = time.time()
con = duckdb.connect()
con.execute("SET enable_progress_bar = false")
rows = con.sql("""
  WITH r AS (SELECT id, name FROM read_csv(?, header = true)),
       s AS (SELECT player, sum(won) w, sum(CAST(score AS INTEGER)) / count(*) a, sum(tiles) t
             FROM read_csv(?, header = true) GROUP BY player)
  SELECT s.player, r.name, (SELECT count(*) FROM s WHERE player NOT IN (SELECT id FROM r))
  FROM s JOIN r ON r.id = s.player
  ORDER BY w DESC, a DESC, t ASC, s.player
  LIMIT 120""", params=[sys.argv[2], sys.argv[1]]).fetchall()
print(time.time() - t)
for (p, name, strangers) in rows:
    print(p)
"#;

/// A roster of the file's players (`P0000001`...), names made from the
/// same seed: `id,name,birth_date`.
fn write_roster(path: &PathBuf, players: usize) -> std::io::Result<()> {
    const SURNAMES: [&str; 12] = [
        "Chan", "Wong", "Lee", "Cheung", "Lau", "Ng", "Ho", "Leung", "Lam", "Tsang", "Yip", "Kwok",
    ];
    const GIVEN: [&str; 16] = [
        "Tai", "Man", "Siu", "Ming", "Ka", "Yan", "Wai", "Kit", "Hoi", "Fan", "Chi", "Wing", "Mei",
        "Ling", "Kin", "Hung",
    ];
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(out, "id,name,birth_date")?;
    let mut rng = Seeded(1200);
    for p in 1..=players {
        let pick = |rng: &mut Seeded, words: &[&'static str]| {
            words[rng.below(words.len() as u64) as usize]
        };
        let (s, g1, g2) = (
            pick(&mut rng, &SURNAMES),
            pick(&mut rng, &GIVEN),
            pick(&mut rng, &GIVEN),
        );
        let (y, m, d) = (1940 + rng.below(80), 1 + rng.below(12), 1 + rng.below(28));
        writeln!(out, "P{p:07},{s} {g1} {g2},{y}-{m:02}-{d:02}")?;
    }
    out.flush()
}

/// One row of the table: a command and the target it is held to.
struct Row {
    what: &'static str,
    ratio_target: f64,
    mib_target: f64,
    wall: Option<Duration>,
    peak: Option<f64>,
    /// D, measured in turn with the command.
    d: Option<Duration>,
}

/// The release binary beside this example (`target/release/tilerank`).
fn release_binary() -> Option<PathBuf> {
    std::env::current_exe()
        .ok()
        .and_then(|e| Some(e.parent()?.parent()?.join("tilerank")))
        .filter(|e| e.is_file())
}

/// A new event folder at `dir` for the bench's file of `players` players.
fn init_event(exe: &Path, dir: &Path, players: usize) {
    let _ = std::fs::remove_dir_all(dir);
    let ok = Command::new(exe)
        .arg("init")
        .arg(dir)
        .args(["--profile", "hk", "--name", "Bench"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "tilerank init failed");
    // this event has as many sessions as the file, not HK's 12
    let toml = dir.join("tilerank.toml");
    let text = std::fs::read_to_string(&toml).expect("tilerank.toml");
    let sessions = players.div_ceil(100);
    let text = text.replace("\ncount = 12\n", &format!("\ncount = {sessions}\n"));
    std::fs::write(&toml, text).expect("tilerank.toml");
}

/// A copy of folder `from` at `to`, whatever was there before.
fn copy_folder(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    let ok = Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "cp -a failed");
}

/// A command of the table: what it is, its targets (time as a ratio to D,
/// none for the terminal's; peak memory in MiB), and how it is made for a
/// size ([`Size`]), for the table and for `--growth` alike.
struct Cmd {
    what: &'static str,
    ratio_target: f64,
    mib_target: f64,
    make: fn(&Size) -> Command,
}

/// The table's commands, in its order.
fn table() -> [Cmd; 8] {
    let cmd = |what, ratio_target, mib_target, make| Cmd {
        what,
        ratio_target,
        mib_target,
        make,
    };
    [
        cmd("`qualifiers FILE` with no roster", 0.5, 100.0, |s| {
            s.tilerank(&["qualifiers", RESULTS, "--profile", "hk"])
        }),
        cmd("`qualifiers FILE --roster R`", 0.5, 100.0, |s| {
            s.tilerank(&["qualifiers", RESULTS, "--roster", ROSTER, "--profile", "hk"])
        }),
        cmd(
            "`standings FILE --roster R --format csv -o F`",
            1.0,
            150.0,
            |s| {
                s.tilerank(&[
                    "standings",
                    RESULTS,
                    "--roster",
                    ROSTER,
                    "--profile",
                    "hk",
                    "--format",
                    "csv",
                    "-o",
                    OUT,
                ])
            },
        ),
        cmd("event: `roster R`", 2.0, 300.0, |s| {
            init_event(&s.exe, &s.path(FRESH), s.players);
            s.in_folder(FRESH, &["roster", ROSTER])
        }),
        cmd("event: `import FILE`", 6.0, 300.0, |s| {
            copy_folder(&s.path(ROSTER_ONLY), &s.path(FRESH));
            s.in_folder(FRESH, &["import", RESULTS])
        }),
        cmd("event: `qualifiers --format csv -o F`", 1.0, 150.0, |s| {
            s.in_folder(EVENT, &["qualifiers", "--format", "csv", "-o", OUT])
        }),
        cmd("event: `standings --format csv -o F`", 1.5, 150.0, |s| {
            s.in_folder(EVENT, &["standings", "--format", "csv", "-o", OUT])
        }),
        cmd(
            "`standings FILE` to a terminal",
            f64::INFINITY,
            150.0,
            |s| {
                // a terminal of 100 columns (script(1) gives the command one)
                let mut script = Command::new("script");
                script
                    .args(["-qec"])
                    .arg(format!(
                        "stty cols 100 rows 40; '{}' standings '{}' --profile hk",
                        s.exe.display(),
                        s.path(RESULTS).display()
                    ))
                    .arg("/dev/null");
                script
            },
        ),
    ]
}

/// The names in a size's folder ([`Size`]).
const RESULTS: &str = "results.csv";
const ROSTER: &str = "roster.csv";
const OUT: &str = "out.csv";
const ROSTER_ONLY: &str = "roster-only";
const EVENT: &str = "event";
const FRESH: &str = "fresh";

/// One size of the bench, in its folder `dir`: `results.csv` and
/// `roster.csv`, and two event folders, `roster-only` (the roster
/// stored: what `import` starts from) and `event` (the roster and the
/// cards: what the reports read). A command that fills an event runs in
/// `fresh`, made again before each run.
struct Size {
    exe: PathBuf,
    dir: PathBuf,
    players: usize,
}

impl Size {
    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn write_files(&self) {
        std::fs::create_dir_all(&self.dir).expect("the bench's folder");
        write_results(&self.path(RESULTS), self.players).expect("write the results file");
        write_roster(&self.path(ROSTER), self.players).expect("write the roster");
    }

    /// Makes `roster-only` and `event` from the files.
    fn make_events(&self) {
        let run = |cmd: &mut Command| {
            let ok = cmd
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "{cmd:?} failed");
        };
        init_event(&self.exe, &self.path(ROSTER_ONLY), self.players);
        run(&mut self.in_folder(ROSTER_ONLY, &["roster", ROSTER]));
        copy_folder(&self.path(ROSTER_ONLY), &self.path(EVENT));
        run(&mut self.in_folder(EVENT, &["import", RESULTS]));
    }

    /// tilerank with `args`, each a name in the folder ([`RESULTS`]...)
    /// given as its path.
    fn tilerank(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(&self.exe);
        for arg in args {
            match *arg {
                RESULTS | ROSTER | OUT => cmd.arg(self.path(arg)),
                _ => cmd.arg(arg),
            };
        }
        cmd
    }

    /// [`Size::tilerank`] run in event folder `folder`.
    fn in_folder(&self, folder: &str, args: &[&str]) -> Command {
        let mut cmd = self.tilerank(args);
        cmd.current_dir(self.path(folder));
        cmd
    }
}

/// `--growth`: how each command's time and peak memory grow from 100,000
/// players to a million (the target: at most 11 times, as the players'
/// 10). A ratio of two runs minutes apart carries this machine's drift
/// (it runs at two speeds a third apart, and moves between them within
/// minutes), so each command is run at the one size, then right away at
/// the other, `runs` times over: the best against the best, and the
/// median against the median.
fn growth(exe: &Path, dir: &Path, runs: usize) {
    const SIZES: [usize; 2] = [100_000, 1_000_000];
    let sizes: Vec<Size> = SIZES
        .iter()
        .map(|&n| {
            let size = Size {
                exe: exe.to_path_buf(),
                dir: dir.join(n.to_string()),
                players: n,
            };
            size.write_files();
            size.make_events();
            size
        })
        .collect();
    println!(
        "files and events made for {} and {} players; each command run at each size in turn, {runs} times",
        SIZES[0], SIZES[1]
    );
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    println!();
    println!("| command | time grows (best, median) | peak grows | target |");
    println!("|---|---|---|---|");
    let mut missed = 0;
    for Cmd { what, make, .. } in table() {
        // each size's runs: wall seconds, peak MiB
        let mut at: [Vec<(f64, f64)>; 2] = Default::default();
        for _ in 0..runs {
            for (k, size) in sizes.iter().enumerate() {
                if let Some((wall, peak, _, _)) = run_measured(&mut make(size)) {
                    at[k].push((wall.as_secs_f64(), peak.unwrap_or(f64::NAN)));
                }
            }
        }
        let times = |k: usize| at[k].iter().map(|r| r.0).collect::<Vec<f64>>();
        let best = |k: usize| times(k).into_iter().fold(f64::INFINITY, f64::min);
        let peak = |k: usize| at[k].iter().map(|r| r.1).fold(f64::NAN, f64::max);
        let (by_best, by_median) = (best(1) / best(0), median(times(1)) / median(times(0)));
        let memory = peak(1) / peak(0);
        let ran = at.iter().all(|runs| !runs.is_empty());
        let held =
            ran && by_best <= 11.0 && by_median <= 11.0 && (memory.is_nan() || memory <= 11.0);
        missed += usize::from(!held);
        println!(
            "| {what} | {by_best:.1}, {by_median:.1} ({:.3} s, {:.3} s at {}) | {memory:.1} | ≤ 11{} |",
            best(1),
            best(0),
            SIZES[0],
            if !ran {
                " (FAILED: the command did not run)"
            } else if held {
                ""
            } else {
                " (MISSED)"
            }
        );
    }
    println!(
        "{missed} of {} rows grow faster than the target",
        table().len()
    );
}

/// How long this machine takes to give a process memory it has not
/// touched yet, in ms per MiB: 2 MiB pages (as tilerank asks for its large
/// blocks) just after as much memory was freed, then after three seconds
/// idle, and 4 KiB pages. On a virtual machine that gives free memory back
/// to its host (free page reporting), memory left free for a few seconds
/// is the host's to find again, page by page: every figure of a command
/// then depends on how long the machine was idle before it (docs/scale.md,
/// "Memory"). `None` where it cannot be measured.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn fresh_memory() -> Option<[f64; 3]> {
    const LEN: usize = 64 << 20;
    let touch = |huge: bool| -> Option<f64> {
        // SAFETY: a private anonymous mapping of LEN bytes, written only
        // within it, unmapped before it returns.
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                LEN,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                return None;
            }
            let advice = if huge {
                libc::MADV_HUGEPAGE
            } else {
                libc::MADV_NOHUGEPAGE
            };
            libc::madvise(p, LEN, advice);
            let t = Instant::now();
            for i in (0..LEN).step_by(4096) {
                std::ptr::write_volatile(p.cast::<u8>().add(i), 1);
            }
            let ms = t.elapsed().as_secs_f64() * 1e3;
            libc::munmap(p, LEN);
            Some(ms / (LEN >> 20) as f64)
        }
    };
    touch(true)?;
    let just_freed = touch(true)?;
    std::thread::sleep(Duration::from_secs(3));
    let idle = touch(true)?;
    Some([just_freed, idle, touch(false)?])
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn fresh_memory() -> Option<[f64; 3]> {
    None
}

fn main() {
    let players = args().players as usize;
    let runs = runs();
    if let Some(dir) = &args().make {
        // only the files, in the folder given: to run commands on by hand
        std::fs::create_dir_all(dir).expect("the folder");
        write_results(&dir.join("results.csv"), players).expect("write the results file");
        write_roster(&dir.join("roster.csv"), players).expect("write the roster");
        println!("made {0}/results.csv and {0}/roster.csv", dir.display());
        return;
    }
    let dir = std::env::temp_dir().join(format!("tilerank-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    if args().growth {
        match release_binary() {
            Some(exe) => growth(&exe, &dir, runs),
            None => {
                println!("no release binary beside this example: run `cargo build --release` first")
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let path = dir.join("results.csv");
    let roster = dir.join("roster.csv");

    let t0 = Instant::now();
    let lines = write_results(&path, players).expect("write the results file");
    write_roster(&roster, players).expect("write the roster");
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!(
        "generated {lines} lines ({:.0} MiB) and a roster of {players} in {:.2?}",
        size as f64 / 1048576.0,
        t0.elapsed()
    );
    // (the event's reports read its database from here: a disk busy
    // writing, right after a large build, made them a fifth slower than a
    // memory file system)
    println!(
        "files and the event folder in {} (TMPDIR sets where)",
        dir.display()
    );

    let self_stat = Path::new("/proc/self/stat");
    let (floor, fields) = (0..runs)
        .map(|_| csv_floor(&path))
        .min()
        .expect("at least one run");
    println!(
        "csv crate parse (ByteRecord loop, best of {runs}): {floor:.2?} ({fields} fields), peak {} (this process so far)",
        mib(peak_rss_mib())
    );
    if let Some([just_freed, idle, small]) = fresh_memory() {
        println!(
            "fresh memory on this machine: 2 MiB pages {just_freed:.2} ms/MiB just after memory was freed, {idle:.2} ms/MiB after 3 s idle; 4 KiB pages {small:.2} ms/MiB (see docs/scale.md, Memory)"
        );
    }
    let cpu_before = cpu_seconds(self_stat);

    let t1 = Instant::now();
    // the rules `tilerank qualifiers FILE` reads it by (no event folder,
    // so no schedule of expected cards)
    let request = Request {
        keep: tilerank::event::Keep::Sums,
        inputs: vec![path.clone()],
        roster: None,
        rules: tilerank::config::Overrides::default().apply(None),
    };
    let event = Event::load(&request).expect("load");
    let loaded = t1.elapsed();
    let after_reading = peak_rss_mib();
    assert!(
        !event.problems.has_errors(),
        "the generated file has errors"
    );
    let stage = event.stages()[0].clone();
    // what `tilerank qualifiers` asks: who goes on (the top 120 and ties)
    let list = event.advance(&stage, None, &[]);
    let total = t1.elapsed();
    let top: Vec<String> = list
        .standings
        .ranked
        .iter()
        .take(120)
        .map(|e| event.roster.id(e.player()).to_string())
        .collect();
    println!(
        "tilerank (library, this process): {} players, {} cards: read+check {loaded:.2?}, with ranking {total:.2?} wall ({:.0} lines/s), {} CPU, {} qualifiers, peak {} ({} once read, before ranking)",
        event.tallies.count(&stage),
        event.counts.accepted,
        lines as f64 / total.as_secs_f64(),
        secs(cpu_seconds(self_stat).zip(cpu_before).map(|(a, b)| a - b)),
        list.going.len(),
        mib(peak_rss_mib()),
        mib(after_reading)
    );
    drop(list);
    drop(event);

    // D: DuckDB ranking the same file
    let has_duckdb = Command::new("python3")
        .args(["-c", "import duckdb"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let mut d = None;
    let duckdb = || {
        let mut cmd = Command::new("python3");
        cmd.args(["-c", DUCKDB]).arg(&path);
        cmd
    };
    if has_duckdb {
        match duckdb_best(&mut { duckdb }, &top) {
            Some((wall, said)) => {
                println!("D = duckdb (process, python3, best of {runs}; {said}");
                d = Some(wall);
            }
            None => println!("duckdb: could not be run"),
        }
    } else {
        println!("duckdb: not measured (`python3 -c \"import duckdb\"` fails: pip install duckdb)");
    }
    // D_R: the same with the roster read too (a reference for the rows
    // with `--roster R`; their targets stay ratios to D)
    let mut d_roster = None;
    if d.is_some() {
        let mut with_roster = || {
            let mut cmd = Command::new("python3");
            cmd.args(["-c", DUCKDB_ROSTER]).arg(&path).arg(&roster);
            cmd
        };
        if let Some((wall, said)) = duckdb_best(&mut with_roster, &top) {
            println!(
                "D_R = duckdb reading the roster too (names joined, players it lacks counted; best of {runs}; {said}"
            );
            d_roster = Some(wall);
        }
    }

    let Some(exe) = release_binary() else {
        println!("no release binary beside this example: run `cargo build --release` first");
        return;
    };
    let size = Size {
        exe: exe.clone(),
        dir: dir.clone(),
        players,
    };
    let t2 = Instant::now();
    size.make_events();
    println!(
        "event folders made (the roster stored, the cards imported) in {:.2?}",
        t2.elapsed()
    );
    let mut rows: Vec<Row> = Vec::new();
    // Each command's runs take turns with DuckDB's, and its time is a ratio
    // to the best of those: the machine's speed drifts by a tenth or more
    // over the minutes the bench takes, and a row compared with a D
    // measured minutes before it would carry that drift.
    println!("commands (processes, best of {runs}, each run after one of DuckDB's):");
    for Cmd {
        what,
        ratio_target,
        mib_target,
        make,
    } in table()
    {
        let mut duck = d.map(|_| duckdb());
        let mut beside: Option<Duration> = None;
        let run = best_of_made(&mut || make(&size), &mut || {
            if let Some(wall) = duck.as_mut().and_then(run_measured).map(|r| r.0) {
                beside = Some(beside.map_or(wall, |b| b.min(wall)));
            }
        });
        let (wall, peak) = run.as_ref().map_or((None, None), |r| (Some(r.0), r.1));
        println!(
            "  {what}: {} wall, peak {}{}",
            wall.map_or("?".into(), |w| format!("{w:.2?}")),
            mib(peak),
            beside.map_or(String::new(), |b| format!(" (D in turn with it: {b:.2?})"))
        );
        rows.push(Row {
            what,
            ratio_target,
            mib_target,
            wall,
            peak,
            d: beside.or(d),
        });
    }

    println!();
    println!("| command | time / D | peak | target |");
    println!("|---|---|---|---|");
    let mut missed = 0;
    for r in &rows {
        let ratio = r
            .wall
            .zip(r.d)
            .map(|(w, d)| w.as_secs_f64() / d.as_secs_f64());
        let failed = r.wall.is_none();
        let held = !failed
            && ratio.is_none_or(|x| x <= r.ratio_target)
            && r.peak.is_none_or(|m| m <= r.mib_target);
        missed += usize::from(!held);
        println!(
            "| {} | {} | {} | {}≤ {} MiB{} |",
            r.what,
            ratio.map_or("?".into(), |x| format!("{x:.2}")),
            mib(r.peak),
            if r.ratio_target.is_finite() {
                format!("≤ {} × D, ", r.ratio_target)
            } else {
                String::new()
            },
            r.mib_target,
            if failed {
                " (FAILED: the command did not run)"
            } else if held {
                ""
            } else {
                " (MISSED)"
            }
        );
    }
    println!("{missed} of {} rows miss their target", rows.len());
    if let Some(d_roster) = d_roster {
        for r in rows.iter().filter(|r| r.what.contains("--roster R")) {
            if let Some(wall) = r.wall {
                println!(
                    "for reference, {}: {:.2} × D_R",
                    r.what,
                    wall.as_secs_f64() / d_roster.as_secs_f64()
                );
            }
        }
    }

    if args().keep {
        println!("kept: {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }

    let demo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/hk-2026");
    if demo.join("cards").is_dir() {
        let cards = demo.join("cards");
        let demo_roster = demo.join("roster.csv");
        let site = std::env::temp_dir().join(format!("tilerank-bench-site-{}", std::process::id()));
        let demo_command = |what: &str| {
            let mut cmd = Command::new(&exe);
            cmd.arg(what).arg(&cards).arg("--roster").arg(&demo_roster);
            if what == "publish" {
                cmd.arg("-o").arg(&site);
            }
            cmd
        };
        for what in ["qualifiers", "publish"] {
            match best_of(&mut || demo_command(what)) {
                Some((wall, peak, _, _)) => {
                    println!("demo: `{what}` {wall:.2?} wall, peak {}", mib(peak))
                }
                None => println!("demo: `{what}` could not be run"),
            }
        }
        let _ = std::fs::remove_dir_all(&site);
    }
}
