//! Every command line the user is shown (`tilerank.toml` as `init` writes
//! it, `--help`, the README, docs/) is parsed by the command line's own
//! definition: each flag it names exists on its command, and a line
//! without placeholders parses as it is. Nothing is run.

use super::Cli;
use clap::CommandFactory;
use std::path::Path;

/// Where a quoted command line was found, and the line.
struct Quoted {
    place: String,
    line: String,
}

/// The `tilerank ...` command lines of a text: code spans, lines of code
/// blocks, and a hint in prose up to its closing bracket or the line's end.
fn command_lines(place: &str, text: &str, out: &mut Vec<Quoted>) {
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("tilerank ") {
            // `tilerank` as a word (not `tilerank.toml`, not `/tilerank `)
            let before = rest[..at].chars().last();
            let tail = &rest[at..];
            rest = &rest[at + "tilerank ".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || "/_-.".contains(c)) {
                continue;
            }
            let end = tail
                .find(['`', ')'])
                .or_else(|| tail.find("\\n"))
                .unwrap_or(tail.len());
            out.push(Quoted {
                place: format!("{place}:{}", n + 1),
                line: tail[..end].trim().to_string(),
            });
        }
    }
}

/// Shell-like words: quotes kept together, unquoted.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                started = false;
            }
            (None, c) => word.push(c),
        }
    }
    if started || !word.is_empty() {
        out.push(word);
    }
    out
}

/// The tilerank commands of a line: cut at a comment, split at `&&`, `|`
/// and `;`, redirections left out.
fn commands(line: &str) -> Vec<Vec<String>> {
    let line = match line.find(" #") {
        Some(at) => &line[..at],
        None => line,
    };
    // a synopsis's description after a wide gap: `tilerank log    the event's import log`
    let line = match line.match_indices("   ").map(|(at, _)| at).find(|&at| {
        line[at..]
            .trim_start()
            .starts_with(|c: char| c.is_lowercase() || c == '(')
    }) {
        Some(at) => &line[..at],
        None => line,
    };
    let mut out = Vec::new();
    // (a pipe between commands has spaces around it; `a|b` is a synopsis)
    for part in line
        .split("&&")
        .flat_map(|p| p.split([';']))
        .flat_map(|p| p.split(" | "))
    {
        let mut w = words(part);
        // redirections: `> file`, `2>&1`
        let mut i = 0;
        while i < w.len() {
            if [">", ">>", "<", "2>"].contains(&w[i].as_str()) {
                w.drain(i..(i + 2).min(w.len()));
            } else if w[i].contains('>') {
                w.remove(i);
            } else {
                i += 1;
            }
        }
        // `tilerank` then a command or a flag (not "tilerank reads them")
        let is_command = |t: &String| {
            t.starts_with('-') || Cli::command().find_subcommand(t).is_some() || t == "help"
        };
        if w.first().is_some_and(|t| t == "tilerank") && w.get(1).is_none_or(is_command) {
            out.push(w);
        }
    }
    out
}

