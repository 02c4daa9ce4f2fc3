//! Property tests: random matrices of every value type (floats from random bit patterns, so NaN payloads,
//! infinities and -0.0 included), random sparsity, random tile shapes and encodings, and random partitions into
//! blocks added in random order through every add call. Whatever is written reads back bit for bit.

mod common;

use std::collections::BTreeSet;

use common::{bits, dense_from_csr, Samples};
use dbdf::{BlockPlacement, BlockType, DataType, Encoding, Reader, ValueType, WriteOptions, Writer};
use proptest::prelude::*;

const ENCODINGS: [Encoding; 5] = [Encoding::Auto, Encoding::AsGiven, Encoding::Dense, Encoding::Csr, Encoding::Coo];

/// A matrix as random bits per cell, most of them zero.
#[derive(Debug, Clone)]
struct RandomMatrix {
    value_type: ValueType,
    rows: u32,
    cols: u32,
    cells: Vec<u64>,
}

impl RandomMatrix {
    fn values<T: Samples>(&self) -> Vec<T> {
        self.cells.iter().map(|&cell| T::from_random_bits(cell)).collect()
    }
}

fn random_matrix(max_side: u32) -> impl Strategy<Value = RandomMatrix> {
    (0..ValueType::ALL.len(), 0..=max_side, 0..=max_side, 0.0..1.0f64).prop_flat_map(
        |(type_index, rows, cols, density)| {
            let cells = (rows * cols) as usize;
            // Each cell keeps its random bits with probability `density`, else it is zero.
            proptest::collection::vec((any::<u64>(), 0.0..1.0f64), cells).prop_map(move |draws| RandomMatrix {
                value_type: ValueType::ALL[type_index],
                rows,
                cols,
                cells: draws.into_iter().map(|(bits, draw)| if draw < density { bits } else { 0 }).collect(),
            })
        },
    )
}

fn check_tiled_round_trip<T: Samples>(
    matrix: &RandomMatrix,
    tile_rows: u32,
    tile_cols: u32,
    encoding: Encoding,
) -> Result<(), TestCaseError> {
    let values = matrix.values::<T>();
    let (rows, cols) = (u64::from(matrix.rows), u64::from(matrix.cols));
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Dense, T::VALUE_TYPE, rows, cols).unwrap();
    let options = WriteOptions::new().encoding(encoding).block_shape(tile_rows, tile_cols);
    writer.write_dense(&values, 0, &options).unwrap();
    writer.finish().unwrap();

    let mut reader = Reader::from_bytes(writer.memory().unwrap()).unwrap();
    let blocks: Vec<_> = reader.blocks().collect::<dbdf::Result<_>>().unwrap();
    prop_assert_eq!(blocks.iter().map(|block| block.cells()).sum::<u64>(), rows * cols);
    for block in &blocks {
        prop_assert!(block.rows <= tile_rows && block.cols <= tile_cols, "{:?} exceeds the tile", block);
        let forced = match encoding {
            Encoding::AsGiven | Encoding::Dense => Some(BlockType::Dense),
            Encoding::Csr => Some(BlockType::Csr),
            Encoding::Coo => Some(BlockType::Coo),
            Encoding::Auto => None,
        };
        if let Some(block_type) = forced {
            prop_assert_eq!(block.block_type, block_type);
            prop_assert_eq!(block.value_type, Some(T::VALUE_TYPE));
        }
    }
    prop_assert_eq!(bits(&reader.read_dense::<T>().unwrap()), bits(&values));

    let non_zero = values.iter().filter(|value| value.bits() != 0).count() as u64;
    prop_assert_eq!(reader.count_entries().unwrap(), non_zero);
    let csr = reader.read_csr::<T>().unwrap();
    let from_csr = dense_from_csr(rows as usize, cols as usize, &csr.row_offsets, &csr.col_indices, &csr.values);
    prop_assert_eq!(bits(&from_csr), bits(&values));
    reader.validate().unwrap();
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn tiled_matrices_round_trip(
        matrix in random_matrix(24),
        tile_rows in 1u32..=9,
        tile_cols in 1u32..=9,
        encoding_index in 0..ENCODINGS.len(),
    ) {
        let encoding = ENCODINGS[encoding_index];
        with_value_type!(matrix.value_type, T => check_tiled_round_trip::<T>(&matrix, tile_rows, tile_cols, encoding))?;
    }
}

/// A partition of a matrix into a grid of blocks, each added by one of the add calls, in a random order.
#[derive(Debug, Clone)]
struct RandomPartition {
    matrix: RandomMatrix,
    row_cuts: Vec<u32>,
    col_cuts: Vec<u32>,
    /// Per block of the grid (row-major): which add call (0 dense, 1 CSR, 2 COO, 3 empty) and whether encoded
    /// automatically.
    calls: Vec<(usize, bool)>,
    order: Vec<usize>,
}

