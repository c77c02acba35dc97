//! What a director installs and reads beside the tool: shell completions,
//! manual pages, headers in people's words, and nothing that points outside
//! the repository.

use crate::test::{sheets, Test};
use std::path::{Path, PathBuf};

/// The commands `tilerank --help` lists (without `help`).
fn commands() -> Vec<String> {
    let help = Test::new().arg("--help").run().success().stdout;
    let list = help
        .split("Commands:")
        .nth(1)
        .and_then(|rest| rest.split("Options:").next())
        .expect("tilerank --help lists its commands");
    let names: Vec<String> = list
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(str::to_string)
        .collect();
    assert!(names.len() >= 15, "{names:?}");
    names
}

/// The long options `tilerank COMMAND --help` lists (`--roster`, ...).
fn long_options(command: &str) -> Vec<String> {
    let help = Test::new().args([command, "--help"]).run().success().stdout;
    let options = help.split("Options:").nth(1).unwrap_or("");
    options
        .lines()
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
        .map(|w| {
            w.trim_end_matches(|c: char| !c.is_alphanumeric())
                .to_string()
        })
        .collect()
}

#[test]
fn every_shells_completions_name_every_command() {
    let commands = commands();
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let script = Test::new()
            .args(["completions", shell])
            .run()
            .success()
            .stdout;
        assert!(script.len() > 1000, "{shell}: {script}");
        for c in &commands {
            assert!(script.contains(c.as_str()), "{shell} script lacks {c}");
        }
    }
}

#[test]
fn bash_completes_every_option_of_every_command() {
    let script = Test::new()
        .args(["completions", "bash"])
        .run()
        .success()
        .stdout;
    assert!(script.contains("complete -F _tilerank"), "{script}");
    for c in commands() {
        for option in long_options(&c) {
            assert!(script.contains(&option), "bash lacks {c} {option}");
        }
    }
}

#[test]
fn an_unknown_shell_is_a_command_line_error() {
    Test::new()
        .args(["completions", "cmd.exe"])
        .run()
        .failure(2)
        .stderr_has("invalid value 'cmd.exe'")
        .stderr_has("bash");
}

#[test]
fn the_manual_page_lists_every_command_and_each_page_every_option() {
    let main = Test::new().arg("man").run().success().stdout;
    assert!(
        main.starts_with(".ie") || main.contains(".TH tilerank 1"),
        "{main}"
    );
    assert!(main.contains(".TH tilerank 1"), "{main}");
    assert!(
        main.contains(".SH NOTES") && main.contains("Exit status"),
        "{main}"
    );
    let commands = commands();
    for c in &commands {
        assert!(
            main.contains(&format!("tilerank\\-{c}(1)")),
            "tilerank(1) lacks {c}"
        );
        let page = Test::new().args(["man", c.as_str()]).run().success().stdout;
        assert!(page.contains(&format!(".TH tilerank-{c} 1")), "{page}");
        for option in long_options(c) {
            let roff = option.replace('-', "\\-");
            assert!(page.contains(&roff), "tilerank-{c}(1) lacks {option}");
        }
    }
}

