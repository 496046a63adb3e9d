//! The framework's layers, enforced: every `crate::` path in the code of a module names a module of its own
//! layer or of one below it (ARCHITECTURE.md, "Layers"), and the framework names no command-line flag (a limit
//! carries its kind; the CLI names the flag). Doc comments are not code: they may point anywhere.

use std::path::{Path, PathBuf};

/// The framework's top-level modules by layer, lowest first.
const LAYERS: &[(&str, &[&str])] = &[
    ("errors", &["error"]),
    (
        "core traits",
        &[
            "value",
            "stats",
            "input",
            "random",
            "parameters",
            "game",
            "hints",
            "scored",
            "impartial",
            "puzzle",
            "solitaire",
            "text",
            "board",
        ],
    ),
    ("tables", &["table", "huge_pages", "prefetch"]),
    ("engines", &["engines"]),
    ("analysis", &["analysis"]),
    ("databases", &["database"]),
    ("registry and playable", &["playable"]),
    ("plugin and conformance", &["plugin", "conformance", "prelude"]),
];

/// The layer of a top-level module.
fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, modules)| modules.contains(&module))
}

/// Every `.rs` file under `directory`.
fn sources(directory: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(directory) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            found.push(path);
        }
    }
}

/// The framework's source files with their top-level module (`lib.rs` is the crate's root, no module).
fn modules() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    files.sort();
    files
        .into_iter()
        .filter_map(|path| {
            let relative = path.strip_prefix(&root).ok()?.to_string_lossy().into_owned();
            let first = relative.split('/').next()?.trim_end_matches(".rs").to_string();
            (first != "lib").then_some((first, path))
        })
        .collect()
}

/// The code of a source file: its lines without comments, and without its unit tests (a `#[cfg(test)]`
/// module at the end may use anything).
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim_start() == "#[cfg(test)]" {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        if !code.trim().is_empty() {
            lines.push((number + 1, code.to_string()));
        }
    }
    lines
}

#[test]
fn every_module_is_in_a_layer_and_imports_only_its_layer_or_lower_ones() {
    let mut problems = Vec::new();
    let all = modules();
    assert!(all.len() > 50, "the framework's sources are found");
    for (module, path) in &all {
        let Some(own) = layer_of(module) else {
            problems.push(format!("{}: module `{module}` is in no layer (add it to LAYERS)", path.display()));
            continue;
        };
        let text = std::fs::read_to_string(path).unwrap_or_default();
        for (number, code) in code_lines(&text) {
            for (index, _) in code.match_indices("crate::") {
                let named: String = code[index + "crate::".len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if named.is_empty() || named == *module || named.starts_with(char::is_uppercase) {
                    continue;
                }
                match layer_of(&named) {
                    Some(layer) if layer <= own => {}
                    Some(layer) => problems.push(format!(
                        "{}:{number}: `{module}` ({}) uses `crate::{named}` ({}), a layer above",
                        path.display(),
                        LAYERS[own].0,
                        LAYERS[layer].0
                    )),
                    None => problems.push(format!("{}:{number}: `crate::{named}` is in no layer", path.display())),
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_framework_names_no_command_line_flag() {
    let mut problems = Vec::new();
    for (_, path) in modules() {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for (number, code) in code_lines(&text) {
            // A flag in a string: `--` and a letter, inside quotes (the code's own `--` is a decrement nowhere).
            let in_string = code.split('"').skip(1).step_by(2).any(|literal| {
                literal
                    .match_indices("--")
                    .any(|(at, _)| literal[at + 2..].starts_with(|c: char| c.is_ascii_lowercase()))
            });
            if in_string {
                problems.push(format!("{}:{number}: {}", path.display(), code.trim()));
            }
        }
    }
    assert!(problems.is_empty(), "a limit names its Setting, the CLI its flag:\n{}", problems.join("\n"));
}
