//! The plugin's text formats: the official input (parsed with every error placed at its file, line, column and
//! case, and written back for generated inputs), and the answer to one case ([`GridAnswer`]: its official text,
//! its JSON, and reading it back from an answer file).

use super::grid::{Grid, Instance};
use ludus_framework::input::{shorten, InputError, Reader, Source};
use ludus_framework::Result;
use serde::{Serialize, Serializer};

/// The largest R or C accepted (a limit that protects memory and time).
pub const MAX_SIDE: usize = 500;
/// The largest number of cases T accepted.
pub const MAX_CASES: usize = 10_000;

/// A parsed input: the cases and the line each starts on.
pub type Parsed = ludus_framework::plugin::Cases<Instance>;

/// Reads a list of `length` (at least 1) counts in `0..=max`, all on one line. Line breaks are found by looking
/// at the gaps between tokens, so reading stays linear in the input's size.
fn read_counts(
    reader: &mut Reader<'_>,
    length: usize,
    max: usize,
    symbol: &str,
    unit: &str,
) -> std::result::Result<Vec<usize>, InputError> {
    let text = reader.source().text;
    let breaks_line = |from: usize, to: usize| text.get(from..to).is_some_and(|gap| gap.contains('\n'));
    let mut counts = Vec::with_capacity(length);
    let mut first_offset = 0;
    let mut previous_end = None;
    for index in 1..=length {
        let what = format!("{symbol}_{index} (the number of `/` in {unit} {index})");
        let token = reader.clone().token(&what)?;
        match previous_end {
            None => first_offset = token.offset,
            Some(end) if breaks_line(end, token.offset) => {
                let line = reader.line_column(first_offset).0;
                let message = format!(
                    "expected {length} {unit} counts {symbol}_1 .. {symbol}_{length} on line {line}, found only {}",
                    index - 1
                );
                return Err(reader.error_at(token.offset, message));
            }
            Some(_) => {}
        }
        counts.push(reader.number::<usize>(&what, 0, max)?);
        previous_end = Some(token.offset + token.text.len());
    }
    if let (Some(end), Ok(extra)) = (previous_end, reader.clone().token("")) {
        if !breaks_line(end, extra.offset) {
            let line = reader.line_column(first_offset).0;
            let message = format!(
                "expected {length} {unit} counts {symbol}_1 .. {symbol}_{length} on line {line}, found more: `{}`",
                extra.text
            );
            return Err(reader.error_at(extra.offset, message));
        }
    }
    Ok(counts)
}

/// Parses a whole input file in the official format.
pub fn parse_input(input: Source<'_>) -> Result<Parsed> {
    let mut reader = Reader::new(&input);
    let count = reader.bounded("the number of cases T", 1, MAX_CASES as u64, "")? as usize;
    let mut instances = Vec::with_capacity(count.min(1024));
    let mut lines = Vec::with_capacity(count.min(1024));
    for case in 1..=count {
        reader.set_context(format!("case {case}"));
        // Where the case starts; if nothing is left, reading R below reports it.
        let start = reader.clone().token("").map_or(reader.offset(), |token| token.offset);
        let rows = reader.bounded("the number of rows R", 1, MAX_SIDE as u64, "")? as usize;
        let columns = reader.bounded("the number of columns C", 1, MAX_SIDE as u64, "")? as usize;
        let row_counts = read_counts(&mut reader, rows, columns, "S", "row")?;
        let column_counts = read_counts(&mut reader, columns, rows, "D", "column")?;
        instances.push(Instance { rows, columns, row_counts, column_counts });
        lines.push(reader.line_column(start).0);
    }
    reader.finish()?;
    Ok(Parsed { cases: instances, lines })
}

/// The official input text of `instances`.
pub fn format_input(instances: &[Instance]) -> String {
    let join = |counts: &[usize]| counts.iter().map(usize::to_string).collect::<Vec<_>>().join(" ");
    let mut text = format!("{}\n", instances.len());
    for instance in instances {
        text.push_str(&format!(
            "{} {}\n{}\n{}\n",
            instance.rows,
            instance.columns,
            join(&instance.row_counts),
            join(&instance.column_counts)
        ));
    }
    text
}

