package org.dbdf.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.dbdf.DbdfException;
import org.dbdf.PositionedSource;
import org.dbdf.Reader;
import org.dbdf.ReaderOptions;

/** Finding the .dbdf files a load path names, and opening readers over Hadoop's positioned reads. */
final class HadoopFiles {
    private HadoopFiles() {
    }

    /** An open reader together with the stream it reads and its path: closing closes both. */
    record OpenReader(Reader reader, FSDataInputStream stream, String path) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try {
                reader.close();
            } finally {
                stream.close();
            }
        }
    }

    /**
     * The files a load path names: the file itself, the .dbdf files directly inside a directory (names starting
     * with '_' or '.' are skipped, as Spark's file sources skip _SUCCESS and _temporary), or what a glob matches
     * (directories among the matches are listed the same way). Sorted by path, so that part files keep their order.
     */
    static List<FileStatus> list(String pathText, Configuration configuration) {
        Path path = new Path(pathText);
        try {
            FileSystem fileSystem = path.getFileSystem(configuration);
            FileStatus[] matches = fileSystem.globStatus(path);
            if (matches == null || matches.length == 0) {
                throw new IllegalArgumentException("dbdf: path does not exist: " + path);
            }
            List<FileStatus> files = new ArrayList<>();
            for (FileStatus match : matches) {
                if (match.isDirectory()) {
                    for (FileStatus child : fileSystem.listStatus(match.getPath())) {
                        String name = child.getPath().getName();
                        if (child.isFile() && name.endsWith(".dbdf") && !isHidden(name)) {
                            files.add(child);
                        }
                    }
                } else {
                    files.add(match);
                }
            }
            if (files.isEmpty()) {
                throw new IllegalArgumentException("dbdf: no .dbdf file at " + path
                        + " (a directory is read through the .dbdf files directly inside it)");
            }
            files.sort(Comparator.comparing(status -> status.getPath().toString()));
            return files;
        } catch (IOException error) {
            throw new UncheckedIOException("dbdf: cannot list " + path, error);
        }
    }

    static boolean isHidden(String name) {
        return name.startsWith("_") || name.startsWith(".");
    }

    /**
     * Opens a reader over the file as a byte source read at positions: the reader fetches the header, the block
     * headers and only the payloads it decodes. The positions are served by the stream's seek and read (a seek only
     * where the read does not start where the last one ended), not by FSDataInputStream's positioned reads: those
     * re-open the file on the local file system for every call (ChecksumFileSystem; a 1 GiB read of 1 MiB calls took
     * 2.5 s against 0.7 s) and set up a new block reader per call on HDFS, where the reader reads mostly forward,
     * as Spark's Parquet reader does with seek and read. The reader calls the source from the calling thread only,
     * and one stream serves one reader.
     */
    static OpenReader open(String pathText, long size, Configuration configuration, ReaderOptions options) {
        Path path = new Path(pathText);
        try {
            FSDataInputStream stream = path.getFileSystem(configuration).open(path);
            PositionedSource source = (position, buffer, offset, length) -> {
                if (stream.getPos() != position) {
                    stream.seek(position);
                }
                return stream.read(buffer, offset, length);
            };
            try {
                return new OpenReader(Reader.open(source, size, options), stream, pathText);
            } catch (DbdfException error) {
                stream.close();
                throw invalid(pathText, error);
            } catch (RuntimeException error) {
                stream.close();
                throw error;
            }
        } catch (IOException error) {
            throw new UncheckedIOException("dbdf: cannot open " + path, error);
        }
    }

    /**
     * A failure of the library on a file, with the file named in front of the library's own message (what, the
     * byte offset, the rule); the library's exception is the cause.
     */
    static IllegalStateException invalid(String path, DbdfException error) {
        return new IllegalStateException("dbdf: cannot read " + path + ": " + error.getMessage(), error);
    }
}
