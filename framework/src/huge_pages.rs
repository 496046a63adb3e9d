//! Transparent huge pages for the large arrays that searches probe at random: the transposition tables and the
//! endgame tiers.
//!
//! A table of gigabytes probed at random misses the processor's address cache (TLB) at nearly every probe with
//! 4 KiB pages, and its first touches fault page by page, which two threads touching it at once serialise in
//! the kernel. Linux backs a region with 2 MiB pages when asked (`madvise(MADV_HUGEPAGE)`; the system's
//! default, `madvise` in `/sys/kernel/mm/transparent_hugepage/enabled`, gives them only to regions that ask).
//! BENCHMARKS.md ("Huge pages") has the measurements.
//!
//! This is the crate's one use of `unsafe`: no well-kept crate advises memory it did not map itself (memmap2
//! advises its own maps, whose bytes cannot become the tables' atomic words without `unsafe` either).

/// The smallest region worth advising: one huge page.
const HUGE_PAGE: usize = 2 << 20;

/// Asks the system to back the whole pages of `memory` with huge pages. A hint: the contents are unchanged,
/// and a system that cannot or will not (another OS, huge pages disabled, memory too fragmented) keeps its
/// small pages. Regions under a huge page are left alone.
pub(crate) fn advise<Element>(memory: &[Element]) {
    let bytes = std::mem::size_of_val(memory);
    if bytes < HUGE_PAGE {
        return;
    }
    advise_bytes(memory.as_ptr() as usize, bytes);
}

#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_bytes(start: usize, bytes: usize) {
    const PAGE: usize = 4096;
    let (first, end) = (start.next_multiple_of(PAGE), (start + bytes) / PAGE * PAGE);
    if end <= first {
        return;
    }
    // SAFETY: `[first, end)` lies inside one live allocation of this process (the caller's slice, which it
    // keeps borrowed for the call); MADV_HUGEPAGE changes how the kernel backs those pages, never their
    // contents, and the call touches no memory of Rust's. A refusal (an error code) leaves the pages as they
    // were, which is correct, only slower.
    let _ = unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_bytes(_start: usize, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advice_keeps_the_contents() {
        let mut words = vec![0u64; 3 << 20];
        words.iter_mut().enumerate().for_each(|(index, word)| *word = index as u64);
        advise(&words);
        advise(&words[1..7]);
        assert!(words.iter().enumerate().all(|(index, word)| *word == index as u64));
    }
}
