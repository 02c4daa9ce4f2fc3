package org.dbdf.spark;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.dbdf.Block;
import org.dbdf.ValueType;

/**
 * Reads a frame or a dense matrix band by band: decodes the blocks of a band that hold a selected column (the others
 * are skipped unread), gathers each selected column into an array of the band's rows, and returns the rows.
 */
final class ColumnsPartitionReader extends BandPartitionReader {
    private final TableShape shape;
    /** Object column of each output field, -1 for the row index. */
    private final int[] outputColumns;
    private final boolean[] selected;

    private RowBand band;
    private Object[] columnValues;
    private int rowInBand = -1;

    ColumnsPartitionReader(HadoopFiles.OpenReader file, TableShape shape, int[] outputColumns,
            DbdfInputPartition partition) {
        super(file, partition);
        this.shape = shape;
        this.outputColumns = outputColumns;
        this.selected = new boolean[shape.columnTypes().length];
        for (int column : outputColumns) {
            if (column >= 0) {
                selected[column] = true;
            }
        }
    }

    @Override
    protected boolean advance() {
        while (band == null || rowInBand + 1 >= band.rows()) {
            if (!bands.hasNext()) {
                return false;
            }
            band = bands.next();
            rowInBand = -1;
            decodeBand();
        }
        rowInBand++;
        return true;
    }

    @Override
    public InternalRow get() {
        Object[] values = new Object[outputColumns.length];
        for (int field = 0; field < outputColumns.length; field++) {
            int column = outputColumns[field];
            values[field] = column < 0 ? band.firstRow() + rowInBand
                    : TypeMapping.sparkValue(shape.columnTypes()[column], columnValues[column], rowInBand);
        }
        return new GenericInternalRow(values);
    }

    private void decodeBand() {
        if (band.rows() > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("dbdf: cannot read " + file.path() + ": rows " + band.firstRow() + " to "
                    + band.endRow() + " form one band (no block boundary between them), more rows than one Java "
                    + "array holds");
        }
        int rows = (int) band.rows();
        columnValues = new Object[selected.length];
        for (int column = 0; column < selected.length; column++) {
            if (selected[column]) {
                columnValues[column] = TypeMapping.newArray(shape.columnTypes()[column], rows);
            }
        }
        for (int member = 0; member < band.blockCount(); member++) {
            int firstCol = Math.toIntExact(band.blockCols()[member]);
            int width = Math.toIntExact(band.blockWidths()[member]);
            if (!selectsAny(firstCol, width)) {
                continue; // column pruning: this block holds no selected column and is not read
            }
            Block block = file.reader().seekBlock(band.blockIndices()[member]);
            if (block.blockType() == org.dbdf.BlockType.EMPTY) {
                continue; // all zeros, as the new arrays are
            }
            int blockRows = Math.toIntExact(block.rows());
            int targetStart = Math.toIntExact(block.row() - band.firstRow());
            // A frame block spans columns of one value type; decode once per type among its selected columns.
            ValueType decodedType = null;
            Object decoded = null;
            for (int column = firstCol; column < firstCol + width; column++) {
                if (!selected[column]) {
                    continue;
                }
                ValueType type = shape.columnTypes()[column];
                if (type != decodedType) {
                    decoded = TypeMapping.newArray(type, Math.multiplyExact(blockRows, width));
                    BlockDecoding.decodeDense(block, type, decoded);
                    decodedType = type;
                }
                BlockDecoding.copyStrided(decoded, column - firstCol, width, columnValues[column], targetStart,
                        blockRows);
            }
        }
    }

    private boolean selectsAny(int firstCol, int width) {
        for (int column = firstCol; column < firstCol + width; column++) {
            if (selected[column]) {
                return true;
            }
        }
        return false;
    }
}
