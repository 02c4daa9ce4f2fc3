package org.dbdf.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.sql.Row;
import org.dbdf.ValueType;
import org.dbdf.Writer;

/**
 * The task side of {@link FrameWriteJob}: writes the task's rows as one frame into the job's staging directory, under
 * a name unique to the task attempt, and returns "partition TAB path". A failing attempt deletes what it wrote
 * before the failure goes on; what it leaves behind on a crash stays in the staging directory, which the job
 * deletes. Nothing is visible in the target directory until the driver commits.
 */
final class PartitionFrameWriter implements Function2<Integer, Iterator<Row>, Iterator<String>> {
    private static final long serialVersionUID = 1L;

    private final SerializableConfiguration configuration;
    private final String stagingDir;
    private final ValueType[] types;
    private final String[] labels;
    private final int blockRows;

    PartitionFrameWriter(SerializableConfiguration configuration, String stagingDir, ValueType[] types,
            String[] labels, int blockRows) {
        this.configuration = configuration;
        this.stagingDir = stagingDir;
        this.types = types;
        this.labels = labels;
        this.blockRows = blockRows;
    }

    @Override
    public Iterator<String> call(Integer partition, Iterator<Row> rows) throws IOException {
        TaskContext task = TaskContext.get();
        long attempt = task == null ? 0 : task.taskAttemptId();
        Path target = new Path(stagingDir, String.format("part-%05d-attempt-%d.dbdf", partition, attempt));
        FileSystem fileSystem = target.getFileSystem(configuration.get());
        boolean written = false;
        // Created before the rows are consumed: a failure while they are computed leaves a file to clean up.
        FSDataOutputStream stream = fileSystem.createNonRecursive(target, false, 65536,
                fileSystem.getDefaultReplication(target), fileSystem.getDefaultBlockSize(target), null);
        try {
            ColumnBuffer[] columns = new ColumnBuffer[types.length];
            for (int column = 0; column < types.length; column++) {
                columns[column] = new ColumnBuffer(types[column], labels[column], column);
            }
            long rowNumber = 0;
            while (rows.hasNext()) {
                Row row = rows.next();
                for (ColumnBuffer column : columns) {
                    column.add(row, rowNumber);
                }
                rowNumber++;
            }
            writeFrame(stream, columns);
            stream.close();
            written = true;
        } finally {
            if (!written) {
                abort(fileSystem, stream, target);
            }
        }
        return List.of(partition + "\t" + target).iterator();
    }

    /** The frame in row bands of blockRows rows, one dense block per column and band. */
    private void writeFrame(FSDataOutputStream stream, ColumnBuffer[] columns) {
        int rowCount = columns[0].size();
        try (Writer writer = Writer.toStream(stream)) {
            writer.beginFrame(rowCount, types, labels);
            for (int first = 0; first < rowCount; first += blockRows) {
                int count = Math.min(blockRows, rowCount - first);
                for (int column = 0; column < columns.length; column++) {
                    columns[column].writeBlock(writer, first, count, column);
                }
            }
            writer.finish();
        }
    }

    private static void abort(FileSystem fileSystem, FSDataOutputStream stream, Path target) {
        try {
            stream.close();
        } catch (IOException | RuntimeException ignored) {
            // the file is deleted next; a close failure changes nothing about that
        }
        try {
            fileSystem.delete(target, false);
        } catch (IOException error) {
            throw new UncheckedIOException("dbdf: cannot delete the failed task's file " + target, error);
        }
    }
}
