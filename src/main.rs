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
/// the blocks taken fresh; see docs/scale.md, "Memory"). Whether the
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

/// The system's allocator, asking Linux to back each block of
/// [`HUGE_FROM`] bytes or more with huge pages (2 MiB) where the system
/// gives them on request (`madvise`, as most distributions set it). A
/// million players' roster text, id index, sums and sort keys are such
/// blocks, and each 4 KiB page of them first touched is a page fault (some
/// 2.4 µs each on the machine docs/scale.md was measured
/// on); a huge page is one fault for 512 pages. `qualifiers FILE --roster
/// R` at a million players took 33,700 faults, 12,200 with huge pages.
/// What a block does not touch is still not taken; a block's last huge
/// page may be taken whole for a part of it (a peak some 1 to 7 MiB
/// higher at a million).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
struct HugeBlocks;

/// Blocks from this size on are asked to be huge pages: those glibc maps
/// on their own (see [`give_back_large_blocks`]).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const HUGE_FROM: usize = 4 << 20;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[global_allocator]
static ALLOCATOR: HugeBlocks = HugeBlocks;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
impl HugeBlocks {
    /// Asks for huge pages for the pages of the block of `size` bytes at
    /// `ptr`, just allocated by glibc (advice only: nothing is said if it
    /// is not taken). The advice covers the block's whole mapping: glibc
    /// maps such a block on its own, from the page its header is on to
    /// the end of what the block may use (`malloc_usable_size`, which
    /// may end a page past the bytes asked for). A mapping advised in
    /// part is split in two or three, and glibc's `realloc`, which moves
    /// a block's mapping whole (`mremap`), then fails and copies the
    /// block into a new one instead.
    fn advise(ptr: *mut u8, size: usize) {
        const PAGE: usize = 4 << 10;
        if ptr.is_null() || size < HUGE_FROM {
            return;
        }
        // SAFETY: `ptr` was just returned by glibc's allocator (through
        // the system allocator) and not yet freed.
        let usable = unsafe { libc::malloc_usable_size(ptr.cast()) };
        let start = ptr as usize / PAGE * PAGE;
        let end = (ptr as usize + size.max(usable)).next_multiple_of(PAGE);
        // SAFETY: the range is the pages the block lies in, its header's
        // and its usable end's included; the advice changes how they are
        // backed, not what they hold.
        unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
    }
}

// SAFETY: every call is the system allocator's, with its arguments as
// given; `advise` only advises the kernel on the block returned.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
unsafe impl std::alloc::GlobalAlloc for HugeBlocks {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        let ptr = unsafe { std::alloc::System.alloc(layout) };
        HugeBlocks::advise(ptr, layout.size());
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        let ptr = unsafe { std::alloc::System.alloc_zeroed(layout) };
        HugeBlocks::advise(ptr, layout.size());
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        let ptr = unsafe { std::alloc::System.realloc(ptr, layout, new_size) };
        HugeBlocks::advise(ptr, new_size);
        ptr
    }
}

fn main() -> ExitCode {
    give_back_large_blocks();
    let previous = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if !print_failed(payload_text(info.payload())) {
            previous(info);
        }
    }));
    let args = cli::Cli::try_parse().unwrap_or_else(|e| {
        let line: Vec<std::ffi::OsString> = std::env::args_os().collect();
        cli::parse_error(e, &line).exit()
    });
    match panic::catch_unwind(|| cli::run(args)) {
        // (done, and errors were listed all the same: those of a later
        // stage, which the answer asked for does not wait for)
        Ok(Ok(cli::Outcome::Done)) => ExitCode::from(cli::status_so_far()),
        Ok(Ok(cli::Outcome::DataErrors)) => ExitCode::from(1),
        Ok(Err(e)) if cli::is_broken_pipe(&e) => ExitCode::from(cli::status_so_far()),
        Ok(Err(e)) => {
            for line in cli::said_lines(&e) {
                cli::say_line(&format!("tilerank: {line}"));
            }
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

    /// Blocks asked to be huge pages hold what is written to them, grown
    /// and shrunk (the advice changes how pages are backed, not what they
    /// hold), at sizes on either side of the threshold.
    #[test]
    fn large_blocks_keep_what_they_hold() {
        for mib in [1, 3, 4, 5, 9] {
            let n = mib << 20;
            let mut v: Vec<u64> = (0..n as u64 / 8).collect();
            v.extend(0..n as u64 / 8);
            v.truncate(n / 16);
            v.shrink_to_fit();
            assert!(
                v.iter().enumerate().all(|(i, &x)| x == i as u64),
                "{mib} MiB"
            );
            let zeroed = vec![0u8; n];
            assert!(zeroed.iter().all(|&b| b == 0));
        }
    }

    /// A large block's mapping is advised whole, one mapping, so that
    /// growing it moves the mapping (`mremap`) rather than copy the
    /// block into a new one: advised in part, its 2 MiB pages were a
    /// mapping of their own and its ends two more.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn a_large_block_is_one_mapping() {
        // (the threshold set, as main sets it first: the tests run in any
        // order, and without it a block freed by another test raises
        // glibc's own threshold, and these blocks are cut from its heap)
        assert!(super::give_back_large_blocks());
        let maps = || std::fs::read_to_string("/proc/self/maps").unwrap();
        // (sizes whose mapping ends on the page after the block's last
        // byte, as glibc rounds, among them)
        for len in (0..40).map(|k| (5 << 20) + 12_345 * k).chain([
            (5 << 20) - 20,
            (9 << 20) - 17,
            (33 << 20) - 30,
        ]) {
            let block = vec![1u8; len];
            // SAFETY: the block was allocated by glibc's malloc (through
            // the system allocator) and is alive.
            let usable = unsafe { libc::malloc_usable_size(block.as_ptr() as *mut libc::c_void) };
            let (first, last) = (
                block.as_ptr() as usize,
                block.as_ptr() as usize + usable - 1,
            );
            let holding = |at: usize| {
                maps()
                    .lines()
                    .map(|line| {
                        let range = line.split(' ').next().unwrap();
                        let (a, b) = range.split_once('-').unwrap();
                        let number = |t| usize::from_str_radix(t, 16).unwrap();
                        (number(a), number(b))
                    })
                    .find(|&(a, b)| a <= at && at < b)
                    .unwrap()
            };
            assert_eq!(holding(first), holding(last), "{len} bytes:\n{}", maps());
        }
    }
}
