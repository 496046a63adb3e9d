//! Criterion bench placeholder: replaced by the plugin work in progress.
fn main() {}
