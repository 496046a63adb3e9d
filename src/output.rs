//! The one path by which every command writes. Standard output goes through the reports' printer
//! (`crate::reports::print`), `say!` and `say_raw!`, every write checked, and [`finish`] flushes it before the
//! exit status is chosen: a write or flush that fails is an [`OutputError`] (exit status 2), except a reader
//! that left early (`| head`), which ends the command quietly. Standard error goes through `note!`, which never panics: when standard
//! error itself fails there is nowhere left to say so.

use std::io::Write;

/// A failed write to standard output. Its source is the operating system's error, so that a reader that left
/// early (a broken pipe) can be told from a full disk.
#[derive(Debug, thiserror::Error)]
#[error("cannot write standard output")]
pub struct OutputError {
    #[source]
    source: std::io::Error,
}

/// The error of a failed write or flush of standard output.
pub fn output_error(source: std::io::Error) -> OutputError {
    OutputError { source }
}

/// `println!` to standard output that returns an [`OutputError`] instead of panicking.
macro_rules! say {
    ($($argument:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($argument)*).map_err($crate::output::output_error)?
    }};
}

/// `print!` likewise.
macro_rules! say_raw {
    ($($argument:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($argument)*).map_err($crate::output::output_error)?
    }};
}

/// `eprintln!` that never panics: a message to standard error, dropped if standard error cannot take it.
macro_rules! note {
    ($($argument:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($argument)*);
    }};
}

/// Flushes standard output: what is still buffered is written now, and a failure is an error.
pub fn finish() -> Result<(), OutputError> {
    std::io::stdout().lock().flush().map_err(output_error)
}