fn cuts(side: u32) -> impl Strategy<Value = Vec<u32>> {
    let inner = if side > 1 {
        proptest::collection::btree_set(1..side, 0..side as usize).boxed()
    } else {
        Just(BTreeSet::new()).boxed()
    };
    inner.prop_map(move |inner| std::iter::once(0).chain(inner).chain(std::iter::once(side)).collect())
}

fn random_partition() -> impl Strategy<Value = RandomPartition> {
    random_matrix(14)
        .prop_filter("blocks need cells", |matrix| matrix.rows > 0 && matrix.cols > 0)
        .prop_flat_map(|matrix| {
            let (rows, cols) = (matrix.rows, matrix.cols);
            (Just(matrix), cuts(rows), cuts(cols))
        })
        .prop_flat_map(|(matrix, row_cuts, col_cuts)| {
            let blocks = (row_cuts.len() - 1) * (col_cuts.len() - 1);
            let calls = proptest::collection::vec((0usize..4, any::<bool>()), blocks);
            let order = Just((0..blocks).collect::<Vec<_>>()).prop_shuffle();
            (Just(matrix), Just(row_cuts), Just(col_cuts), calls, order)
        })
        .prop_map(|(matrix, row_cuts, col_cuts, calls, order)| RandomPartition {
            matrix,
            row_cuts,
            col_cuts,
            calls,
            order,
        })
}

fn check_partition<T: Samples>(partition: &RandomPartition) -> Result<(), TestCaseError> {
    let cols = partition.matrix.cols as usize;
    let mut values = partition.matrix.values::<T>();
    let grid_cols = partition.col_cuts.len() - 1;
    let placement_of = |block: usize| {
        let (grid_row, grid_col) = (block / grid_cols, block % grid_cols);
        let (row, col) = (partition.row_cuts[grid_row], partition.col_cuts[grid_col]);
        BlockPlacement::new(
            u64::from(row),
            u64::from(col),
            partition.row_cuts[grid_row + 1] - row,
            partition.col_cuts[grid_col + 1] - col,
        )
    };
    // Blocks added as empty hold zeros.
    for (block, &(call, _)) in partition.calls.iter().enumerate() {
        if call == 3 {
            let placement = placement_of(block);
            for i in 0..placement.rows as usize {
                let start = (placement.row as usize + i) * cols + placement.col as usize;
                values[start..start + placement.cols as usize].fill(T::default());
            }
        }
    }

    let mut writer = Writer::in_memory().unwrap();
    let (rows, object_cols) = (u64::from(partition.matrix.rows), u64::from(partition.matrix.cols));
    writer.begin_matrix(DataType::Csr, T::VALUE_TYPE, rows, object_cols).unwrap();
    for &block in &partition.order {
        let placement = placement_of(block);
        let (call, automatic) = partition.calls[block];
        let options = WriteOptions::new().encoding(if automatic { Encoding::Auto } else { Encoding::AsGiven });
        let mut dense = Vec::new();
        let (mut row_offsets, mut row_indices, mut col_indices, mut entries) =
            (vec![0u64], Vec::new(), Vec::new(), Vec::new());
        for i in 0..placement.rows as usize {
            for j in 0..placement.cols as usize {
                let value = values[(placement.row as usize + i) * cols + placement.col as usize + j];
                dense.push(value);
                if value.bits() != 0 {
                    row_indices.push(i as u32);
                    col_indices.push(j as u32);
                    entries.push(value);
                }
            }
            row_offsets.push(entries.len() as u64);
        }
        match call {
            0 => writer.add_dense(placement, &dense, 0, &options),
            1 => writer.add_csr(placement, &row_offsets, &col_indices, &entries, &options),
            2 => writer.add_coo(placement, &row_indices, &col_indices, &entries, &options),
            _ => writer.add_empty(placement),
        }
        .unwrap();
    }
    writer.finish().unwrap();

    let mut reader = Reader::from_bytes(writer.memory().unwrap()).unwrap();
    let blocks: Vec<_> = reader.blocks().collect::<dbdf::Result<_>>().unwrap();
    prop_assert_eq!(blocks.len(), partition.order.len());
    for (stored, &block) in blocks.iter().zip(&partition.order) {
        let placement = placement_of(block);
        prop_assert_eq!(
            (stored.row, stored.col, stored.rows, stored.cols),
            (placement.row, placement.col, placement.rows, placement.cols)
        );
        let (call, automatic) = partition.calls[block];
        if !automatic || call == 3 {
            let expected = [BlockType::Dense, BlockType::Csr, BlockType::Coo, BlockType::Empty][call];
            prop_assert_eq!(stored.block_type, expected);
        }
    }
    prop_assert_eq!(bits(&reader.read_dense::<T>().unwrap()), bits(&values));
    reader.validate().unwrap();
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_partitions_in_random_order_round_trip(partition in random_partition()) {
        with_value_type!(partition.matrix.value_type, T => check_partition::<T>(&partition))?;
    }
}
