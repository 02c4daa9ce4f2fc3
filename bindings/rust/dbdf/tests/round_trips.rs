//! Objects written through the Rust writer and read back bit for bit: every value type with every block type,
//! frames, the tiling helpers, file, memory and callback writers, strided buffers, windows and the index.

mod common;

use common::{bits, dense_from_csr, scratch_dir, Samples};
use dbdf::{
    BlockPlacement, BlockType, DataType, Encoding, FrameColumn, Reader, Status, Value, ValueType, Window, WriteOptions,
    Writer,
};

const ROWS: u32 = 4;
const COLS: u32 = 6;

/// The four 2 x 3 quadrants of the 4 x 6 test object, with the block type each one is written as.
const QUADRANTS: [(BlockPlacement, BlockType); 4] = [
    (BlockPlacement { row: 0, col: 0, rows: 2, cols: 3 }, BlockType::Dense),
    (BlockPlacement { row: 0, col: 3, rows: 2, cols: 3 }, BlockType::Csr),
    (BlockPlacement { row: 2, col: 0, rows: 2, cols: 3 }, BlockType::Coo),
    (BlockPlacement { row: 2, col: 3, rows: 2, cols: 3 }, BlockType::Empty),
];

/// The 4 x 6 test matrix: the type's samples in the first three quadrants, zeros in the last (empty) one.
fn test_matrix<T: Samples>() -> Vec<T> {
    let samples = T::samples();
    let mut values = vec![T::default(); (ROWS * COLS) as usize];
    for (quadrant, (placement, block_type)) in QUADRANTS.iter().enumerate() {
        if *block_type == BlockType::Empty {
            continue;
        }
        for i in 0..placement.rows as usize {
            for j in 0..placement.cols as usize {
                let cell = (placement.row as usize + i) * COLS as usize + placement.col as usize + j;
                values[cell] = samples[(quadrant * 6 + i * 3 + j) % samples.len()];
            }
        }
    }
    values
}

fn quadrant_of<T: Value>(matrix: &[T], placement: &BlockPlacement) -> Vec<T> {
    let mut values = Vec::new();
    for i in 0..placement.rows as u64 {
        let start = ((placement.row + i) * u64::from(COLS) + placement.col) as usize;
        values.extend_from_slice(&matrix[start..start + placement.cols as usize]);
    }
    values
}

/// Block-local CSR arrays of a dense block, keeping every bit-non-zero value (and -0.0).
fn csr_of<T: Samples>(values: &[T], cols: usize) -> (Vec<u64>, Vec<u32>, Vec<T>) {
    let mut row_offsets = vec![0u64];
    let (mut col_indices, mut entries) = (Vec::new(), Vec::new());
    for row in values.chunks(cols) {
        for (col, value) in row.iter().enumerate() {
            if value.bits() != 0 {
                col_indices.push(col as u32);
                entries.push(*value);
            }
        }
        row_offsets.push(entries.len() as u64);
    }
    (row_offsets, col_indices, entries)
}

fn check_read_back<T: Samples>(bytes: &[u8], data_type: DataType, expected: &[T], what: &str) {
    let mut reader = Reader::from_bytes(bytes).unwrap();
    let info = reader.info().unwrap();
    assert_eq!((info.data_type, info.value_type), (data_type, Some(T::VALUE_TYPE)), "{what}");
    let mut blocks = 0;
    while let Some(mut block) = reader.next_block().unwrap() {
        let info = *block.info();
        let (placement, block_type) = QUADRANTS
            .iter()
            .find(|(placement, _)| placement.row == info.row && placement.col == info.col)
            .unwrap_or_else(|| panic!("{what}: unexpected block {info:?}"));
        assert_eq!(info.block_type, *block_type, "{what}: block {info:?}");
        let stored_type = if *block_type == BlockType::Empty { None } else { Some(T::VALUE_TYPE) };
        assert_eq!(info.value_type, stored_type, "{what}: stored type of {info:?}");
        let decoded: Vec<T> = block.decode_dense().unwrap();
        assert_eq!(bits(&decoded), bits(&quadrant_of(expected, placement)), "{what}: block {info:?}");
        blocks += 1;
    }
    assert_eq!(blocks, 4, "{what}");
    let all: Vec<T> = reader.read_dense().unwrap();
    assert_eq!(bits(&all), bits(expected), "{what}: whole object");
    reader.validate().unwrap();
}

