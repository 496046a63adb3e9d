//! The bit tricks of Connect Four's bitboards, apart from the rules that use them: shifts that tolerate any
//! amount, the mirror of a board's columns, four in a row and the cells that would complete one. The line tests
//! take the shifts as parameters, so that boards whose shifts fit 64 bits take plain shifts and the others the
//! checked ones (see `ConnectFour::short_shifts`).

/// `value << amount`, 0 when the amount is 64 or more.
#[inline]
pub(super) fn shift_left(value: u64, amount: u32) -> u64 {
    value.checked_shl(amount).unwrap_or(0)
}

/// `value >> amount`, 0 when the amount is 64 or more.
#[inline]
pub(super) fn shift_right(value: u64, amount: u32) -> u64 {
    value.checked_shr(amount).unwrap_or(0)
}

/// `bits` of a board `WIDTH` columns wide, `stride` bits a column, with the order of its columns reversed.
#[inline(always)]
pub(super) fn flip_columns<const WIDTH: u32>(bits: u64, stride: u32) -> u64 {
    let column = shift_left(1, stride).wrapping_sub(1);
    let mut flipped = 0;
    for index in 0..WIDTH {
        // `W * (H + 1) <= 64`, so both shifts stay below 64 bits for a column that exists.
        flipped |= ((bits >> (index * stride)) & column) << ((WIDTH - 1 - index) * stride);
    }
    flipped
}

/// Whether `stones` hold four in a row on a board of `height` rows, with `right` as the right shift.
#[inline(always)]
pub(super) fn fours(stones: u64, height: u32, right: impl Fn(u64, u32) -> u64) -> bool {
    [1, height + 1, height, height + 2].into_iter().any(|direction| {
        let pairs = stones & right(stones, direction);
        pairs & right(pairs, 2 * direction) != 0
    })
}

/// The cells (empty or not, in or out of the board) that would complete four in a row with `stones` on a board
/// of `height` rows, with `left` and `right` as the shifts.
#[inline(always)]
pub(super) fn completions(
    stones: u64,
    height: u32,
    left: impl Fn(u64, u32) -> u64,
    right: impl Fn(u64, u32) -> u64,
) -> u64 {
    let mut cells = left(stones, 1) & left(stones, 2) & left(stones, 3);
    for direction in [height + 1, height, height + 2] {
        let below = left(stones, direction) & left(stones, 2 * direction);
        cells |= below & left(stones, 3 * direction);
        cells |= below & right(stones, direction);
        let above = right(stones, direction) & right(stones, 2 * direction);
        cells |= above & left(stones, direction);
        cells |= above & right(stones, 3 * direction);
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::super::board::{Board, ConnectFour};
    use ludus_framework::Rules;

    /// The cells where a stone of the owner of `stones` completes four, found cell by cell on the grid.
    fn completions_by_cells(game: &ConnectFour, stones: u64, mask: u64) -> u64 {
        let (width, height) = (game.width() as i32, game.height() as i32);
        let bit = |column: i32, row: i32| 1u64 << (column * (height + 1) + row);
        let owned = |column: i32, row: i32| {
            (0..width).contains(&column) && (0..height).contains(&row) && stones & bit(column, row) != 0
        };
        let mut cells = 0;
        for column in 0..width {
            for row in 0..height {
                if mask & bit(column, row) != 0 {
                    continue;
                }
                let completes = [(1, 0), (0, 1), (1, 1), (1, -1)].into_iter().any(|(step_column, step_row)| {
                    let run = |sign: i32| {
                        (1..4)
                            .take_while(|&steps| {
                                owned(column + sign * steps * step_column, row + sign * steps * step_row)
                            })
                            .count()
                    };
                    run(1) + run(-1) >= 3
                });
                if completes {
                    cells |= bit(column, row);
                }
            }
        }
        cells
    }

    #[test]
    fn winning_cells_agree_with_a_cell_by_cell_search() {
        // Boards whose shifts fit 64 bits (the fast path) and a tall one that takes the checked shifts.
        for (width, height) in [(7, 6), (4, 4), (9, 6), (3, 20), (2, 30)] {
            let game = ConnectFour::new(width, height).unwrap();
            assert_eq!(game.short_shifts, 3 * (height + 2) < 64);
            let mut seed = 0x9e37_79b9_7f4a_7c15_u64 ^ u64::from(width * 64 + height);
            for _ in 0..300 {
                let mut board = Board::EMPTY;
                loop {
                    for stones in [board.current, board.opponent()] {
                        assert_eq!(
                            game.winning_cells(stones, board.mask),
                            completions_by_cells(&game, stones, board.mask),
                            "{width} x {height}: {board:?}"
                        );
                    }
                    let mut moves = Vec::new();
                    game.moves(&board, &mut moves);
                    if moves.is_empty() || game.outcome(&board).is_some() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    board = game.play(&board, &moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
    }
}
