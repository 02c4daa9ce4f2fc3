package org.dbdf.spark;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;

/**
 * A Hadoop {@link Configuration} that travels with the read and write tasks to the executors, so that they open the
 * file systems (hdfs://, s3a://, ...) with the driver's settings. Configuration is Writable but not Serializable.
 */
final class SerializableConfiguration implements Serializable {
    private static final long serialVersionUID = 1L;

    private transient Configuration configuration;

    SerializableConfiguration(Configuration configuration) {
        this.configuration = configuration;
    }

    Configuration get() {
        return configuration;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        configuration.write(out);
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        // false: the executor's default resources must not override what the driver sent.
        configuration = new Configuration(false);
        configuration.readFields(in);
    }
}