/// Each quadrant through its own add call (dense, CSR, COO, empty), encoded as given.
fn write_with_each_add_call<T: Samples>(data_type: DataType) -> Vec<u8> {
    let matrix = test_matrix::<T>();
    let as_given = WriteOptions::new().encoding(Encoding::AsGiven);
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(data_type, T::VALUE_TYPE, u64::from(ROWS), u64::from(COLS)).unwrap();
    for (placement, block_type) in QUADRANTS.iter().rev() {
        let values = quadrant_of(&matrix, placement);
        let (row_offsets, col_indices, entries) = csr_of(&values, placement.cols as usize);
        match block_type {
            BlockType::Dense => writer.add_dense(*placement, &values, 0, &as_given).unwrap(),
            BlockType::Csr => writer.add_csr(*placement, &row_offsets, &col_indices, &entries, &as_given).unwrap(),
            BlockType::Coo => {
                let row_indices: Vec<u32> = (0..placement.rows)
                    .flat_map(|row| {
                        std::iter::repeat_n(row, (row_offsets[row as usize + 1] - row_offsets[row as usize]) as usize)
                    })
                    .collect();
                writer.add_coo(*placement, &row_indices, &col_indices, &entries, &as_given).unwrap()
            }
            BlockType::Empty => writer.add_empty(*placement).unwrap(),
        }
    }
    writer.finish().unwrap();
    writer.memory().unwrap().to_vec()
}

/// Every quadrant from dense values, the block type chosen by the encoding option.
fn write_with_encodings<T: Samples>(data_type: DataType) -> Vec<u8> {
    let matrix = test_matrix::<T>();
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(data_type, T::VALUE_TYPE, u64::from(ROWS), u64::from(COLS)).unwrap();
    for (placement, block_type) in QUADRANTS {
        let encoding = match block_type {
            BlockType::Dense => Encoding::Dense,
            BlockType::Csr => Encoding::Csr,
            BlockType::Coo => Encoding::Coo,
            // An all-zero block is stored empty by the automatic encoding.
            BlockType::Empty => Encoding::Auto,
        };
        // The dense values come from the whole matrix with its row stride.
        let start = (placement.row * u64::from(COLS) + placement.col) as usize;
        writer
            .add_dense(placement, &matrix[start..], u64::from(COLS), &WriteOptions::new().encoding(encoding))
            .unwrap();
    }
    writer.finish().unwrap();
    writer.memory().unwrap().to_vec()
}

#[test]
fn every_value_type_round_trips_through_every_block_type() {
    for value_type in ValueType::ALL {
        with_value_type!(value_type, T => {
            let expected = test_matrix::<T>();
            for data_type in [DataType::Dense, DataType::Csr] {
                let what = format!("{value_type} {data_type}");
                check_read_back(&write_with_each_add_call::<T>(data_type), data_type, &expected, &format!("{what} add calls"));
                check_read_back(&write_with_encodings::<T>(data_type), data_type, &expected, &format!("{what} encodings"));
            }
        });
    }
}

#[test]
fn block_decoding_as_csr_and_coo_and_into_strided_buffers() {
    let bytes = write_with_each_add_call::<i32>(DataType::Dense);
    let matrix = test_matrix::<i32>();
    let mut reader = Reader::from_bytes(&bytes).unwrap();
    while let Some(mut block) = reader.next_block().unwrap() {
        let info = *block.info();
        let placement = BlockPlacement::new(info.row, info.col, info.rows, info.cols);
        let expected = quadrant_of(&matrix, &placement);

        let csr = block.decode_csr::<i32>().unwrap();
        assert_eq!(dense_from_csr(2, 3, &csr.row_offsets, &csr.col_indices, &csr.values), expected);
        let coo = block.decode_coo::<i64>().unwrap();
        assert_eq!(coo.values.len() as u64, block.count_entries().unwrap());
        for ((row, col), value) in coo.row_indices.iter().zip(&coo.col_indices).zip(&coo.values) {
            assert_eq!(*value, i64::from(expected[*row as usize * 3 + *col as usize]));
        }

        // A row stride of 5 leaves the last two elements of every row untouched.
        let mut strided = vec![-99i32; 8];
        assert_eq!(block.dense_len(5), Some(8));
        block.decode_dense_into(&mut strided, 5).unwrap();
        assert_eq!(&strided[..3], &expected[..3]);
        assert_eq!(&strided[3..5], &[-99, -99]);
        assert_eq!(&strided[5..8], &expected[3..6]);
    }
}

