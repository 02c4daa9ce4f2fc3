package org.dbdf.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.dbdf.DbdfException;

/**
 * The .dbdf files of one load path as a table for batch reads. Writes go through
 * {@link DbdfDataSource#createRelation}, which gives df.write all four save modes. The files are listed and the
 * first header read when the table is first read, not when it is made: Spark also makes one for every write, whose
 * path need not exist.
 */
final class DbdfTable implements SupportsRead {
    private final String path;
    private final StructType givenSchema;
    private final ReadOptions options;
    private final SerializableConfiguration configuration;
    private List<FileStatus> files;
    private TableShape shape;

    private DbdfTable(String path, StructType givenSchema, ReadOptions options,
            SerializableConfiguration configuration) {
        this.path = path;
        this.givenSchema = givenSchema;
        this.options = options;
        this.configuration = configuration;
    }

    /** The table of the options' path; {@code givenSchema} (null if none) is what Spark or the user passes in. */
    static DbdfTable open(Map<String, String> options, StructType givenSchema) {
        Configuration hadoop = new Configuration(DbdfDataSource.session().sparkContext().hadoopConfiguration());
        return new DbdfTable(pathOption(options), givenSchema, ReadOptions.parse(options),
                new SerializableConfiguration(hadoop));
    }

    static String pathOption(Map<String, String> options) {
        String path = null;
        for (Map.Entry<String, String> entry : options.entrySet()) {
            if (entry.getKey().equalsIgnoreCase("paths") && !entry.getValue().equals("[]")) {
                throw new IllegalArgumentException("dbdf: load one path (a file, a directory or a glob), not several");
            }
            if (entry.getKey().equalsIgnoreCase("path")) {
                path = entry.getValue();
            }
        }
        if (path == null) {
            throw new IllegalArgumentException("dbdf: no path given (load(path) or save(path))");
        }
        return path;
    }

    /** Lists the files and reads the first one's header, once. */
    private synchronized void resolve() {
        if (shape != null) {
            return;
        }
        List<FileStatus> listed = HadoopFiles.list(path, configuration.get());
        FileStatus first = listed.get(0);
        String firstPath = first.getPath().toString();
        try (HadoopFiles.OpenReader open = HadoopFiles.open(firstPath, first.getLen(), configuration.get(),
                options.readerOptions())) {
            TableShape found = TableShape.of(open.reader(), options, firstPath);
            if (givenSchema != null && !givenSchema.asNullable().equals(found.schema().asNullable())) {
                throw new IllegalArgumentException("dbdf: the schema given, " + givenSchema.simpleString()
                        + ", is not that of " + firstPath + ": " + found.schema().simpleString());
            }
            files = listed;
            shape = found;
        } catch (DbdfException error) {
            throw HadoopFiles.invalid(firstPath, error);
        } catch (IOException error) {
            throw new UncheckedIOException("dbdf: cannot close " + firstPath, error);
        }
    }

    @Override
    public String name() {
        return "dbdf:" + path;
    }

    @Override
    @SuppressWarnings("deprecation")
    public StructType schema() {
        return shape().schema();
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap scanOptions) {
        return new DbdfScanBuilder(this);
    }

    List<FileStatus> files() {
        resolve();
        return files;
    }

    TableShape shape() {
        resolve();
        return shape;
    }

    ReadOptions options() {
        return options;
    }

    SerializableConfiguration configuration() {
        return configuration;
    }
}
