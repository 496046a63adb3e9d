//! The 8 symmetries of a square board of `n x n` cells (`n <= 5`), acting on masks of cells (bit
//! `row * n + column`, row 0 at the bottom), shared by Quixo and Teeko. A mask is carried through a symmetry
//! a byte at a time by tables, since canonical keys are computed for every child in a solve.

use crate::combinations::cells;

/// The bytes of a 25-cell mask.
const CHUNKS: usize = 4;

/// The symmetries of an `n x n` board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetries {
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
        Symmetries { images, tables }
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
        (0..8)
            .map(|index| u64::from(self.image(first, index)) << shift | u64::from(self.image(second, index)))
            .min()
            .unwrap_or(0)
    }
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
}
