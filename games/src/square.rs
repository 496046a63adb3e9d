//! The 8 symmetries of a square board of `n x n` cells (`n <= 5`), acting on masks of cells (bit
//! `row * n + column`, row 0 at the bottom), shared by Quixo and Teeko. A mask is carried through a symmetry
//! a byte at a time by tables, since canonical keys are computed for every child in a solve; on the 4 x 4
//! board, whose rows are the nibbles of a 16-bit half, both masks of a pair go through each symmetry at once by
//! shifts and masks on one word (no lookup).

use crate::combinations::cells;

/// The bytes of a 25-cell mask.
const CHUNKS: usize = 4;

/// The symmetries of an `n x n` board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetries {
    /// The side of the board.
    size: u32,
    /// For each symmetry, the image of each cell.
    images: Vec<Vec<u32>>,
    /// For each symmetry and each byte of a mask, the image of every value of that byte.
    tables: Vec<[[u32; 256]; CHUNKS]>,
}

impl Symmetries {
    /// The symmetries of the `size x size` board (`size` from 1 to 5): rows and columns swapped or not, rows
    /// reversed or not, columns reversed or not.
    pub fn new(size: u32) -> Symmetries {
        let size = size.clamp(1, 5);
        let images: Vec<Vec<u32>> = (0..8u32)
            .map(|symmetry| {
                (0..size * size)
                    .map(|cell| {
                        let (mut row, mut column) = (cell / size, cell % size);
                        if symmetry & 1 != 0 {
                            (row, column) = (column, row);
                        }
                        if symmetry & 2 != 0 {
                            row = size - 1 - row;
                        }
                        if symmetry & 4 != 0 {
                            column = size - 1 - column;
                        }
                        row * size + column
                    })
                    .collect()
            })
            .collect();
        let tables = images
            .iter()
            .map(|image| {
                let mut table = [[0u32; 256]; CHUNKS];
                for (chunk, values) in table.iter_mut().enumerate() {
                    for (byte, out) in values.iter_mut().enumerate() {
                        *out = cells((byte as u32) << (8 * chunk))
                            .filter_map(|cell| image.get(cell as usize))
                            .fold(0, |mask, &to| mask | 1 << to);
                    }
                }
                table
            })
            .collect();
        Symmetries { size, images, tables }
    }

    /// `mask` under symmetry `index` (0..8; 0 is the identity).
    pub fn image(&self, mask: u32, index: usize) -> u32 {
        self.tables.get(index % 8).map_or(mask, |table| {
            table.iter().enumerate().fold(0, |out, (chunk, values)| out | values[(mask >> (8 * chunk)) as usize & 0xff])
        })
    }

    /// The image of `cell` under symmetry `index`.
    #[cfg(test)]
    fn cell_image(&self, cell: u32, index: usize) -> u32 {
        self.images.get(index % 8).and_then(|image| image.get(cell as usize)).copied().unwrap_or(cell)
    }

    /// The smallest `first << shift | second` over the 8 symmetries applied to both masks: the canonical key
    /// of a pair of masks of `shift` cells.
    pub fn smallest_pair(&self, first: u32, second: u32, shift: u32) -> u64 {
        if self.size == 4 && shift == 16 && (first | second) >> 16 == 0 {
            return u64::from(smallest_pair_of_four(first << 16 | second));
        }
        (0..8)
            .map(|index| u64::from(self.image(first, index)) << shift | u64::from(self.image(second, index)))
            .min()
            .unwrap_or(0)
    }
}

/// The smallest image of `pair` (two masks of the 4 x 4 board, one in each 16-bit half) over the 8 symmetries:
/// in each half a row is a nibble, so the rows reverse as the nibbles do, the columns as the bits of each nibble,
/// and the board transposes by two exchanges of bits (the cells one step off the diagonal within each 2 x 2
/// block, 3 bits apart, then the off-diagonal 2 x 2 blocks, 6 bits apart).
#[inline]
fn smallest_pair_of_four(pair: u32) -> u32 {
    let exchange = |word: u32, distance: u32, low: u32| {
        let swapped = (word ^ word >> distance) & low;
        word ^ swapped ^ swapped << distance
    };
    let rows_reversed = |word: u32| {
        // The two bytes of each half exchanged: the four bytes reversed, then the halves back in place.
        let word = word.swap_bytes().rotate_left(16);
        (word >> 4) & 0x0f0f_0f0f | (word & 0x0f0f_0f0f) << 4
    };
    let columns_reversed = |word: u32| {
        let word = (word >> 2) & 0x3333_3333 | (word & 0x3333_3333) << 2;
        (word >> 1) & 0x5555_5555 | (word & 0x5555_5555) << 1
    };
    let transposed = exchange(exchange(pair, 3, 0x0a0a_0a0a), 6, 0x00cc_00cc);
    let mut smallest = u32::MAX;
    for image in [pair, transposed] {
        let mirrored = columns_reversed(image);
        smallest = smallest.min(image).min(mirrored).min(rows_reversed(image)).min(rows_reversed(mirrored));
    }
    smallest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_carry_masks_as_the_cell_images_do() {
        for size in 1..=5 {
            let symmetries = Symmetries::new(size);
            let all = u32::MAX >> (32 - size * size);
            let mut seen = std::collections::HashSet::new();
            for index in 0..8 {
                for mask in [all, 0b1011 & all, 1 << (size * size - 1), all & 0x5a5_a5a5] {
                    let expected = cells(mask).fold(0, |out, cell| out | 1 << symmetries.cell_image(cell, index));
                    assert_eq!(symmetries.image(mask, index), expected);
                }
                assert_eq!(symmetries.image(all, index), all);
                seen.insert((0..size * size).map(|cell| symmetries.cell_image(cell, index)).collect::<Vec<_>>());
            }
            assert_eq!(seen.len(), if size == 1 { 1 } else { 8 });
        }
    }

    #[test]
    fn the_four_by_four_pairs_take_the_smallest_image_the_tables_give() {
        let symmetries = Symmetries::new(4);
        let by_tables = |first: u32, second: u32| {
            (0..8)
                .map(|index| {
                    u64::from(symmetries.image(first, index)) << 16 | u64::from(symmetries.image(second, index))
                })
                .min()
        };
        let mut word = 0x9e37_79b9u32;
        for _ in 0..20_000 {
            word ^= word << 13;
            word ^= word >> 17;
            word ^= word << 5;
            let (first, second) = (word >> 16, word & 0xffff & !(word >> 16));
            assert_eq!(Some(symmetries.smallest_pair(first, second, 16)), by_tables(first, second), "{word:#x}");
        }
    }
}
