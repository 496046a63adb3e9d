//! Helpers shared by the framework's test files.

/// A 64-bit mixing function (the finaliser of MurmurHash3): deterministic pseudo-random numbers from integers,
/// for random game graphs that need no generator state.
pub fn mix(mut value: u64) -> u64 {
    value ^= value >> 33;
    value = value.wrapping_mul(0xff51_afd7_ed55_8ccd);
    value ^= value >> 33;
    value = value.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    value ^ (value >> 33)
}