#[test]
fn payload_is_the_stored_bytes() {
    let values: Vec<u16> = vec![1, 0x0203, 0xfffe, 4, 5, 6];
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Dense, ValueType::U16, 2, 3).unwrap();
    writer
        .add_dense(BlockPlacement::new(0, 0, 2, 3), &values, 0, &WriteOptions::new().encoding(Encoding::AsGiven))
        .unwrap();
    writer.finish().unwrap();
    let bytes = writer.memory().unwrap();
    let mut reader = Reader::from_bytes(bytes).unwrap();
    let block = reader.next_block().unwrap().unwrap();
    let expected: Vec<u8> = values.iter().flat_map(|value| value.to_le_bytes()).collect();
    let payload = block.payload().unwrap();
    assert_eq!(payload, expected.as_slice());
    // Zero-copy: the payload is the block's bytes inside the reader's input, which ends with this block.
    let input = bytes.as_ptr_range();
    assert!(input.contains(&payload.as_ptr()), "the payload points into the input");
    assert_eq!(payload.as_ptr_range().end, input.end);
}

#[test]
fn frames_round_trip_with_their_labels_and_column_types() {
    let ids: Vec<i64> = vec![i64::MIN, -1, 0, i64::MAX, 42];
    let prices: Vec<f64> = vec![0.5, -0.0, f64::from_bits(0x7ff8_0000_0000_00ff), 1e300, 0.0];
    let flags: Vec<u8> = vec![0, 1, 255, 0, 7];
    let label_with_nul: &[u8] = b"a\0b";
    let columns = [
        FrameColumn::new("id", ValueType::I64),
        FrameColumn::new("prix élevé", ValueType::F64),
        FrameColumn::from_bytes(label_with_nul, ValueType::U8),
        FrameColumn::new("", ValueType::I16),
    ];
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_frame(5, &columns).unwrap();
    let in_pairs = WriteOptions::new().block_shape(2, 0);
    writer.write_column(0, &ids, &in_pairs).unwrap();
    writer.write_column(1, &prices, &WriteOptions::new()).unwrap();
    writer.write_column(2, &flags, &in_pairs).unwrap();
    // Values of another type convert exactly into the column's type.
    writer.write_column(3, &[1i32, -2, 3, 32767, -32768], &WriteOptions::new()).unwrap();
    writer.finish().unwrap();

    let mut reader = Reader::from_bytes(writer.memory().unwrap()).unwrap();
    let info = reader.info().unwrap();
    assert_eq!((info.data_type, info.value_type, info.rows, info.cols), (DataType::Frame, None, 5, 4));
    for (column, expected) in columns.iter().enumerate() {
        assert_eq!(reader.column_type(column as u64).unwrap(), expected.value_type);
        assert_eq!(reader.column_label_bytes(column as u64).unwrap(), expected.label);
    }
    assert_eq!(reader.column_label(1).unwrap(), "prix élevé");
    assert_eq!(reader.column_label(2).unwrap(), "a\0b");
    assert_eq!(reader.read_column::<i64>(0).unwrap(), ids);
    assert_eq!(bits(&reader.read_column::<f64>(1).unwrap()), bits(&prices));
    assert_eq!(reader.read_column::<u8>(2).unwrap(), flags);
    assert_eq!(reader.read_column::<i16>(3).unwrap(), vec![1, -2, 3, 32767, -32768]);
    // Columns 0 and 2 in blocks of two rows: 3 blocks each.
    let column_0_blocks = reader.blocks().filter(|block| block.as_ref().unwrap().col == 0).count();
    assert_eq!(column_0_blocks, 3);
    reader.validate().unwrap();
}

