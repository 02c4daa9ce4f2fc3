package org.dbdf.spark;

import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SQLContext;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.BaseRelation;
import org.apache.spark.sql.sources.CreatableRelationProvider;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The data source {@code dbdf}: {@code spark.read.format("dbdf").load(path)} through Data Source V2 (partitions of
 * row bands, column pruning, Hadoop positioned reads) and {@code df.write.format("dbdf").save(dir)} with every save
 * mode. Writes go through {@link CreatableRelationProvider}: Spark offers the error and ignore modes to a
 * {@link TableProvider} only for tables in a catalog, so the table declares no batch write and Spark hands writes
 * here, where {@link FrameWriteJob} runs them with its commit protocol.
 */
public final class DbdfDataSource implements TableProvider, DataSourceRegister, CreatableRelationProvider {

    @Override
    public String shortName() {
        return "dbdf";
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        return DbdfTable.open(options, null).schema();
    }

    /** The schema is passed in (and not inferred) on writes, where the path need not exist yet. */
    @Override
    public boolean supportsExternalMetadata() {
        return true;
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        if (partitioning.length > 0) {
            throw new IllegalArgumentException("dbdf: partitioned tables are not supported (partitionBy)");
        }
        return DbdfTable.open(properties, schema);
    }

    @Override
    public BaseRelation createRelation(SQLContext sqlContext, SaveMode mode,
            scala.collection.immutable.Map<String, String> parameters, Dataset<Row> data) {
        Map<String, String> options = scala.jdk.javaapi.CollectionConverters.asJava(parameters);
        String path = DbdfTable.pathOption(options);
        StructType schema = data.schema();
        new FrameWriteJob(path, schema, options, sqlContext.sparkContext().hadoopConfiguration()).run(mode, data);
        return new BaseRelation() {
            @Override
            public SQLContext sqlContext() {
                return sqlContext;
            }

            @Override
            public StructType schema() {
                return schema;
            }
        };
    }

    static SparkSession session() {
        return SparkSession.active();
    }
}
