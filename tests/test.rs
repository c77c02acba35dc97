//! A builder for command-line tests that reads like what the director
//! types, in the manner of just's `tests/test.rs`:
//!
//! ```ignore
//! Test::new()
//!     .args(["check", "--roster", "roster.csv"])
//!     .fixture("bad/check2-won-2.csv")
//!     .run()
//!     .failure(1)
//!     .error_at("bad/check2-won-2.csv:6:6", &["game won", "expected 1 or 0"]);
//! ```
//!
//! The command runs in `tests/fixtures`, so places print as the fixtures'
//! short relative paths (`bad/check2-won-2.csv:6:6`).

use assert_cmd::Command;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Where the committed fixtures are.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// One run of the `tilerank` binary, being described.
pub struct Test {
    args: Vec<OsString>,
    stdin: Option<Vec<u8>>,
    env: Vec<(String, String)>,
    dir: Option<PathBuf>,
    timeout: std::time::Duration,
}

impl Test {
    pub fn new() -> Test {
        Test {
            args: Vec::new(),
            stdin: None,
            env: Vec::new(),
            dir: None,
            timeout: std::time::Duration::from_secs(300),
        }
    }

    /// Runs in `dir` (an event folder, say) instead of `tests/fixtures`.
    pub fn in_dir(mut self, dir: impl Into<PathBuf>) -> Test {
        self.dir = Some(dir.into());
        self
    }

