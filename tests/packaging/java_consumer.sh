#!/usr/bin/env bash
# The Java part of "Use dbdf in your project" (bindings/java/README.md), as a user does it, from an empty temporary
# folder: installs the jar (with its sources and javadoc jars) into the local Maven repository with one command,
# builds examples/java/consumer with plain `mvn package` and runs it with `java -cp`. Maven runs offline: the
# plugins were resolved into ~/.m2 by scripts/install-deps.sh and the binding's build.
# Usage: java_consumer.sh JAR CONSUMER_PROJECT_DIR
set -euo pipefail
jar=$1
consumer_source=$2
version=$(basename "$jar" .jar)
version=${version#dbdf-}
jar_dir=$(dirname "$jar")

# Shipped natives carry no debug sections: each is under 5 MB.
source "$(dirname "${BASH_SOURCE[0]}")/native_sizes.sh"
check_packed_natives "$jar" '^native/.*\\.so'

work=$(mktemp -d -t dbdf-java-consumer-XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -R "$consumer_source"/. "$work"
cd "$work"
# Maven is started twice for a few seconds of work each: a JVM that skips the optimising compiler starts
# faster (this changes nothing of what Maven does).
export MAVEN_OPTS="${MAVEN_OPTS:-} -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"

mvn -o -B -q org.apache.maven.plugins:maven-install-plugin:3.1.2:install-file -Dfile="$jar_dir/dbdf-$version.jar" \
  -Dsources="$jar_dir/dbdf-$version-sources.jar" -Djavadoc="$jar_dir/dbdf-$version-javadoc.jar"
installed="$HOME/.m2/repository/org/dbdf/dbdf/$version"
for artifact in "dbdf-$version.jar" "dbdf-$version.pom" "dbdf-$version-sources.jar" "dbdf-$version-javadoc.jar"; do
  [[ -f "$installed/$artifact" ]] || { echo "java_consumer: $installed/$artifact was not installed" >&2; exit 1; }
done

mvn -o -B -q package
output=$(java -cp "target/dbdf-consumer-1.0.jar:$installed/dbdf-$version.jar" org.example.ReadBack matrix.dbdf)
echo "$output"
grep -q "round trip ok" <<<"$output"
grep -q "missing file: java.nio.file.NoSuchFileException" <<<"$output"