#[test]
fn every_page_is_written_into_a_folder() {
    let dir = std::env::temp_dir().join(format!("tilerank-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    Test::new()
        .args(["man", "--dir"])
        .arg(&dir)
        .run()
        .success()
        .stderr_has("manual pages written to");
    let mut pages: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    let mut expected: Vec<String> = commands()
        .iter()
        .map(|c| format!("tilerank-{c}.1"))
        .chain(["tilerank.1".to_string()])
        // a command's own commands have pages too
        .chain(
            [
                "profiles-show",
                "referee-add",
                "referee-list",
                "referee-revoke",
            ]
            .map(|c| format!("tilerank-{c}.1")),
        )
        .collect();
    expected.sort();
    assert_eq!(pages, expected);
    let add = std::fs::read_to_string(dir.join("tilerank-referee-add.1")).unwrap();
    assert!(add.contains("\\-\\-site\\-url"), "{add}");
    let page = Test::new()
        .args(["man", "referee-add"])
        .run()
        .success()
        .stdout;
    assert_eq!(page, add);
    let check = std::fs::read_to_string(dir.join("tilerank-check.1")).unwrap();
    assert!(check.contains("\\-\\-roster"), "{check}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_page_of_an_unknown_command_is_refused() {
    Test::new()
        .args(["man", "rank"])
        .run()
        .failure(2)
        .stderr_has("no command \"rank\": expected one of init, roster,");
}

fn example(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(path)
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tilerank-docs-{name}-{}.xlsx", std::process::id()))
}

#[test]
fn blank_final_cards_say_final_once_and_name_the_age_group() {
    let out = scratch("nvso-final");
    Test::new()
        .args(["seating", "--event"])
        .arg(example("nvso-2023"))
        .args([
            "--from",
            "prelim",
            "--seed",
            "2023",
            "--name",
            "NVSO 2023 Final",
            "-o",
        ])
        .arg(&out)
        .run()
        .success();
    let sheets = sheets(&out);
    std::fs::remove_file(&out).unwrap();
    assert_eq!(sheets.len(), 3, "one championship table per group");
    let mut groups = Vec::new();
    for (name, rows) in &sheets {
        assert_eq!(rows[0][0], "NVSO 2023 Final Score Card", "{name}");
        let group = rows
            .iter()
            .find(|r| r[0] == "Age group:")
            .unwrap_or_else(|| panic!("{name}: no Age group line: {rows:?}"));
        groups.push(group[1].clone());
    }
    assert_eq!(groups, ["50-64", "65-79", "80+"]);
}

#[test]
fn blank_cards_name_a_namesake_with_the_id() {
    let out = scratch("hk-prelim");
    Test::new()
        .args(["seating", "--roster"])
        .arg(example("hk-2026/roster.csv"))
        .args(["--seed", "1", "--name", "Rummikub HK 2026", "-o"])
        .arg(&out)
        .run()
        .success();
    let sheets = sheets(&out);
    std::fs::remove_file(&out).unwrap();
    let names: Vec<&String> = sheets
        .iter()
        .flat_map(|(_, rows)| {
            let name_row = rows.iter().find(|r| r[0] == "Name").unwrap();
            name_row[1..].iter().filter(|c| !c.is_empty())
        })
        .collect();
    assert!(names.len() > 1000, "{}", names.len());
    let bare_ids: Vec<&&String> = names
        .iter()
        .filter(|n| {
            n.len() == 5 && n.starts_with('P') && n[1..].bytes().all(|b| b.is_ascii_digit())
        })
        .collect();
    assert!(bare_ids.is_empty(), "bare ids on the cards: {bare_ids:?}");
    // The demo's ten namesakes (two Chan Tai Man among them) print with their ids.
    for printed in ["Chan Tai Man (P0314)", "Chan Tai Man (P0891)", "黃佩君"] {
        assert!(names.iter().any(|n| n.as_str() == printed), "{printed}");
    }
    assert!(names.iter().all(|n| !n.contains("Age group")));
    assert_eq!(
        sheets[0].1[0][0],
        "Rummikub HK 2026 Preliminary Round Score Card"
    );
}

#[test]
fn the_libreoffice_check_knows_every_header_label() {
    // It compares the workbook's headers with the CSV's names through the
    // same list.
    let check = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/libreoffice-check"),
    )
    .unwrap();
    for (name, label) in tilerank::report::LABELS {
        let line = format!("LABEL[\"{name}\"] = \"{label}\"");
        assert!(check.contains(&line), ".ci/libreoffice-check lacks {line}");
    }
}
/// Every file git would ship: the repository less `target/` and dot-folders
/// other than `.ci`.
fn shipped(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name == "target" || (name.starts_with('.') && name != ".ci") {
                continue;
            }
            shipped(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn nothing_points_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    shipped(root, &mut files);
    let outside = ["../", "shared"].concat();
    let mut found = Vec::new();
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue; // workbooks and other binary files
        };
        for (n, line) in text.lines().enumerate() {
            if line.contains(&outside) {
                found.push(format!("{}:{}: {line}", path.display(), n + 1));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_settings_sheet_is_titled_with_the_event_or_plainly() {
    use tilerank::event::{Event, Request};
    let event = Event::load(&Request {
        keep: tilerank::event::Keep::Cards,
        inputs: vec![crate::test::fixtures().join("good/hk-examples.csv")],
        roster: Some(crate::test::fixtures().join("roster.csv")),
        rules: tilerank::profile::Rules::hk(),
    })
    .unwrap();
    let settings = |name: &str| tilerank::report::export::settings_table(&event, name, &[]).title;
    assert_eq!(settings(""), "Settings");
    assert_eq!(settings("  "), "Settings");
    assert_eq!(settings("Rummikub HK 2026"), "Settings of Rummikub HK 2026");
}

/// The HK demo's standings and qualifiers, as the terminal shows them in a
/// window `width` columns wide.
fn hk_demo_at(width: u16) -> (String, String) {
    use tilerank::domain::Stage;
    use tilerank::event::{Event, Request};
    use tilerank::report::standings::{qualifiers_table, standings_table};
    use tilerank::report::terminal::Terminal;
    use tilerank::report::Exporter;
    let event = Event::load(&Request {
        keep: tilerank::event::Keep::Cards,
        inputs: vec![example("hk-2026/cards")],
        roster: Some(example("hk-2026/roster.csv")),
        rules: tilerank::profile::Rules::hk(),
    })
    .unwrap();
    let marked = event.standings_going_on(&Stage::prelim(), None);
    let standings = &marked.standings;
    let q = tilerank::rules::advancement::select(standings, 120, event.rules.cutoff_ties);
    let terminal = Terminal {
        width: Some(width),
        ..Terminal::default()
    };
    let show = |t| String::from_utf8(terminal.export(&[t]).unwrap()).unwrap();
    (
        show(standings_table(
            &marked,
            &event.roster,
            "Standings",
            event.rules.scoring,
        )),
        show(qualifiers_table(
            standings,
            &q,
            &event.roster,
            "Qualifiers",
            event.rules.scoring,
        )),
    )
}

/// The lines that show a player (an id P0001..P1200).
fn player_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| {
            l.split_whitespace().any(|w| {
                w.len() == 5 && w.starts_with('P') && w[1..].bytes().all(|b| b.is_ascii_digit())
            })
        })
        .collect()
}

#[test]
fn the_hk_demo_fits_80_columns_one_line_a_player() {
    use unicode_width::UnicodeWidthStr;
    let (standings, qualifiers) = hk_demo_at(80);
    let rows = player_lines(&standings);
    assert_eq!(rows.len(), 1198, "1195 ranked and 3 apart, a line each");
    let rows_q = player_lines(&qualifiers);
    assert_eq!(rows_q.len(), 121, "{qualifiers}");
    let rules = standings
        .lines()
        .filter(|l| l.starts_with('─') || l.starts_with("Rank"));
    for line in rows.iter().chain(&rows_q).copied().chain(rules) {
        assert!(line.width() <= 80, "{} wide: {line}", line.width());
    }
    // What matters is there: ranks, ids, names, games won, average score,
    // tiles; the tie at the cutoff.
    for header in ["Rank", "ID", "Name", "Won", "Average", "Tiles"] {
        assert!(standings.contains(header), "{header}: {standings}");
    }
    assert!(standings.contains("Vivian Ng Pik Sze"), "{standings}");
    assert!(qualifiers.contains("tie at cutoff"), "{qualifiers}");
    assert!(rows_q
        .iter()
        .any(|l| l.contains("P1200") && l.contains("吳信軒")));
}

/// At 60 columns the HK demo keeps the three keys of the hk order (games
/// won, average score, tiles left): columns that decide nothing (Games,
/// Total score, Note) are left out instead.
#[test]
fn a_narrow_window_keeps_the_hk_demos_keys() {
    use unicode_width::UnicodeWidthStr;
    let (standings, qualifiers) = hk_demo_at(60);
    // (the qualifiers' games, all 3, are said once under the table)
    for (text, left_out) in [
        (&standings, "Games, Total score, Note"),
        (&qualifiers, "Total score"),
    ] {
        for line in player_lines(text) {
            assert!(line.width() <= 60, "{} wide: {line}", line.width());
        }
        let said = text.replace('\n', " ");
        let not_shown = said
            .split("Not shown at this width: ")
            .nth(1)
            .and_then(|rest| rest.split(" (").next())
            .unwrap_or_default();
        assert_eq!(not_shown, left_out, "{said}");
        for header in ["Won", "Average", "Tiles"] {
            assert!(text.contains(header), "{header}: {text}");
        }
    }
}

#[test]
fn a_wide_window_shows_every_column_of_the_hk_demo() {
    let (standings, _) = hk_demo_at(200);
    for header in [
        "Rank",
        "ID",
        "Name",
        "Games",
        "Won",
        "Average score",
        "Total score",
        "Tiles left",
        "Status",
        "Note",
    ] {
        assert!(standings.contains(header), "{header}");
    }
    assert!(!standings.contains('…'));
    assert!(!standings.contains("Not shown") && !standings.contains("Same in every row"));
}

/// docs/formats.md's table of settings is the one the settings'
/// declaration makes: a setting added, renamed or documented anew changes
/// both (TILERANK_WRITE_DOCS=1 writes the table into the file).
#[test]
fn the_docs_table_of_settings_is_the_declaration() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = ("<!-- settings:begin -->\n", "<!-- settings:end -->");
    let (head, rest) = text.split_once(begin).expect("the table's begin marker");
    let (_, tail) = rest.split_once(end).expect("the table's end marker");
    let made = format!(
        "{head}{begin}{}{end}{tail}",
        tilerank::config::settings::docs_table()
    );
    if std::env::var_os("TILERANK_WRITE_DOCS").is_some() {
        std::fs::write(&path, &made).unwrap();
    }
    assert!(
        made == text,
        "docs/formats.md's table of settings differs from src/config/settings.rs: run the test with TILERANK_WRITE_DOCS=1 and review the diff"
    );
}

/// Every `[section] key` that the docs, the README and the tool's own
/// messages and help name is a declared setting: a setting renamed in the
/// declaration cannot leave a sentence pointing at the old name.
#[test]
fn every_setting_named_in_words_is_declared() {
    use tilerank::config::settings::{find, SECTIONS};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    for dir in ["docs", "src", "examples"] {
        let mut stack = vec![root.join(dir)];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).unwrap() {
                let p = entry.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p
                    .extension()
                    .is_some_and(|e| e == "md" || e == "rs" || e == "toml")
                {
                    files.push(p);
                }
            }
        }
    }
    let mut unknown = Vec::new();
    let mut seen = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for section in SECTIONS {
            let head = format!("[{section}] ");
            for (at, _) in text.match_indices(&head) {
                let key: String = text[at + head.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                // (a word of the sentence, not a key: `[rules] is given
                // twice`, a heading named)
                if key.is_empty() || ["is", "of", "in", "and", "or"].contains(&key.as_str()) {
                    continue;
                }
                seen += 1;
                if find(section, &key).is_none() {
                    unknown.push(format!("{}: [{section}] {key}", file.display()));
                }
            }
        }
    }
    assert!(seen > 10, "the scan finds the settings the docs name");
    assert!(unknown.is_empty(), "not declared: {unknown:#?}");
}

