//! Nim as a two-player [`Game`] with a text form, for `ludus analyze` and `ludus play` (the Sprague-Grundy
//! engine treats Nim as a sum of heaps instead: [`super::Nim`]). A position is its heaps (`3,5,7`); a move takes
//! some counters from one heap, written `HEAP:TAKEN` (`2:4` takes 4 from the second heap). Whoever cannot move
//! loses. The key is the sorted heaps, so heaps in another order share their value.

use ludus_framework::playable::TextForm;
use ludus_framework::ParseError;
use ludus_framework::Rules;
use ludus_framework::{Canonicalize, Game, SearchHints, Value};

/// Nim on the heaps it starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NimGame {
    /// The start position.
    pub heaps: Vec<u32>,
}

impl Rules for NimGame {
    type Position = Vec<u32>;
    /// The heap (0-based) and the counters taken.
    type Move = (usize, u32);
    type Outcome = Value;

    fn moves(&self, heaps: &Vec<u32>, moves: &mut Vec<(usize, u32)>) {
        for (heap, &size) in heaps.iter().enumerate() {
            moves.extend((1..=size).map(|taken| (heap, taken)));
        }
    }

    fn play(&self, heaps: &Vec<u32>, &(heap, taken): &(usize, u32)) -> Vec<u32> {
        let mut next = heaps.clone();
        if let Some(size) = next.get_mut(heap) {
            *size = size.saturating_sub(taken);
        }
        next
    }

    fn outcome(&self, heaps: &Vec<u32>) -> Option<Value> {
        heaps.iter().all(|&size| size == 0).then_some(Value::LOST)
    }
}

impl Game for NimGame {}

impl SearchHints for NimGame {}

impl Canonicalize for NimGame {
    type Key = Vec<u32>;

    /// The nonempty heaps, sorted: the order of heaps and empty heaps do not change the value.
    fn canonical(&self, heaps: &Vec<u32>) -> Vec<u32> {
        let mut key: Vec<u32> = heaps.iter().copied().filter(|&size| size > 0).collect();
        key.sort_unstable();
        key
    }
}

impl TextForm for NimGame {
    fn start(&self) -> Vec<u32> {
        self.heaps.clone()
    }

    fn parse_position(&self, text: &str) -> Result<Vec<u32>, ParseError> {
        let heaps = text
            .split(',')
            .map(|heap| {
                heap.trim()
                    .parse::<u32>()
                    .map_err(|_| ParseError::expected("heap sizes like `3,5,7` (`3-5-7` as a parameter)", heap))
            })
            .collect::<Result<Vec<u32>, ParseError>>()?;
        // Exact remoteness searches every order of moves that matters: past this the search takes seconds.
        if heaps.len() > 5 || heaps.iter().any(|&size| size > 20) {
            return Err(ParseError::refused("at most 5 heaps of at most 20 counters"));
        }
        Ok(heaps)
    }

    fn draw_position(&self, heaps: &Vec<u32>) -> String {
        heaps
            .iter()
            .enumerate()
            .map(|(heap, &size)| format!("{}: {} ({size})\n", heap + 1, "|".repeat(size as usize)))
            .collect()
    }

    fn parse_move(&self, heaps: &Vec<u32>, text: &str) -> Result<(usize, u32), ParseError> {
        let (heap, taken) =
            text.trim().split_once(':').ok_or_else(|| ParseError::expected("`HEAP:TAKEN`, for example `2:4`", text))?;
        let heap: usize =
            heap.trim().parse().map_err(|_| ParseError::expected(format!("a heap from 1 to {}", heaps.len()), text))?;
        let size =
            heaps.get(heap.wrapping_sub(1)).ok_or_else(|| ParseError::refused(format!("there is no heap {heap}")))?;
        let taken: u32 = taken.trim().parse().map_err(|_| ParseError::expected("how many counters to take", text))?;
        if taken == 0 || taken > *size {
            return Err(ParseError::refused(format!("heap {heap} holds {size}: take from 1 to {size}")));
        }
        Ok((heap - 1, taken))
    }

    fn render_move(&self, _position: &Self::Position, &(heap, taken): &(usize, u32)) -> String {
        format!("{}:{taken}", heap + 1)
    }
}