    pub fn arg(mut self, arg: impl Into<OsString>) -> Test {
        self.args.push(arg.into());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Test
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// A committed fixture, as a path relative to `tests/fixtures`; a
    /// misspelt name fails here rather than as a confusing exit status 2.
    pub fn fixture(self, path: &str) -> Test {
        assert!(
            fixtures().join(path).exists(),
            "no fixture tests/fixtures/{path}"
        );
        self.arg(path)
    }

    /// `--roster roster.csv`, the event's roster (P0001..P0012).
    pub fn roster(self) -> Test {
        self.arg("--roster").fixture("roster.csv")
    }

    pub fn stdin(mut self, bytes: impl Into<Vec<u8>>) -> Test {
        self.stdin = Some(bytes.into());
        self
    }

    /// Sets an environment variable for the run (a limit, say).
    pub fn env(mut self, key: &str, value: &str) -> Test {
        self.env.push((key.to_string(), value.to_string()));
        self
    }

    /// Fails the run (the test) when the command has not ended after
    /// `secs` seconds (five minutes unless told).
    pub fn timeout(mut self, secs: u64) -> Test {
        self.timeout = std::time::Duration::from_secs(secs);
        self
    }

    pub fn run(self) -> Output {
        let mut cmd = Command::cargo_bin("tilerank").expect("the tilerank binary is built");
        // (a command that should end and does not, a server, fails the
        // test instead of hanging it)
        cmd.timeout(self.timeout);
        cmd.current_dir(self.dir.clone().unwrap_or_else(fixtures))
            .args(&self.args)
            .env("NO_COLOR", "1")
            .env_remove("COLUMNS")
            .envs(self.env.iter().map(|(k, v)| (k, v)));
        if let Some(bytes) = self.stdin {
            cmd.write_stdin(bytes);
        }
        let out = cmd.output().expect("tilerank runs");
        let shown: Vec<String> = self
            .args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        Output {
            command: format!("tilerank {}", shown.join(" ")),
            status: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// What a run printed, and how it ended. The assertions return `self` so
/// they chain; each failure shows the whole run.
pub struct Output {
    pub command: String,
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    #[track_caller]
    fn fail(&self, what: &str) -> ! {
        panic!(
            "{what}\n--- command: {}\n--- status: {:?}\n--- stdout:\n{}\n--- stderr:\n{}",
            self.command, self.status, self.stdout, self.stderr
        );
    }

    #[track_caller]
    pub fn success(self) -> Output {
        if self.status != Some(0) {
            self.fail("expected exit status 0");
        }
        self
    }

    #[track_caller]
    pub fn failure(self, code: i32) -> Output {
        if self.status != Some(code) {
            self.fail(&format!("expected exit status {code}"));
        }
        self
    }

    #[track_caller]
    pub fn stderr_has(self, text: &str) -> Output {
        if !self.stderr.contains(text) {
            self.fail(&format!("stderr lacks {text:?}"));
        }
        self
    }

    #[track_caller]
    pub fn stderr_lacks(self, text: &str) -> Output {
        if self.stderr.contains(text) {
            self.fail(&format!("stderr has {text:?}"));
        }
        self
    }

    #[track_caller]
    pub fn stdout_has(self, text: &str) -> Output {
        if !self.stdout.contains(text) {
            self.fail(&format!("stdout lacks {text:?}"));
        }
        self
    }

    #[track_caller]
    pub fn stdout_lacks(self, text: &str) -> Output {
        if self.stdout.contains(text) {
            self.fail(&format!("stdout has {text:?}"));
        }
        self
    }

    #[track_caller]
    pub fn stdout_is(self, text: &str) -> Output {
        if self.stdout != text {
            self.fail(&format!("stdout is not exactly:\n{text}"));
        }
        self
    }

    /// The problem lines of one severity (`error`, `warning`, `note`).
    pub fn problems(&self, severity: &str) -> Vec<&str> {
        let tag = format!(": {severity}: ");
        self.stderr.lines().filter(|l| l.contains(&tag)).collect()
    }

    /// Exactly `n` error lines: nothing missed, nothing said twice.
    #[track_caller]
    pub fn errors(self, n: usize) -> Output {
        let found = self.problems("error").len();
        if found != n {
            self.fail(&format!("expected {n} error lines, found {found}"));
        }
        self
    }

    #[track_caller]
    pub fn warnings(self, n: usize) -> Output {
        let found = self.problems("warning").len();
        if found != n {
            self.fail(&format!("expected {n} warning lines, found {found}"));
        }
        self
    }

    /// A problem line that starts with exactly `place: severity: ` and
    /// holds every one of `words`.
    #[track_caller]
    fn problem_at(self, severity: &str, place: &str, words: &[&str]) -> Output {
        let start = format!("{place}: {severity}: ");
        let hit = self
            .stderr
            .lines()
            .any(|l| l.starts_with(&start) && words.iter().all(|w| l.contains(w)));
        if !hit {
            self.fail(&format!("no line starting {start:?} and holding {words:?}"));
        }
        self
    }

    #[track_caller]
    pub fn error_at(self, place: &str, words: &[&str]) -> Output {
        self.problem_at("error", place, words)
    }

    #[track_caller]
    pub fn warning_at(self, place: &str, words: &[&str]) -> Output {
        self.problem_at("warning", place, words)
    }

    /// Standard output read as CSV: the header, then the rows.
    #[track_caller]
    pub fn csv(&self) -> Vec<Vec<String>> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(self.stdout.as_bytes());
        let rows: Result<Vec<Vec<String>>, csv::Error> = reader
            .records()
            .map(|r| r.map(|r| r.iter().map(str::to_string).collect()))
            .collect();
        rows.unwrap_or_else(|e| self.fail(&format!("stdout is not CSV: {e}")))
    }

    /// One column of the CSV on standard output, by header name.
    #[track_caller]
    pub fn column(&self, name: &str) -> Vec<String> {
        let rows = self.csv();
        let Some(i) = rows.first().and_then(|h| h.iter().position(|c| c == name)) else {
            self.fail(&format!("no CSV column {name:?} on stdout"));
        };
        rows[1..].iter().map(|r| r[i].clone()).collect()
    }
}

/// The text block (```text) that follows `command` in the file `doc` of
/// the repository (README.md, docs/rules.md): what the docs show a command
/// printing.
/// The tables of a CSV output, each its name and its text from its header
/// on: a CSV of several tables gives them one after another, a blank line
/// between two, each named on the line above its header; a CSV of one
/// table has no name (`""`).
pub fn csv_tables(stdout: &str) -> Vec<(String, String)> {
    let blocks: Vec<&str> = stdout
        .split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .collect();
    if blocks.len() < 2 {
        return blocks
            .iter()
            .map(|b| (String::new(), b.to_string()))
            .collect();
    }
    blocks
        .iter()
        .map(|b| {
            let (name, table) = b.split_once('\n').unwrap_or((b, ""));
            (name.to_string(), table.to_string())
        })
        .collect()
}

pub fn doc_block_after(doc: &str, command: &str) -> String {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(doc)).unwrap();
    let at = text
        .find(command)
        .unwrap_or_else(|| panic!("{doc} quotes {command:?}"));
    let block = text[at..].split("```text\n").nth(1).unwrap();
    block.split("```").next().unwrap().to_string()
}

/// Every sheet of a workbook as rows of cell texts.
pub fn sheets(path: &Path) -> Vec<(String, Vec<Vec<String>>)> {
    use calamine::{open_workbook, Reader, Xlsx};
    let mut book: Xlsx<_> = open_workbook(path).unwrap();
    book.sheet_names()
        .into_iter()
        .map(|name| {
            let range = book.worksheet_range(&name).unwrap();
            let rows = range
                .rows()
                .map(|r| r.iter().map(|c| c.to_string()).collect())
                .collect();
            (name, rows)
        })
        .collect()
}

/// A folder of its own under the system's temp folder, removed when
/// dropped. Its name joins the calling test file's (so that two modules'
/// `Scratch::new("missing")` never meet), the given name and the process.
pub struct Scratch(pub PathBuf);

impl Scratch {
    #[track_caller]
    pub fn new(name: &str) -> Scratch {
        let caller = Path::new(std::panic::Location::caller().file())
            .file_stem()
            .map_or("test".into(), |s| s.to_string_lossy().into_owned());
        let dir =
            std::env::temp_dir().join(format!("tilerank-{caller}-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    pub fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A named pipe `name` in `s`, which gives `text` to the first reader
/// that opens it, once (a thread writes it, then closes the pipe).
#[cfg(unix)]
pub fn pipe(s: &Scratch, name: &str, text: &str) -> PathBuf {
    let path = s.path(name);
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", path.display());
    let (writer, bytes) = (path.clone(), text.as_bytes().to_vec());
    // (left waiting when nothing opens the pipe: the test has failed)
    std::thread::spawn(move || std::fs::write(&writer, bytes));
    path
}

/// A copy of the folder `from` at `to`, its folders too.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// The words of a command line as a shell splits it (double quotes
/// group; `""` is an empty word).
pub fn shell_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => word.push(c),
        }
    }
    if any || !word.is_empty() {
        out.push(word);
    }
    out
}
