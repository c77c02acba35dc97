//! The `tilerank` command: parses arguments, runs one command of the
//! library, prints, and maps the outcome to the exit status of FORMATS.md
//! (0 done, 1 the data has errors, 2 the command line or a file is wrong).
//!
//! A closed standard output or error (`tilerank check x | head -1`) is no
//! failure: the run ends quietly, with the status it had reached.

mod cli;

use clap::Parser;
use std::panic;
use std::process::ExitCode;

/// What `println!` panics with when its stream is gone.
const PRINT_FAILED: &str = "failed printing to std";

fn print_failed(message: &str) -> bool {
    message.starts_with(PRINT_FAILED)
}

fn payload_text(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("")
}

/// Has glibc's allocator take every block of 4 MiB or more from the
/// system on its own and give it back when freed, rather than raise that
/// threshold as large blocks come and go: a million players' vectors grow
/// by doubling, and past the first few the freed halves stayed in the
/// process (a peak 2 to 16 MiB higher; up to 3% more processor time for
/// the blocks taken fresh; see the README's Scale section). Whether the
/// allocator took the setting.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn give_back_large_blocks() -> bool {
    // SAFETY: mallopt sets one of the allocator's parameters; it is
    // called first thing in main, before any other thread exists.
    unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, 4 << 20) == 1 }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn give_back_large_blocks() -> bool {
    true
}

fn main() -> ExitCode {
    give_back_large_blocks();
    let previous = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if !print_failed(payload_text(info.payload())) {
            previous(info);
        }
    }));
    let args = cli::Cli::parse();
    match panic::catch_unwind(|| cli::run(args)) {
        Ok(Ok(cli::Outcome::Done)) => ExitCode::SUCCESS,
        Ok(Ok(cli::Outcome::DataErrors)) => ExitCode::from(1),
        Ok(Err(e)) if cli::is_broken_pipe(&e) => ExitCode::from(cli::status_so_far()),
        Ok(Err(e)) => {
            cli::say_line(&format!("tilerank: {e:#}"));
            ExitCode::from(2)
        }
        Err(payload) if print_failed(payload_text(&*payload)) => {
            ExitCode::from(cli::status_so_far())
        }
        Err(payload) => panic::resume_unwind(payload),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_allocator_takes_the_setting() {
        assert!(super::give_back_large_blocks());
    }
}
