//! `tilerank completions SHELL`: the shell's completion script, written from
//! the same clap definitions as the commands themselves (clap_complete), so
//! it never lists a command or option the tool does not have.

use super::{Cli, Outcome};
use anyhow::Result;
use clap::{Args, CommandFactory};
use clap_complete::Shell;

/// Print the completion script of a shell: commands, options and their values complete with Tab
#[derive(Args, Debug)]
#[command(
    after_help = "Install (each shell reads its scripts from its own place):\n  bash:       tilerank completions bash > ~/.local/share/bash-completion/completions/tilerank\n  zsh:        tilerank completions zsh > ~/.zfunc/_tilerank   (with fpath+=(~/.zfunc) before compinit in ~/.zshrc)\n  fish:       tilerank completions fish > ~/.config/fish/completions/tilerank.fish\n  PowerShell: tilerank completions powershell >> $PROFILE\nThen open a new shell."
)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: Shell,
}

pub fn run(args: CompletionsArgs) -> Result<Outcome> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "tilerank", &mut out);
    super::write_stdout(&out)?;
    Ok(Outcome::Done)
}