/// Whether a line is a synopsis (`[--top N]`, `FILE...`, `a|b`) rather than
/// a command to type.
fn is_synopsis(words: &[String]) -> bool {
    words.iter().any(|w| {
        w.contains(['[', ']', '<', '>'])
            || w.contains("...")
            || w.contains('…')
            || (w.len() > 1 && w.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
    })
}

/// What is wrong with a quoted command, if anything.
fn check(words: &[String]) -> Option<String> {
    let root = Cli::command();
    let sub = words.get(1).filter(|w| !w.starts_with('-'));
    let mut command = match sub {
        Some(name) => match root.find_subcommand(name) {
            Some(c) => c.clone(),
            None => return Some(format!("no command {name:?}")),
        },
        None => root.clone(),
    };
    // a command's own commands (`tilerank referee add`): the flags are
    // the innermost one's
    let mut sub = sub.cloned();
    for w in words.iter().skip(2) {
        match command.find_subcommand(w) {
            Some(c) => {
                sub = sub.map(|s| format!("{s} {w}"));
                command = c.clone();
            }
            None => break,
        }
    }
    for w in words.iter().skip(1) {
        let w = w
            .trim_start_matches('[')
            .trim_end_matches([']', ',', '.', ';', ':']);
        let Some(flag) = w.strip_prefix("--") else {
            continue;
        };
        let flag = flag.split('=').next().unwrap_or(flag);
        if flag.is_empty() || flag == "help" || flag == "version" {
            continue;
        }
        let known = command.get_arguments().any(|a| {
            a.get_long() == Some(flag) || a.get_all_aliases().is_some_and(|al| al.contains(&flag))
        });
        if !known {
            return Some(format!(
                "{} has no flag --{flag}",
                sub.as_deref()
                    .map_or("tilerank".to_string(), |s| format!("tilerank {s}"))
            ));
        }
    }
    if is_synopsis(words) {
        return None;
    }
    match Cli::command().try_get_matches_from(words) {
        Ok(_) => None,
        Err(e)
            if matches!(
                e.kind(),
                // (a command named in passing, `tilerank init`, lacks
                // what it needs: no wrong flag)
                clap::error::ErrorKind::DisplayHelp
                    | clap::error::ErrorKind::DisplayVersion
                    | clap::error::ErrorKind::MissingRequiredArgument
                    | clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) =>
        {
            None
        }
        Err(e) => Some(e.to_string()),
    }
}

/// The help texts of a command and its subcommands.
fn help_texts(command: &clap::Command, out: &mut Vec<(String, String)>) {
    let name = command.get_name().to_string();
    for text in [
        command.get_about(),
        command.get_long_about(),
        command.get_after_help(),
        command.get_after_long_help(),
    ]
    .into_iter()
    .flatten()
    {
        out.push((format!("tilerank {name} --help"), text.to_string()));
    }
    for arg in command.get_arguments() {
        for text in [arg.get_help(), arg.get_long_help()].into_iter().flatten() {
            out.push((format!("tilerank {name} --help"), text.to_string()));
        }
    }
    for sub in command.get_subcommands() {
        help_texts(sub, out);
    }
}

fn quoted_everywhere() -> Vec<Quoted> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts: Vec<(String, String)> = Vec::new();
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let shown = f.strip_prefix(root).unwrap().display().to_string();
        // `cargo run --release -- ARGS` runs tilerank ARGS
        texts.push((shown, text.replace("cargo run --release -- ", "tilerank ")));
    }
    for profile in tilerank::profile::ProfileName::all() {
        texts.push((
            format!("tilerank.toml ({profile:?})"),
            tilerank::config::Config::template(profile, "Event", Some("2026-03-28")),
        ));
    }
    help_texts(&Cli::command(), &mut texts);
    let mut out = Vec::new();
    for (place, text) in &texts {
        command_lines(place, text, &mut out);
    }
    out
}

#[test]
fn every_quoted_command_line_names_flags_its_command_has() {
    let quoted = quoted_everywhere();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for q in &quoted {
        for words in commands(&q.line) {
            checked += 1;
            if let Some(why) = check(&words) {
                wrong.push(format!("{}: `{}`: {why}", q.place, q.line));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // README, docs, help and tilerank.toml quote well over a hundred
    assert!(checked > 100, "only {checked} command lines found");
}

#[test]
fn the_check_finds_a_flag_a_command_lacks() {
    let w = |line: &str| commands(line).remove(0);
    assert!(check(&w("tilerank advance --name X"))
        .unwrap()
        .contains("tilerank advance has no flag --name"));
    assert!(check(&w("tilerank advance --player P0001")).is_none());
    assert!(check(&w("tilerank referee add X --site-url http://h:1")).is_none());
    assert!(check(&w("tilerank referee list --site-url http://h:1"))
        .unwrap()
        .contains("tilerank referee list has no flag --site-url"));
    assert!(check(&w("tilerank qualifiers --top ten")).is_some());
    assert!(commands("tilerank reads them").is_empty());
    assert!(check(&w("tilerank qualifiers [--top N]")).is_none());
    assert_eq!(
        commands("tilerank check cards/ 2>&1 | head -1  # quietly"),
        vec![vec!["tilerank", "check", "cards/"]]
    );
    let mut found = Vec::new();
    command_lines(
        "x",
        "run `tilerank import FILE --replace --reason \"why\"` (or tilerank log) and tilerank.toml",
        &mut found,
    );
    let lines: Vec<&str> = found.iter().map(|q| q.line.as_str()).collect();
    assert_eq!(
        lines,
        [
            "tilerank import FILE --replace --reason \"why\"",
            "tilerank log"
        ]
    );
}