#[test]
fn tiling_helpers_cut_the_matrix_into_the_requested_blocks() {
    let (rows, cols) = (5u64, 7u64);
    let values: Vec<f32> = (0..rows * cols).map(|cell| if cell % 4 == 0 { cell as f32 * 0.25 } else { 0.0 }).collect();
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Csr, ValueType::F32, rows, cols).unwrap();
    writer.write_dense(&values, 0, &WriteOptions::new().block_shape(2, 3)).unwrap();
    writer.finish().unwrap();
    let mut reader = Reader::from_bytes(writer.memory().unwrap()).unwrap();
    let blocks: Vec<_> = reader.blocks().collect::<dbdf::Result<_>>().unwrap();
    assert_eq!(blocks.len(), 9, "3 x 3 tiles of at most 2 x 3");
    assert!(blocks.iter().all(|block| block.rows <= 2 && block.cols <= 3));
    assert_eq!(blocks.iter().map(|block| block.cells()).sum::<u64>(), rows * cols);
    assert_eq!(reader.read_dense::<f32>().unwrap(), values);

    // The same matrix from object-wide CSR arrays.
    let csr = reader.read_csr::<f32>().unwrap();
    assert_eq!(csr.row_offsets.len(), rows as usize + 1);
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Csr, ValueType::F32, rows, cols).unwrap();
    let options = WriteOptions::new().block_shape(3, 4).encoding(Encoding::Coo);
    writer.write_csr(&csr.row_offsets, &csr.col_indices, &csr.values, &options).unwrap();
    writer.finish().unwrap();
    let mut reader = Reader::from_bytes(writer.memory().unwrap()).unwrap();
    let blocks: Vec<_> = reader.blocks().collect::<dbdf::Result<_>>().unwrap();
    assert_eq!(blocks.len(), 4);
    assert!(blocks.iter().all(|block| block.block_type == BlockType::Coo));
    assert_eq!(reader.read_dense::<f32>().unwrap(), values);

    // A window, and the whole matrix into a strided buffer.
    let window: Vec<f64> = reader.read_dense_window(Window::new(1, 2, 3, 4)).unwrap();
    for (i, row) in window.chunks(4).enumerate() {
        for (j, value) in row.iter().enumerate() {
            assert_eq!(*value, f64::from(values[(1 + i) * cols as usize + 2 + j]));
        }
    }
    let mut strided = vec![9.0f32; (rows * 8) as usize];
    reader.read_dense_into(&mut strided, 8).unwrap();
    for row in 0..rows as usize {
        assert_eq!(&strided[row * 8..row * 8 + 7], &values[row * 7..row * 7 + 7]);
        assert_eq!(strided[row * 8 + 7], 9.0, "untouched");
    }
}

