package org.dbdf.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.types.StructType;

/**
 * {@code df.write.format("dbdf").save(dir)}: one frame per task, with a commit protocol in the manner of Hadoop's
 * file output committer.
 *
 * <ol>
 * <li>The save mode is applied as Spark's file sources do: error (the default) fails if {@code dir} exists, ignore
 * writes nothing then, overwrite deletes it first, append adds files next to those there.
 * <li>Each task attempt writes {@code dir/_temporary/<job>/part-NNNNN-attempt-A.dbdf} (hidden from readers by the
 * leading underscore) and deletes it if it fails.
 * <li>The driver takes, per partition, the one attempt Spark accepted (a losing speculative attempt's file is
 * ignored), moves it to {@code dir/part-NNNNN-<job>.dbdf}, deletes the staging directory and writes
 * {@code _SUCCESS}. If the job fails, the staging directory is deleted and nothing is moved.
 * </ol>
 *
 * Option {@code blockRows} (default 1048576) sets the rows of each block, and so the row bands a later read splits
 * the file into.
 */
final class FrameWriteJob {
    static final int DEFAULT_BLOCK_ROWS = 1 << 20;

    private final Path dir;
    private final StructType schema;
    private final int blockRows;
    private final Configuration configuration;

    FrameWriteJob(String path, StructType schema, Map<String, String> options, Configuration configuration) {
        this.dir = new Path(path);
        this.schema = schema;
        this.blockRows = blockRows(options);
        this.configuration = configuration;
    }

    void run(SaveMode mode, Dataset<Row> data) {
        // The schema is checked before the mode acts, so that a refused write never deletes the old output.
        String[] labels = schema.fieldNames();
        var types = WriteSchema.columnTypes(schema);
        try {
            FileSystem fileSystem = dir.getFileSystem(configuration);
            if (fileSystem.exists(dir)) {
                switch (mode) {
                    case ErrorIfExists -> throw new IllegalStateException("dbdf: path " + fileSystem.makeQualified(dir)
                            + " already exists: set mode 'overwrite' to replace it or 'append' to add to it");
                    case Ignore -> {
                        return;
                    }
                    case Overwrite -> fileSystem.delete(dir, true);
                    default -> { }
                }
            }
            String job = UUID.randomUUID().toString();
            Path temporary = new Path(dir, "_temporary");
            Path staging = new Path(temporary, job);
            fileSystem.mkdirs(staging);
            List<String> attempts;
            try {
                attempts = data.javaRDD()
                        .mapPartitionsWithIndex(new PartitionFrameWriter(new SerializableConfiguration(configuration),
                                staging.toString(), types, labels, blockRows), false)
                        .collect();
                for (String attempt : attempts) {
                    String[] parts = attempt.split("\t", 2);
                    Path committed = new Path(dir, String.format("part-%05d-%s.dbdf", Integer.parseInt(parts[0]), job));
                    if (!fileSystem.rename(new Path(parts[1]), committed)) {
                        throw new IOException("dbdf: cannot move " + parts[1] + " to " + committed);
                    }
                }
            } finally {
                fileSystem.delete(staging, true);
                deleteIfEmpty(fileSystem, temporary);
            }
            fileSystem.create(new Path(dir, "_SUCCESS"), true).close();
        } catch (IOException error) {
            throw new UncheckedIOException("dbdf: writing " + dir + " failed", error);
        }
    }

    private static void deleteIfEmpty(FileSystem fileSystem, Path directory) throws IOException {
        if (fileSystem.exists(directory) && fileSystem.listStatus(directory).length == 0) {
            fileSystem.delete(directory, false);
        }
    }

    private static int blockRows(Map<String, String> options) {
        for (Map.Entry<String, String> entry : options.entrySet()) {
            if (entry.getKey().equalsIgnoreCase("blockRows")) {
                try {
                    int rows = Integer.parseInt(entry.getValue().trim());
                    if (rows > 0) {
                        return rows;
                    }
                } catch (NumberFormatException invalid) {
                    // reported below
                }
                throw new IllegalArgumentException("dbdf: option blockRows must be a positive int, not '"
                        + entry.getValue() + "'");
            }
        }
        return DEFAULT_BLOCK_ROWS;
    }
}
