//! Reports to Python objects: a report is `Serialize` (the same struct the CLI prints with `--format json`),
//! and its JSON value becomes dicts, lists, strings, ints, floats, booleans and `None`. The Python package
//! (`ludus/__init__.py`) wraps them in typed classes.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde_json::Value;

/// `report` as Python objects.
pub fn to_python<'py>(py: Python<'py>, report: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(report)
        .map_err(|error| pyo3::exceptions::PyRuntimeError::new_err(format!("a report is not JSON: {error}")))?;
    value_to_python(py, &value)
}

/// A JSON value as Python objects.
pub fn value_to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(flag) => flag.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(number) => match (number.as_i64(), number.as_u64()) {
            (Some(whole), _) => whole.into_pyobject(py)?.into_any(),
            (None, Some(whole)) => whole.into_pyobject(py)?.into_any(),
            _ => number.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(text) => text.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(value_to_python(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(fields) => {
            let dict = PyDict::new(py);
            for (name, field) in fields {
                dict.set_item(name, value_to_python(py, field)?)?;
            }
            dict.into_any()
        }
    })
}
