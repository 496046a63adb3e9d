//! The framework's errors as Python exceptions: one class per kind a caller acts on, all subclasses of
//! `ludus.LudusError`. A limit or a budget names the keyword argument that lifts it (`raise table_mb`), where
//! the CLI names its flag (`ludus::flags::describe_with`, one wording for both).

use ludus_framework::{Error, Setting};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

pyo3::create_exception!(_ludus, LudusError, PyException, "Every error of the ludus module.");
pyo3::create_exception!(
    _ludus,
    BudgetExceeded,
    LudusError,
    "A search, a table or a solve reached its budget (positions or memory); the message names the keyword \
     argument that raises it."
);
pyo3::create_exception!(
    _ludus,
    LimitExceeded,
    LudusError,
    "An input or a request is beyond a limit (a solver's size limit, a table's largest size)."
);
pyo3::create_exception!(
    _ludus,
    ParseError,
    LudusError,
    "A text that is not a position or a move of the game, or an input that is not in the plugin's format: \
     where, what was expected and what was found."
);
pyo3::create_exception!(
    _ludus,
    ParameterError,
    LudusError,
    "A game's name, a parameter or an option that is not valid."
);
pyo3::create_exception!(
    _ludus,
    UnsupportedOperation,
    LudusError,
    "An operation the game or the engine does not offer (a database of a game of chance, an engine that does \
     not solve this family)."
);
pyo3::create_exception!(_ludus, GameOver, LudusError, "A move asked for at a position where the game is over.");
pyo3::create_exception!(
    _ludus,
    NotSolved,
    LudusError,
    "A database that is not solved in the directory given (solve it first with ludus.solve_database)."
);
pyo3::create_exception!(
    _ludus,
    NoRecord,
    LudusError,
    "A position a database holds no record of (it is not reachable from the game's start)."
);
pyo3::create_exception!(_ludus, DatabaseError, LudusError, "A database file that is damaged or cannot be read.");
pyo3::create_exception!(
    _ludus,
    ContractBroken,
    LudusError,
    "A game that breaks a contract of the traits (keys, moves, scores, positions that repeat)."
);

/// The keyword argument of a setting, as a Python caller writes it.
pub fn keyword(setting: Setting) -> &'static str {
    match setting {
        Setting::MaxPositions => "max_positions=",
        Setting::TableMb => "table_mb=",
        Setting::MemoryMb => "memory_mb=",
        Setting::MaxInputMb => "max_input_mb=",
        Setting::Threads => "threads=",
        Setting::NoLimit => "no_limit=True",
        Setting::Solver => "solver=",
        Setting::Cases => "cases=",
        Setting::Size => "size=",
        Setting::Engine => "engine=",
    }
}

/// `error` as the Python exception of its kind.
pub fn to_python(error: &Error) -> PyErr {
    let message = match error {
        Error::NotSolved { game, directory, path } => format!(
            "{path}: missing: the database of {game} is not solved in {directory} (solve it with \
             ludus.solve_database)"
        ),
        other => ludus::flags::describe_with(other, keyword),
    };
    match error {
        Error::InCase { error, .. } => {
            let inner = to_python(error);
            Python::attach(|py| {
                let kind = inner.get_type(py);
                PyErr::from_type(kind, message)
            })
        }
        Error::Budget(_) | Error::Allocation { .. } => BudgetExceeded::new_err(message),
        Error::Limit { .. } => LimitExceeded::new_err(message),
        Error::Position { .. } | Error::Input(_) | Error::IllegalMove(_) => ParseError::new_err(message),
        Error::Parameter { .. } | Error::UnknownSolver { .. } => ParameterError::new_err(message),
        Error::Unsupported { .. } => UnsupportedOperation::new_err(message),
        Error::GameOver => GameOver::new_err(message),
        Error::NotSolved { .. } => NotSolved::new_err(message),
        Error::NoRecord { .. } => NoRecord::new_err(message),
        Error::Database { .. } | Error::Records { .. } | Error::Io { .. } => DatabaseError::new_err(message),
        Error::Contract { .. } => ContractBroken::new_err(message),
        _ => LudusError::new_err(message),
    }
}

/// Adds every exception class to the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("LudusError", py.get_type::<LudusError>())?;
    module.add("BudgetExceeded", py.get_type::<BudgetExceeded>())?;
    module.add("LimitExceeded", py.get_type::<LimitExceeded>())?;
    module.add("ParseError", py.get_type::<ParseError>())?;
    module.add("ParameterError", py.get_type::<ParameterError>())?;
    module.add("UnsupportedOperation", py.get_type::<UnsupportedOperation>())?;
    module.add("GameOver", py.get_type::<GameOver>())?;
    module.add("NotSolved", py.get_type::<NotSolved>())?;
    module.add("NoRecord", py.get_type::<NoRecord>())?;
    module.add("DatabaseError", py.get_type::<DatabaseError>())?;
    module.add("ContractBroken", py.get_type::<ContractBroken>())?;
    Ok(())
}