/// Chinese cards have a Chinese title (the event's name, then 決賽計分卡),
/// and the reader takes their stage from it: a blank final card read back
/// beside a typed one is a final card with nothing typed yet (skipped,
/// named); the blank cards alone are one error of the file.
#[test]
fn chinese_blank_cards_have_a_chinese_title_that_names_their_stage() {
    let out = scratch("nvso-final-zh");
    Test::new()
        .args(["seating", "--event"])
        .arg(example("nvso-2023"))
        .args(["--from", "prelim", "--seed", "2023", "--lang", "zh-Hant"])
        .args(["--name", "NVSO 2023", "-o"])
        .arg(&out)
        .run()
        .success();
    let printed = sheets(&out);
    assert_eq!(printed.len(), 3);
    for (name, rows) in &printed {
        assert_eq!(rows[0][0], "NVSO 2023 決賽計分卡", "{name}");
    }
    // each sheet named as Hong Kong says a table
    let names: Vec<&str> = printed.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["第1枱", "第2枱", "第3枱"]);
    Test::new()
        .arg("check")
        .arg(&out)
        .arg("--roster")
        .arg(example("nvso-2023/roster.csv"))
        .args(["--profile", "nvso"])
        .run()
        .failure(1)
        .errors(2)
        .warnings(0)
        .error_at(
            &out.display().to_string(),
            &["nothing typed yet: its 3 score cards are all blank, as printed (no game won, score or tiles typed); nothing was read: type the games, then give the file again"],
        );
    let typed = out.with_file_name("nvso-final-zh-typed.xlsx");
    crate::volunteer::typed_cards(&out, &typed, &[printed[0].0.as_str()], &[]);
    Test::new()
        .arg("check")
        .arg(&typed)
        .arg("--roster")
        .arg(example("nvso-2023/roster.csv"))
        .args(["--profile", "nvso"])
        .run()
        .stderr_has("final session S01 table 2: nothing typed yet (a blank score card, as printed)")
        .stderr_lacks("prelim session");
    std::fs::remove_file(&out).unwrap();
    std::fs::remove_file(&typed).unwrap();
}
