//! `tilerank man`: the manual pages, written from the same clap definitions
//! as the commands themselves (clap_mangen): `tilerank(1)`, which lists the
//! commands, and one page a command, `tilerank-check(1)` and so on, as git
//! and cargo have them.

use super::{Cli, Outcome};
use anyhow::{bail, Context, Result};
use clap::{Args, CommandFactory};
use clap_mangen::Man;
use std::path::PathBuf;

/// Print a manual page (roff), or write every page into a folder
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank man | man -l -                 read tilerank(1) now\n  tilerank man check | man -l -           the page of one command\n  tilerank man --dir ~/.local/share/man/man1   install every page; then: man tilerank, man tilerank-check"
)]
pub struct ManArgs {
    /// The command whose page to print (default: tilerank(1), the list of commands)
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,

    /// Write every page (tilerank.1, tilerank-check.1, ...) into this folder instead
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub dir: Option<PathBuf>,
}

/// The clap tree with each command's full name (`tilerank-check`), as the
/// pages are named.
fn built() -> clap::Command {
    let mut cmd = Cli::command()
        .disable_help_subcommand(true)
        .subcommand_help_heading("COMMANDS")
        .long_about(DESCRIPTION);
    cmd.build();
    cmd
}

/// tilerank(1)'s DESCRIPTION (`--help` keeps the one-line summary).
const DESCRIPTION: &str = "tilerank reads the score cards of a Rummikub tournament, checks every card against the rules of the event's profile (the profiles command lists them) or of a rules file of the director's own, and lists every problem with its place (file:line:column, or file[sheet]!C7 for workbooks); then it prints the standings, who goes on, the seating of the next stage with blank score cards to print, the medals and the awards, on the terminal or as CSV, JSON or a workbook.

Cards come as CSV files or workbooks: one line per seat per game (the results layout), what was left on each rack (the racks layout: tilerank computes the scores), or the printed HK score card, one table a sheet. An event folder, made by tilerank init, keeps the settings (tilerank.toml), the roster and every imported card; every reading command run inside it reads them.

The rules applied, with the decisions taken where the published rules are silent, and the file formats are described in docs/rules.md and docs/formats.md of the source.";

fn page(cmd: clap::Command) -> Man {
    Man::new(cmd)
        .source(format!("tilerank {}", env!("CARGO_PKG_VERSION")))
        .manual("tilerank manual")
}

/// The page in roff; the text after the options (examples, exit status) is
/// headed NOTES rather than clap_mangen's EXTRA.
fn render(man: &Man) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    man.render(&mut bytes)?;
    let text = String::from_utf8(bytes)?;
    Ok(text
        .replacen("\n.SH EXTRA\n", "\n.SH NOTES\n", 1)
        .into_bytes())
}

/// `cmd` and every command under it (`tilerank referee add`), each with a
/// page of its own; clap's `help` has none.
fn all_pages(cmd: &clap::Command) -> Vec<clap::Command> {
    let mut out = vec![cmd.clone()];
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        out.extend(all_pages(sub));
    }
    out
}

pub fn run(args: ManArgs) -> Result<Outcome> {
    let root = built();
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot be created", dir.display()))?;
        let mut written = Vec::new();
        for cmd in all_pages(&root) {
            let man = page(cmd);
            let path = dir.join(man.get_filename());
            let bytes = render(&man)?;
            tilerank::report::output::write_atomically(&path, &bytes)
                .with_context(|| format!("{}: cannot be written", path.display()))?;
            written.push(path);
        }
        say!(
            "{} manual pages written to {} (tilerank.1 and one a command)",
            written.len(),
            dir.display()
        );
        return Ok(Outcome::Done);
    }
    let cmd = match &args.command {
        None => root,
        // a command's own command by its page's name: referee-add
        Some(name) => match all_pages(&root).into_iter().skip(1).find(|c| {
            c.get_display_name()
                .unwrap_or(c.get_name())
                .strip_prefix("tilerank-")
                == Some(name.as_str())
        }) {
            Some(sub) => sub,
            None => {
                let names: Vec<&str> = root.get_subcommands().map(|c| c.get_name()).collect();
                bail!("no command {name:?}: expected one of {}", names.join(", "));
            }
        },
    };
    super::write_stdout(&render(&page(cmd))?)?;
    Ok(Outcome::Done)
}
