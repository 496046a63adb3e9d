//! Reading answer files: splitting them into `Case #x:` blocks (or one answer per line) and pairing the blocks
//! with the input's cases.

use super::{CaseVerdict, Layout};
use crate::input::{shorten, InputError, Source};
use crate::puzzle::Violation;

/// One `Case #x:` block of an answer file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaseBlock<'a> {
    /// The case number written in the file.
    pub number: usize,
    /// 1-based line of the `Case #x:` header.
    pub line: usize,
    /// Everything after `Case #x:` up to the next header (including the newline after the header, if the
    /// answer starts on the next line).
    pub text: &'a str,
}

/// Splits an answer file into its `Case #x:` blocks; cases must be numbered 1, 2, 3... in order.
pub fn split_cases<'a>(output: Source<'a>) -> std::result::Result<Vec<CaseBlock<'a>>, InputError> {
    let mut blocks: Vec<CaseBlock<'a>> = Vec::new();
    let text = output.text;
    let mut starts = Vec::new();
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        if line.trim_start().starts_with("Case #") {
            starts.push((offset, index + 1));
        } else if starts.is_empty() && !line.trim().is_empty() {
            return Err(answer_error(
                output,
                index + 1,
                format!("expected `Case #1:`, found `{}`", shorten(line.trim())),
            ));
        }
        offset += line.len();
    }
    for (position, &(start, line)) in starts.iter().enumerate() {
        let end = starts.get(position + 1).map_or(text.len(), |next| next.0);
        let block = &text[start..end];
        let header = block.trim_start();
        let after_hash = &header["Case #".len()..];
        // The colon must be on the header's own line, not taken from a later one.
        let header_line = after_hash.split('\n').next().unwrap_or_default();
        let colon =
            header_line.find(':').ok_or_else(|| answer_error(output, line, "expected `Case #x:`".to_string()))?;
        let number: usize = after_hash[..colon].trim().parse().map_err(|_| {
            answer_error(output, line, format!("expected a case number, found `{}`", shorten(&after_hash[..colon])))
        })?;
        if number != blocks.len() + 1 {
            return Err(answer_error(
                output,
                line,
                format!("expected `Case #{}:`, found `Case #{number}:`", blocks.len() + 1),
            ));
        }
        let body_start = end - block.len() + (block.len() - header.len()) + "Case #".len() + colon + 1;
        blocks.push(CaseBlock { number, line, text: &text[body_start..end] });
    }
    Ok(blocks)
}

fn answer_error(output: Source<'_>, line: usize, message: String) -> InputError {
    InputError { file: output.name.to_string(), line, column: 1, context: String::new(), message }
}

/// Splits an answer file laid out one answer per line: every non-blank line is a block, numbered in order.
pub fn split_lines<'a>(output: Source<'a>) -> Vec<CaseBlock<'a>> {
    output
        .text
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .enumerate()
        .map(|(index, (line, text))| CaseBlock { number: index + 1, line: line + 1, text })
        .collect()
}

/// Pairs the blocks of an answer file (laid out as `layout` says) with the `cases` cases of the input: a
/// missing or extra case, or a malformed file, becomes a rejected verdict instead of an error. Calls
/// `judge(case, block)` (0-based case) for each case present in both.
pub fn judge_blocks(
    output: Source<'_>,
    layout: Layout,
    cases: usize,
    mut judge: impl FnMut(usize, &CaseBlock<'_>) -> std::result::Result<(), Violation>,
) -> Vec<CaseVerdict> {
    let blocks = match layout {
        Layout::Lines => split_lines(output),
        Layout::Cases => match split_cases(output) {
            Ok(blocks) => blocks,
            Err(error) => {
                return (1..=cases)
                    .map(|case| CaseVerdict { case, problem: Some(format!("unreadable answer file: {error}")) })
                    .collect();
            }
        },
    };
    let mut verdicts: Vec<CaseVerdict> = (0..cases)
        .map(|case| {
            let problem = match blocks.get(case) {
                None => Some("missing from the answer file".to_string()),
                Some(block) => judge(case, block).err().map(|violation| violation.reason),
            };
            CaseVerdict { case: case + 1, problem }
        })
        .collect();
    for block in blocks.iter().skip(cases) {
        verdicts.push(CaseVerdict {
            case: block.number,
            problem: Some(format!("an extra answer on line {}: the input has only {cases} cases", block.line)),
        });
    }
    verdicts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_case_blocks_with_inline_and_multiline_answers() {
        let output = Source::new("out", "Case #1: 2 1\nCase #2:\n.c\n**\n");
        let blocks = split_cases(output).unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].text, " 2 1\n");
        assert_eq!(blocks[1].text, "\n.c\n**\n");
        assert_eq!(blocks[1].line, 2);
    }

    #[test]
    fn rejects_misnumbered_cases_and_garbage() {
        assert!(split_cases(Source::new("out", "Case #2: 1\n")).is_err());
        assert!(split_cases(Source::new("out", "hello\nCase #1: 1\n")).is_err());
        // A header without its colon is an error on its own line, even if a later line holds a colon.
        let error = split_cases(Source::new("out", "Case #1 5\nx: y\n")).unwrap_err();
        assert_eq!((error.line, error.message.as_str()), (1, "expected `Case #x:`"));
        let verdicts = judge_blocks(Source::new("out", "Case #1: 1\n"), Layout::Cases, 2, |_, _| Ok(()));
        assert_eq!(verdicts[0].problem, None);
        assert_eq!(verdicts[1].problem.as_deref(), Some("missing from the answer file"));
        let verdicts = judge_blocks(Source::new("out", "a 1\n\nb 2\nc 3\n"), Layout::Lines, 2, |_, _| Ok(()));
        assert_eq!(verdicts.len(), 3);
        assert_eq!(verdicts[2].problem.as_deref(), Some("an extra answer on line 4: the input has only 2 cases"));
    }
}
