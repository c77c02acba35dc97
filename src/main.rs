//! The `tilerank` command: parses arguments, runs one command of the
//! library, prints, and maps the outcome to the exit status of FORMATS.md
//! (0 done, 1 the data has errors, 2 the command line or a file is wrong).

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(cli::Outcome::Done) => ExitCode::SUCCESS,
        Ok(cli::Outcome::DataErrors) => ExitCode::from(1),
        Err(e) if cli::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tilerank: {e:#}");
            ExitCode::from(2)
        }
    }
}
