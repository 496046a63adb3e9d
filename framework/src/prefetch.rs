//! A hint that a value will be read soon: the transposition tables' probes and the endgame solve's reads of
//! the tiers below, both at random places in arrays of gigabytes, start loading a cache line before they need
//! it, so that several misses overlap instead of following each other. `safe_arch` gives the instruction
//! without `unsafe`.

/// Starts loading the cache line of `value` into the first-level cache. A hint: nothing else changes.
#[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
#[inline]
pub(crate) fn prefetch<Element>(value: &Element) {
    safe_arch::prefetch_t0(value);
}

/// Without a prefetch instruction: nothing.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse")))]
#[inline]
pub(crate) fn prefetch<Element>(_value: &Element) {}