#[test]
fn file_memory_and_callback_writers_produce_the_same_bytes() {
    let values: Vec<i16> = (0..60).map(|cell| if cell % 3 == 0 { cell - 30 } else { 0 }).collect();
    let write = |writer: &mut Writer<'_>| {
        writer.begin_matrix(DataType::Dense, ValueType::I16, 6, 10).unwrap();
        writer.write_dense(&values, 0, &WriteOptions::new().block_shape(4, 4)).unwrap();
        writer.finish().unwrap();
        writer.bytes_written().unwrap()
    };
    let mut in_memory = Writer::in_memory().unwrap();
    let written = write(&mut in_memory);
    let memory = in_memory.memory().unwrap().to_vec();
    assert_eq!(written, memory.len() as u64);
    let mut copy = vec![0u8; memory.len() + 3];
    assert_eq!(in_memory.copy_memory(&mut copy).unwrap(), memory.len());
    assert_eq!(&copy[..memory.len()], memory.as_slice());

    let mut through_callback = Vec::new();
    {
        let mut writer = Writer::to_sink(&mut through_callback).unwrap();
        assert_eq!(write(&mut writer), memory.len() as u64);
    }
    assert_eq!(through_callback, memory);

    let dir = scratch_dir("writers");
    let path = dir.join("matrix.dbdf");
    let mut to_file = Writer::create(&path).unwrap();
    write(&mut to_file);
    drop(to_file);
    assert_eq!(std::fs::read(&path).unwrap(), memory);
    assert_eq!(Reader::open(&path).unwrap().read_dense::<i16>().unwrap(), values);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_unfinished_file_writer_leaves_the_old_file_and_no_temporary_file() {
    let dir = scratch_dir("atomic");
    let path = dir.join("kept.dbdf");
    std::fs::write(&path, b"old contents").unwrap();
    {
        let mut writer = Writer::create(&path).unwrap();
        writer.begin_matrix(DataType::Dense, ValueType::U8, 1, 2).unwrap();
        writer.add_dense(BlockPlacement::new(0, 0, 1, 2), &[1u8, 2], 0, &WriteOptions::new()).unwrap();
        // Dropped without finish.
    }
    assert_eq!(std::fs::read(&path).unwrap(), b"old contents");
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("kept.dbdf")]);

    let mut writer = Writer::create(&path).unwrap();
    writer.begin_matrix(DataType::Dense, ValueType::U8, 1, 2).unwrap();
    writer.add_dense(BlockPlacement::new(0, 0, 1, 2), &[1u8, 2], 0, &WriteOptions::new()).unwrap();
    writer.finish().unwrap();
    assert_eq!(Reader::open(&path).unwrap().read_dense::<u8>().unwrap(), vec![1, 2]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_index_gives_random_access_to_blocks() {
    let values: Vec<u32> = (0..48).collect();
    let mut writer = Writer::in_memory().unwrap();
    writer.begin_matrix(DataType::Dense, ValueType::U32, 6, 8).unwrap();
    writer.write_dense(&values, 0, &WriteOptions::new().block_shape(3, 4)).unwrap();
    writer.finish().unwrap();
    let mut reader = Reader::from_bytes(writer.memory().unwrap()).unwrap();
    assert_eq!(reader.build_index().unwrap(), 4);
    let third = reader.index_entry(2).unwrap();
    let mut block = reader.seek_block(2).unwrap();
    assert_eq!(*block.info(), third);
    let decoded: Vec<u32> = block.decode_dense().unwrap();
    let expected: Vec<u32> =
        (0..3).flat_map(|i| (0..4).map(move |j| ((third.row + i) * 8 + third.col + j) as u32)).collect();
    assert_eq!(decoded, expected);
    assert_eq!(reader.next_block().unwrap().unwrap().info().index, 3);
    assert!(reader.next_block().unwrap().is_none());
    reader.rewind().unwrap();
    assert_eq!(reader.next_block().unwrap().unwrap().info().index, 0);
    assert_eq!(reader.current_block().unwrap().info().index, 0);
}

#[test]
fn names_versions_and_codes_come_from_the_library() {
    assert_eq!(dbdf::version(), dbdf::HEADER_VERSION);
    let number = dbdf::HEADER_VERSION;
    assert_eq!(dbdf::version_string(), format!("{}.{}.{}", number / 10000, number / 100 % 100, number % 100));
    let names: Vec<&str> = ValueType::ALL.iter().map(|value_type| value_type.name()).collect();
    assert_eq!(names, ["u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64"]);
    let sizes: Vec<usize> = ValueType::ALL.iter().map(|value_type| value_type.size()).collect();
    assert_eq!(sizes, [1, 2, 4, 8, 1, 2, 4, 8, 4, 8]);
    for value_type in ValueType::ALL {
        assert_eq!(value_type.name().parse::<ValueType>().unwrap(), value_type);
        assert_eq!(ValueType::from_code(value_type.code()), Some(value_type));
    }
    assert_eq!(ValueType::from_name("double").unwrap(), ValueType::F64);
    assert_eq!(ValueType::from_name("int16").unwrap(), ValueType::I16);
    assert_eq!(ValueType::from_code(0), None);
    assert_eq!(ValueType::from_code(11), None);
    assert_eq!([DataType::Dense.name(), DataType::Csr.name(), DataType::Frame.name()], ["dense", "csr", "frame"]);
    let block_names = [BlockType::Empty, BlockType::Dense, BlockType::Csr, BlockType::Coo].map(BlockType::name);
    assert_eq!(block_names, ["empty", "dense", "csr", "coo"]);
    let encodings =
        [Encoding::Auto, Encoding::AsGiven, Encoding::Dense, Encoding::Csr, Encoding::Coo].map(Encoding::name);
    assert_eq!(encodings, ["auto", "as-given", "dense", "csr", "coo"]);
    assert_eq!(Encoding::default(), Encoding::Auto);
}

#[test]
fn status_codes_map_both_ways() {
    let statuses = [
        (Status::InvalidArgument, -1, "invalid_argument"),
        (Status::CallOrder, -2, "call_order"),
        (Status::BufferTooSmall, -3, "buffer_too_small"),
        (Status::Io, -4, "io"),
        (Status::Truncated, -5, "truncated"),
        (Status::Format, -6, "format"),
        (Status::Range, -7, "range"),
        (Status::NoMem, -8, "nomem"),
        (Status::Unsupported, -9, "unsupported"),
        (Status::Internal, -10, "internal"),
        (Status::Sink, -11, "sink"),
    ];
    for (status, code, name) in statuses {
        assert_eq!(status.code(), code);
        assert_eq!(Status::from_code(code), status);
        assert_eq!(status.name(), name);
    }
    assert_eq!(Status::from_code(-99), Status::Unknown(-99));
    assert_eq!(Status::Unknown(-99).code(), -99);
    assert_eq!(Status::Unknown(-99).name(), "unknown");
}
