//! What a director installs and reads beside the tool: shell completions,
//! manual pages, headers in people's words, and nothing that points outside
//! the repository.

use crate::test::Test;

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
        .collect();
    expected.sort();
    assert_eq!(pages, expected);
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
