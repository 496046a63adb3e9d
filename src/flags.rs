//! The framework's errors as the command line says them: a limit or a budget names the flag that lifts it
//! (`--max-positions`), where the framework names the setting in words. The one place that knows the flags of
//! the framework's settings.

use ludus_framework::{Error, Remedy, Setting};
use std::path::Path;

/// The flag of a setting.
pub fn flag(setting: Setting) -> &'static str {
    match setting {
        Setting::MaxPositions => "--max-positions",
        Setting::TableMb => "--table-mb",
        Setting::MemoryMb => "--memory-mb",
        Setting::MaxInputMb => "--max-input-mb",
        Setting::Threads => "--threads",
        Setting::NoLimit => "--no-limit",
        Setting::Solver => "--solver",
        Setting::Cases => "--cases",
        Setting::Size => "--size",
        Setting::Engine => "--engine",
    }
}

/// A remedy with the name of its setting: `raise --memory-mb`, `pass --no-limit to run it anyway`.
fn remedy(remedy: &Remedy, name: fn(Setting) -> &'static str) -> String {
    match remedy {
        Remedy::Raise(setting) => format!("raise {}", name(*setting)),
        Remedy::Lower(setting) => format!("lower {}", name(*setting)),
        Remedy::Set(Setting::NoLimit) => format!("pass {} to run it anyway", name(Setting::NoLimit)),
        Remedy::Set(Setting::Solver) => format!("choose another solver with {}", name(Setting::Solver)),
        Remedy::Set(Setting::MaxPositions) => format!("set another budget with {}", name(Setting::MaxPositions)),
        Remedy::Set(setting) => format!("set {}", name(*setting)),
        Remedy::Advice(advice) => advice.clone(),
    }
}

/// The remedies with their settings' names, as a parenthesis (empty for none).
fn remedies(list: &[Remedy], name: fn(Setting) -> &'static str) -> String {
    if list.is_empty() {
        return String::new();
    }
    format!(" ({})", list.iter().map(|each| remedy(each, name)).collect::<Vec<_>>().join(", or "))
}

/// `error` as a caller says it whose settings are named by `name` (the CLI's flags, the Python module's
/// keywords); a missing database is left to the caller, which knows how its users solve one.
pub fn describe_with(error: &Error, name: fn(Setting) -> &'static str) -> String {
    match error {
        Error::Budget(spent) => format!("{} (raise it with {})", spent.reached(), name(spent.setting())),
        Error::Limit { what, setting, got, limit, remedies: list } => {
            let setting = setting.map_or(String::new(), |setting| format!(" ({})", name(setting)));
            format!("{what}{setting} is {got}, above the limit of {limit}{}", remedies(list, name))
        }
        Error::Allocation { what, megabytes, remedies: list } => {
            format!("cannot allocate {what} of {megabytes} MiB{}", remedies(list, name))
        }
        Error::InCase { place, error } => format!("{place}: {}", describe_with(error, name)),
        other => other.to_string(),
    }
}

/// `error` as the command line says it: with flags where the framework names settings.
pub fn describe(error: &Error) -> String {
    match error {
        Error::InCase { place, error } => format!("{place}: {}", describe(error)),
        // Solving into a directory of another game's database fails: the advice is then a directory of its own.
        Error::NotSolved { game, directory, path } => match crate::places::game_in(Path::new(directory)) {
            Ok(holder) if holder != *game => {
                format!("{path}: missing: {directory} holds the database of {holder}: give a directory of {game}'s own")
            }
            _ => format!("{path}: missing: not solved (run `ludus db solve {game} --db {directory}` first)"),
        },
        other => describe_with(other, flag),
    }
}

/// An error of any source, with its causes, as the command line says it: the framework's with their flags.
pub fn describe_any(error: &anyhow::Error) -> String {
    error
        .chain()
        .map(|cause| match cause.downcast_ref::<Error>() {
            Some(framework) => describe(framework),
            None => cause.to_string(),
        })
        .collect::<Vec<_>>()
        .join(": ")
}
