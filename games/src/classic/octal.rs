//! Nim, Kayles, Dawson's Kayles and Grundy's game as [`Impartial`] games over heaps / rows of pins.
//!
//! Published facts (asserted in tests): a Nim heap of n has nimber n; Kayles nimbers satisfy G(n) = G(n + 12)
//! for every n >= 71 (the last exception is n = 70); Dawson's Kayles, where a move removes two adjacent pins from
//! a row of n, satisfies G(n) = G(n + 34) for every n >= 53 (Berlekamp, Conway and Guy, *Winning Ways*, ch. 4).

use ludus_framework::Impartial;
use ludus_framework::ParseError;

/// Nim: a move takes any positive number of stones from one heap.
#[derive(Clone, Copy, Debug, Default)]
pub struct Nim;

impl Impartial for Nim {
    type Component = u32;
    type Key = u32;

    fn key(&self, heap: &u32) -> u32 {
        *heap
    }

    fn options(&self, heap: &u32, emit: &mut dyn FnMut(&[u32], u64)) {
        if *heap > 0 {
            emit(&[], 1);
        }
        for smaller in 1..*heap {
            emit(&[smaller], 1);
        }
    }
}

/// Emits every split of a row of `pins` after removing `removed` adjacent pins, merging mirror-image moves
/// (a row of 0 pins is dropped).
fn emit_splits(pins: u32, removed: u32, emit: &mut dyn FnMut(&[u32], u64)) {
    if pins < removed {
        return;
    }
    let rest = pins - removed;
    for left in 0..=rest / 2 {
        let right = rest - left;
        let count = if left == right { 1 } else { 2 };
        match (left, right) {
            (0, 0) => emit(&[], count),
            (0, part) | (part, 0) => emit(&[part], count),
            (left, right) => emit(&[left, right], count),
        }
    }
}

/// Kayles: a row of pins; a move knocks down one pin or two adjacent pins.
#[derive(Clone, Copy, Debug, Default)]
pub struct Kayles;

impl Impartial for Kayles {
    type Component = u32;
    type Key = u32;

    fn key(&self, pins: &u32) -> u32 {
        *pins
    }

    fn options(&self, pins: &u32, emit: &mut dyn FnMut(&[u32], u64)) {
        emit_splits(*pins, 1, emit);
        emit_splits(*pins, 2, emit);
    }
}

/// Dawson's Kayles: a row of pins; a move knocks down exactly two adjacent pins.
#[derive(Clone, Copy, Debug, Default)]
pub struct DawsonsKayles;

impl Impartial for DawsonsKayles {
    type Component = u32;
    type Key = u32;

    fn key(&self, pins: &u32) -> u32 {
        *pins
    }

    fn options(&self, pins: &u32, emit: &mut dyn FnMut(&[u32], u64)) {
        emit_splits(*pins, 2, emit);
    }
}

/// Grundy's game: a heap of n splits into two unequal non-empty heaps (OEIS A002188 lists its nimbers).
#[derive(Clone, Copy, Debug, Default)]
pub struct GrundysGame;

impl Impartial for GrundysGame {
    type Component = u32;
    type Key = u32;

    fn key(&self, heap: &u32) -> u32 {
        *heap
    }

    fn options(&self, heap: &u32, emit: &mut dyn FnMut(&[u32], u64)) {
        for smaller in 1..heap.div_ceil(2) {
            emit(&[smaller, heap - smaller], 1);
        }
    }
}

/// The longest octal code taken (digits after the point): removals of up to 32 tokens.
pub const MAX_OCTAL_DIGITS: usize = 32;

/// An octal game (Guy and Smith, 1956; *Winning Ways*, ch. 4), named by its code `0.d1d2d3...`: digit `dk`
/// says what removing `k` tokens from a heap may leave: bit 1 no heap (the heap had exactly `k`), bit 2 one
/// heap, bit 4 two non-empty heaps. Kayles is `0.77`, Dawson's Kayles `0.07`, and `0.333...` with `n` threes is
/// Nim on heaps of at most `n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OctalGame {
    /// The digits after the point: `digits[k - 1]` is `dk`.
    digits: Vec<u8>,
}

impl OctalGame {
    /// The game of `code` (`0.77`); `Err` says what is wrong with it.
    pub fn parse(code: &str) -> Result<OctalGame, String> {
        let quoted = ludus_framework::input::shorten(code);
        let Some(digits) = code.strip_prefix("0.").or_else(|| code.strip_prefix('.')) else {
            return Err(format!("an octal code is `0.` and digits 0 to 7, like `0.77`; found `{quoted}`"));
        };
        if digits.is_empty() || digits.len() > MAX_OCTAL_DIGITS {
            return Err(format!("an octal code has 1 to {MAX_OCTAL_DIGITS} digits after the point; found `{quoted}`"));
        }
        let digits: Vec<u8> = digits
            .bytes()
            .map(|byte| if (b'0'..=b'7').contains(&byte) { Ok(byte - b'0') } else { Err(()) })
            .collect::<Result<_, ()>>()
            .map_err(|()| format!("an octal code's digits are 0 to 7; found `{quoted}`"))?;
        if digits.iter().all(|&digit| digit == 0) {
            return Err(format!("the octal code `{quoted}` allows no move"));
        }
        Ok(OctalGame { digits })
    }

    /// The code, as `0.` and its digits.
    pub fn code(&self) -> String {
        let digits: String = self.digits.iter().map(|digit| char::from(b'0' + digit)).collect();
        format!("0.{digits}")
    }
}

impl Impartial for OctalGame {
    type Component = u32;
    type Key = u32;

    fn key(&self, heap: &u32) -> u32 {
        *heap
    }

    fn options(&self, heap: &u32, emit: &mut dyn FnMut(&[u32], u64)) {
        for (index, &digit) in self.digits.iter().enumerate() {
            let removed = index as u32 + 1;
            if *heap < removed {
                break;
            }
            let rest = heap - removed;
            if rest == 0 && digit & 1 != 0 {
                emit(&[], 1);
            }
            if rest > 0 && digit & 2 != 0 {
                emit(&[rest], 1);
            }
            if digit & 4 != 0 {
                // Two non-empty heaps, mirror images merged.
                for left in 1..=rest / 2 {
                    let right = rest - left;
                    emit(&[left, right], if left == right { 1 } else { 2 });
                }
            }
        }
    }
}

impl ludus_framework::playable::ImpartialText for OctalGame {
    fn start(&self) -> Vec<u32> {
        vec![10]
    }

    fn parse_component(&self, text: &str) -> Result<u32, ParseError> {
        match text.trim().parse::<u32>() {
            Ok(heap) if heap <= MAX_OCTAL_HEAP => Ok(heap),
            Ok(_) => Err(ParseError::refused(format!("a heap holds at most {MAX_OCTAL_HEAP} tokens"))),
            Err(_) => Err(ParseError::refused(format!(
                "expected a heap size like `10`, found `{}`",
                ludus_framework::input::shorten(text)
            ))),
        }
    }

    fn render_component(&self, heap: &u32) -> String {
        heap.to_string()
    }
}

/// Every component of an octal game is a heap of pins.
impl ludus_framework::playable::Heaps for OctalGame {
    fn heap(&self, heap: &u32) -> u32 {
        *heap
    }
}

/// The largest heap an octal game's position may hold: its nimber needs every smaller heap's, with up to
/// half as many splits each (about 10^8 options at this size).
pub const MAX_OCTAL_HEAP: u32 = 10_000;
