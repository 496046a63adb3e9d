//! The framework's errors as the command line says them: a limit or a budget names the flag that lifts it
//! (`--max-positions`), where the framework names the setting in words. The one place that knows the flags of
//! the framework's settings.

use ludus_framework::{Budget, Error, Remedy, Setting};

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

/// A remedy with its flag: `raise --memory-mb`, `pass --no-limit to run it anyway`.
fn remedy(remedy: &Remedy) -> String {
    match remedy {
        Remedy::Raise(setting) => format!("raise {}", flag(*setting)),
        Remedy::Lower(setting) => format!("lower {}", flag(*setting)),
        Remedy::Set(Setting::NoLimit) => "pass --no-limit to run it anyway".to_string(),
        Remedy::Set(Setting::Solver) => "choose another solver with --solver".to_string(),
        Remedy::Set(Setting::MaxPositions) => "set another budget with --max-positions".to_string(),
        Remedy::Set(setting) => format!("set {}", flag(*setting)),
        Remedy::Advice(advice) => advice.clone(),
    }
}

/// The remedies with their flags, as a parenthesis (empty for none).
fn remedies(list: &[Remedy]) -> String {
    if list.is_empty() {
        return String::new();
    }
    format!(" ({})", list.iter().map(remedy).collect::<Vec<_>>().join(", or "))
}

/// A budget with the flag that raises it.
fn budget(budget: Budget) -> String {
    format!("{} (raise it with {})", budget.reached(), flag(budget.setting()))
}

/// `error` as the command line says it: with flags where the framework names settings.
pub fn describe(error: &Error) -> String {
    match error {
        Error::Budget(spent) => budget(*spent),
        Error::Limit { what, setting, got, limit, remedies: list } => {
            let setting = setting.map_or(String::new(), |setting| format!(" ({})", flag(setting)));
            format!("{what}{setting} is {got}, above the limit of {limit}{}", remedies(list))
        }
        Error::Allocation { what, megabytes, remedies: list } => {
            format!("cannot allocate {what} of {megabytes} MiB{}", remedies(list))
        }
        Error::InCase { place, error } => format!("{place}: {}", describe(error)),
        Error::NotSolved { game, directory, path } => {
            format!("{path}: missing: not solved (run `ludus db solve {game} --db {directory}` first)")
        }
        other => other.to_string(),
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