/// The answer to one case. `Display` writes the official text after `Case #x:` (` POSSIBLE` and the grid's
/// rows on the next lines, or ` IMPOSSIBLE`); `Serialize` gives `{"possible": true, "grid": [rows]}` or
/// `{"possible": false}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridAnswer {
    /// A grid with the counts and no square.
    Possible(Grid),
    /// No grid has the counts and no square.
    Impossible,
}

impl GridAnswer {
    /// The answer a constructor's result gives: `Possible` with its grid, or `Impossible`.
    pub fn from_grid(grid: Option<Grid>) -> Self {
        grid.map_or(GridAnswer::Impossible, GridAnswer::Possible)
    }

    /// The grid, if the answer is `Possible`.
    pub fn grid(&self) -> Option<&Grid> {
        match self {
            GridAnswer::Possible(grid) => Some(grid),
            GridAnswer::Impossible => None,
        }
    }

    /// `POSSIBLE` or `IMPOSSIBLE`: the part every solver must agree on.
    pub fn class(&self) -> &'static str {
        match self {
            GridAnswer::Possible(_) => "POSSIBLE",
            GridAnswer::Impossible => "IMPOSSIBLE",
        }
    }
}

impl std::fmt::Display for GridAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GridAnswer::Possible(grid) => write!(f, " POSSIBLE\n{grid}"),
            GridAnswer::Impossible => f.write_str(" IMPOSSIBLE"),
        }
    }
}

/// The JSON shape of a [`GridAnswer`].
#[derive(Serialize)]
struct AnswerJson {
    possible: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    grid: Option<Vec<String>>,
}

impl Serialize for GridAnswer {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        AnswerJson { possible: self.grid().is_some(), grid: self.grid().map(Grid::lines) }.serialize(serializer)
    }
}

/// Reads the answer to `instance` from its block of an answer file (the text after `Case #x:`); `Err` says
/// what is malformed: the word, the number of grid rows, a row's length or a character.
pub fn read_answer(instance: &Instance, block: &str) -> std::result::Result<GridAnswer, String> {
    let mut lines = block.lines().map(str::trim).filter(|line| !line.is_empty());
    match lines.next() {
        Some("IMPOSSIBLE") => match lines.next() {
            Some(extra) => Err(format!("unexpected text after IMPOSSIBLE: `{}`", shorten(extra))),
            None => Ok(GridAnswer::Impossible),
        },
        Some("POSSIBLE") => {
            let rows: Vec<&str> = lines.collect();
            if rows.len() != instance.rows {
                return Err(format!("expected {} grid rows after POSSIBLE, found {}", instance.rows, rows.len()));
            }
            for (index, row) in rows.iter().enumerate() {
                let length = row.chars().count();
                if length != instance.columns {
                    return Err(format!(
                        "grid row {} has {length} characters, expected {}",
                        index + 1,
                        instance.columns
                    ));
                }
            }
            Grid::from_lines(&rows).map(GridAnswer::Possible)
        }
        Some(other) => Err(format!("expected POSSIBLE or IMPOSSIBLE, found `{}`", shorten(other))),
        None => Err("expected POSSIBLE or IMPOSSIBLE, found nothing".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_read_back_as_written() {
        let instance = Instance { rows: 2, columns: 3, row_counts: vec![1, 2], column_counts: vec![1, 1, 1] };
        let grid = match Grid::from_lines(&["\\\\/", "//\\"]) {
            Ok(grid) => grid,
            Err(error) => panic!("{error}"),
        };
        for answer in [GridAnswer::Possible(grid), GridAnswer::Impossible] {
            assert_eq!(read_answer(&instance, &format!("{answer}\n")), Ok(answer));
        }
    }

    #[test]
    fn cases_know_their_first_line() {
        let parsed = parse_input(Source::new("in", "2\n1 1\n0\n0\n\n2 1\n1 0\n1\n")).unwrap();
        assert_eq!(parsed.lines, [2, 6]);
        assert_eq!(parsed.cases[1].row_counts, [1, 0]);
    }
}
