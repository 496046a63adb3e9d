//! Reading the official input formats: a whitespace tokenizer that knows the file, line and column of every
//! token, and an error type ([`InputError`]) that names them together with what was expected.
//!
//! ```
//! use ludus_framework::input::{Reader, Source};
//! let source = Source::new("example.in", "2\n3 4\n");
//! let mut reader = Reader::new(&source);
//! let cases = reader.number::<usize>("the number of cases T", 1, 100)?;
//! reader.set_context("case 1");
//! let rows = reader.number::<u32>("R", 1, 10)?;
//! assert_eq!((cases, rows), (2, 3));
//! let error = reader.number::<u32>("C", 1, 3).unwrap_err();
//! assert_eq!(error.to_string(), "example.in:2:3: case 1: expected C (an integer from 1 to 3), found `4`");
//! # Ok::<(), ludus_framework::input::InputError>(())
//! ```

pub use crate::error::{shorten, shorten_to, InputError};
use std::cell::Cell;
use std::fmt;
use std::str::FromStr;

/// A named text: the input of a plugin.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The file name shown in errors (`-` or `<stdin>` for standard input).
    pub name: &'a str,
    /// The whole text.
    pub text: &'a str,
}

impl<'a> Source<'a> {
    /// A source named `name` holding `text`. A leading UTF-8 byte-order mark is skipped: it is not part of
    /// the content, and places are counted from what follows it.
    pub fn new(name: &'a str, text: &'a str) -> Self {
        Source { name, text: text.strip_prefix('\u{feff}').unwrap_or(text) }
    }
}

/// A token with its place in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// The token's text.
    pub text: &'a str,
    /// Byte offset in the source.
    pub offset: usize,
}

impl<'a> Token<'a> {
    /// The whitespace-separated fields of this token (for example the words of a line), each with its own
    /// offset in the source.
    pub fn fields(&self) -> impl Iterator<Item = Token<'a>> + 'a {
        let (text, base) = (self.text, self.offset);
        text.split(char::is_whitespace)
            .filter(|field| !field.is_empty())
            // A field is a subslice of `text`: its distance from the start is its offset within the token.
            .map(move |field| Token { text: field, offset: base + (field.as_ptr() as usize - text.as_ptr() as usize) })
    }
}

