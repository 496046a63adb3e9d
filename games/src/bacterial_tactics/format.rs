//! The plugin's text formats: the input (T, then for each case `R C` and R rows of `.` and `#`), parsed with
//! every error placed at its file, line, column and case; and the answer of one case (one non-negative integer).

use super::grid::Grid;
use ludus_framework::input::{shorten, Reader, Source};
use ludus_framework::Result;

/// The largest number of rows or columns a grid may have: rectangle keys pack each coordinate in 6 bits.
pub const MAX_SIDE: usize = 64;

/// The largest number of cases in one input (the official T).
pub const MAX_CASES: usize = 100;

/// A parsed input: its grids, and the line each starts on (for the places in error messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    /// The grids, in order.
    pub grids: Vec<Grid>,
    /// The 1-based line of each grid's `R C` line.
    pub lines: Vec<usize>,
}

/// Parses a whole input file: T, then for each case `R C` and R rows of C characters from `.` and `#`.
/// Errors name the file, line, column and case.
pub fn parse(source: Source<'_>) -> Result<Vec<Grid>> {
    Ok(read_input(source)?.grids)
}

/// [`parse`], keeping the line where each case starts.
pub fn read_input(source: Source<'_>) -> Result<Parsed> {
    let mut reader = Reader::new(&source);
    let cases =
        reader.bounded("the number of cases T", 1, MAX_CASES as u64, "the official limit; split the file")? as usize;
    let side_hint = "the official limit is 15; rectangle keys pack coordinates in 6 bits";
    let mut parsed = Parsed { grids: Vec::with_capacity(cases), lines: Vec::with_capacity(cases) };
    for case in 1..=cases {
        reader.set_context(format!("case {case}"));
        // Skips the blank space before R, so that the reader's offset is on the case's first line (at the end
        // of the input, R's own error follows).
        let _ = reader.at_end();
        parsed.lines.push(reader.line_column(reader.offset()).0);
        let rows = reader.bounded("R (the number of rows)", 1, MAX_SIDE as u64, side_hint)? as usize;
        let columns = reader.bounded("C (the number of columns)", 1, MAX_SIDE as u64, side_hint)? as usize;
        let mut radioactive = Vec::with_capacity(rows * columns);
        for row in 1..=rows {
            let what = format!("row {row} of {rows} of the grid ({columns} characters from `.` and `#`)");
            let line = reader.line(&what)?;
            for (index, (offset, character)) in line.text.char_indices().enumerate() {
                if index >= columns {
                    break;
                }
                match character {
                    '.' => radioactive.push(false),
                    '#' => radioactive.push(true),
                    other => {
                        return Err(reader
                            .error_at(
                                line.offset + offset,
                                format!("row {row}: expected `.` or `#`, found `{}`", shorten(&other.to_string())),
                            )
                            .into())
                    }
                }
            }
            let length = line.text.chars().count();
            if length != columns {
                return Err(reader
                    .error_at(
                        line.offset,
                        format!(
                            "row {row}: expected {columns} characters (C = {columns}), found {length}: `{}`",
                            shorten(line.text)
                        ),
                    )
                    .into());
            }
        }
        parsed.grids.push(Grid { rows, columns, radioactive });
    }
    reader.finish()?;
    Ok(parsed)
}

/// Reads the answer text of one case: a single non-negative integer, Becca's number of winning openings.
pub(super) fn read_count(text: &str) -> std::result::Result<u64, String> {
    let mut tokens = text.split_whitespace();
    let claim = match (tokens.next(), tokens.next()) {
        (Some(token), None) if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) => token,
        _ => {
            return Err(format!(
                "expected one non-negative integer (Becca's winning opening moves), found `{}`",
                ludus_framework::input::shorten(text.trim())
            ))
        }
    };
    claim.parse::<u64>().map_err(|_| format!("the number `{claim}` is too large"))
}