/// A tokenizer over a [`Source`] that reports places in its errors.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    source: Source<'a>,
    offset: usize,
    context: String,
    /// The last place converted to a line: (byte offset, line at that offset, offset of that line's start).
    /// Places are mostly asked for in increasing order, so counting lines from here keeps it linear overall.
    line_cache: Cell<(usize, usize, usize)>,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `source`.
    pub fn new(source: &Source<'a>) -> Self {
        Reader { source: *source, offset: 0, context: String::new(), line_cache: Cell::new((0, 1, 0)) }
    }

    /// Sets the context shown in errors (for example `case 3`); empty for none.
    pub fn set_context(&mut self, context: impl Into<String>) {
        self.context = context.into();
    }

    /// The current context.
    pub fn context(&self) -> &str {
        &self.context
    }

    /// The source being read.
    pub fn source(&self) -> Source<'a> {
        self.source
    }

    /// 1-based line and column of a byte offset.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let bytes = self.source.text.as_bytes();
        let offset = offset.min(bytes.len());
        let (mut from, mut line, mut line_start) = self.line_cache.get();
        if offset < from {
            (from, line, line_start) = (0, 1, 0);
        }
        for (index, &byte) in bytes[from..offset].iter().enumerate() {
            if byte == b'\n' {
                line += 1;
                line_start = from + index + 1;
            }
        }
        self.line_cache.set((offset, line, line_start));
        let column = self.source.text.get(line_start..offset).map_or(offset - line_start, |s| s.chars().count()) + 1;
        (line, column)
    }

    /// The place of a byte offset as `file:line:column`, followed by the context if there is one.
    pub fn place(&self, offset: usize) -> String {
        let (line, column) = self.line_column(offset);
        if self.context.is_empty() {
            format!("{}:{line}:{column}", self.source.name)
        } else {
            format!("{}:{line}:{column}, {}", self.source.name, self.context)
        }
    }

    /// An error at byte `offset` with `message`.
    pub fn error_at(&self, offset: usize, message: impl Into<String>) -> InputError {
        let (line, column) = self.line_column(offset);
        InputError {
            file: self.source.name.to_string(),
            line,
            column,
            context: self.context.clone(),
            message: message.into(),
        }
    }

    /// An "expected X, found Y" error at `token`.
    pub fn expected(&self, token: Token<'_>, expected: &str) -> InputError {
        self.error_at(token.offset, format!("expected {expected}, found `{}`", shorten(token.text)))
    }

    fn skip_whitespace(&mut self) {
        let bytes = self.source.text.as_bytes();
        while self.offset < bytes.len() && bytes[self.offset].is_ascii_whitespace() {
            self.offset += 1;
        }
    }

    /// The next whitespace-separated token, or an "expected `what`, found the end of the input" error.
    pub fn token(&mut self, what: &str) -> Result<Token<'a>, InputError> {
        self.skip_whitespace();
        let bytes = self.source.text.as_bytes();
        let start = self.offset;
        if start >= bytes.len() {
            return Err(self.error_at(start, format!("expected {what}, found the end of the input")));
        }
        while self.offset < bytes.len() && !bytes[self.offset].is_ascii_whitespace() {
            self.offset += 1;
        }
        let text = self.source.text.get(start..self.offset).unwrap_or("");
        Ok(Token { text, offset: start })
    }

    /// The next token parsed as an integer in `min..=max`.
    pub fn number<Number>(&mut self, what: &str, min: Number, max: Number) -> Result<Number, InputError>
    where
        Number: FromStr + PartialOrd + fmt::Display + Copy,
    {
        let token = self.token(what)?;
        match token.text.parse::<Number>() {
            Ok(value) if value >= min && value <= max => Ok(value),
            _ => Err(self.expected(token, &format!("{what} (an integer from {min} to {max})"))),
        }
    }

    /// The next token as an integer from `min` to `limit`, where `limit` protects memory or time: a malformed
    /// number or one below `min` is an input error; one above `limit` is an [`crate::Error::Limit`] that names
    /// the place (file, line, column, context) and carries `hint` (for example "the official limit").
    pub fn bounded(&mut self, what: &str, min: u64, limit: u64, hint: &str) -> crate::Result<u64> {
        let token = self.token(what)?;
        match token.text.parse::<u64>() {
            Ok(value) if value > limit => {
                let what = format!("{what} at {}", self.place(token.offset));
                Err(if hint.is_empty() {
                    crate::Error::limit(what, value, limit)
                } else {
                    crate::Error::limit_lifted(what, value, limit, vec![crate::error::Remedy::Advice(hint.to_string())])
                })
            }
            Ok(value) if value >= min => Ok(value),
            _ => Err(self.expected(token, &format!("{what} (an integer from {min} to {limit})")).into()),
        }
    }

    /// [`Reader::number`] together with the token's byte offset (for errors about the value found there later,
    /// such as a repeated tile).
    pub fn number_at<Number>(&mut self, what: &str, min: Number, max: Number) -> Result<(Number, usize), InputError>
    where
        Number: FromStr + PartialOrd + fmt::Display + Copy,
    {
        self.skip_whitespace();
        let offset = self.offset;
        Ok((self.number(what, min, max)?, offset))
    }

    /// The next non-empty line, trimmed, as a token (for grid rows). Skips blank lines.
    pub fn line(&mut self, what: &str) -> Result<Token<'a>, InputError> {
        self.skip_whitespace();
        let bytes = self.source.text.as_bytes();
        let start = self.offset;
        if start >= bytes.len() {
            return Err(self.error_at(start, format!("expected {what}, found the end of the input")));
        }
        while self.offset < bytes.len() && bytes[self.offset] != b'\n' {
            self.offset += 1;
        }
        let text = self.source.text.get(start..self.offset).unwrap_or("").trim_end();
        Ok(Token { text, offset: start })
    }

    /// Whether only whitespace is left.
    pub fn at_end(&mut self) -> bool {
        self.skip_whitespace();
        self.offset >= self.source.text.len()
    }

    /// Fails if anything but whitespace is left.
    pub fn finish(&mut self) -> Result<(), InputError> {
        self.context.clear();
        if self.at_end() {
            Ok(())
        } else {
            let token = self.token("")?;
            Err(self.error_at(token.offset, format!("expected the end of the input, found `{}`", shorten(token.text))))
        }
    }

    /// The current byte offset.
    pub fn offset(&self) -> usize {
        self.offset
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn fields_keep_their_offsets_in_the_source() {
        let line = Token { text: "size  7\t6", offset: 10 };
        let fields: Vec<(usize, &str)> = line.fields().map(|field| (field.offset, field.text)).collect();
        assert_eq!(fields, [(10, "size"), (16, "7"), (18, "6")]);
        assert_eq!(shorten("abcdefghijklmnopqrstuvwxyz"), "abcdefghijklmnopqrstuvwx...");
        assert_eq!(shorten("a\0b\u{feff}\n"), "a\\u{0}b\\u{feff}\\u{a}");
        // A byte-order mark is skipped, so the first token starts at column 1.
        let source = Source::new("bom.in", "\u{feff}x\n");
        let error = Reader::new(&source).number::<u32>("T", 1, 9).unwrap_err();
        assert_eq!(error.to_string(), "bom.in:1:1: expected T (an integer from 1 to 9), found `x`");
    }
    use super::*;

    #[test]
    fn reports_line_and_column_of_bad_tokens() {
        let source = Source::new("in.txt", "3\n  x 5\n");
        let mut reader = Reader::new(&source);
        assert_eq!(reader.number::<u8>("T", 1, 5), Ok(3));
        let error = reader.number::<u8>("N", 1, 5).unwrap_err();
        assert_eq!((error.line, error.column), (2, 3));
        assert!(error.to_string().contains("expected N (an integer from 1 to 5), found `x`"));
    }

    #[test]
    fn truncated_input_names_what_was_expected() {
        let source = Source::new("in.txt", "1\n");
        let mut reader = Reader::new(&source);
        reader.set_context("case 1");
        assert_eq!(reader.number::<u8>("T", 1, 5), Ok(1));
        let error = reader.token("R").unwrap_err();
        assert_eq!(error.to_string(), "in.txt:2:1: case 1: expected R, found the end of the input");
    }

    #[test]
    fn limits_are_limit_errors_with_their_place() {
        let source = Source::new("in.txt", "5\n\n  70000 0");
        let mut reader = Reader::new(&source);
        assert_eq!(reader.bounded("T", 1, 100, "").ok(), Some(5));
        reader.set_context("case 1");
        let error = reader.bounded("N", 1, 60_000, "the official limit").unwrap_err();
        assert_eq!(
            error.to_string(),
            "N at in.txt:3:3, case 1 is 70000, above the limit of 60000 (the official limit)"
        );
        let error = reader.bounded("C", 1, 9, "").unwrap_err();
        assert_eq!(error.to_string(), "in.txt:3:9: case 1: expected C (an integer from 1 to 9), found `0`");
        // Places asked for out of order are still right.
        assert_eq!(reader.line_column(0), (1, 1));
        assert_eq!(reader.line_column(9), (3, 7));
    }

    #[test]
    fn lines_and_trailing_garbage() {
        let source = Source::new("in", "\n.#.\n..#  \nextra");
        let mut reader = Reader::new(&source);
        assert_eq!(reader.line("row").map(|t| t.text), Ok(".#."));
        assert_eq!(reader.line("row").map(|t| t.text), Ok("..#"));
        let error = reader.finish().unwrap_err();
        assert_eq!(error.line, 4);
    }

    #[test]
    fn out_of_range_and_overflowing_numbers_are_errors() {
        let source = Source::new("in", "0 99999999999999999999 -1");
        let mut reader = Reader::new(&source);
        assert!(reader.number::<u32>("a", 1, 10).is_err());
        assert!(reader.number::<u64>("b", 0, u64::MAX).is_err());
        assert!(reader.number::<u32>("c", 0, 10).is_err());
    }
}
