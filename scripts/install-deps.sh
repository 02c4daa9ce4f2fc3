#!/usr/bin/env bash
# Installs what building and testing dbdf needs and is not on the machine yet. Safe to run repeatedly:
# it only calls apt-get when a package is missing.
set -euo pipefail

# Debian bookworm packages. Versions are those of bookworm (GoogleTest 1.12.1, Google Benchmark 1.7.1,
# CLI11 2.3.2, {fmt} 9.1.0, SWIG 4.1.0, mono 6.8, NUnit 2.6.4, clang, clang-format and libclang 14); CMake checks the
# minimum versions it needs.
packages=(
  build-essential cmake ninja-build pkg-config git
  libgtest-dev libbenchmark-dev libcli11-dev libfmt-dev nlohmann-json3-dev
  swig
  openjdk-17-jdk-headless maven
  mono-mcs mono-runtime libmono-system-core4.0-cil nunit-console
  clang clang-format libclang-dev libclang-rt-14-dev
)

# Python: a python3 managed by Debian (PEP 668) gets numpy, scipy, pandas and pytest from apt (bookworm: 1.24,
# 1.10, 1.5, 7.2); any other python3 (pyenv, a virtual environment) gets the pinned
# bindings/python/requirements-test.txt from PyPI below.
python_is_debian_managed() {
  python3 -c 'import os, sys, sysconfig
sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")) else 1)'
}
if ! command -v python3 >/dev/null 2>&1 || python_is_debian_managed; then
  packages+=(python3 python3-numpy python3-scipy python3-pandas python3-pytest)
fi

# Packaging of the Python binding: the consumer test (bindings/python/consumer/run.sh) makes a virtual environment,
# which Debian's python3 can only with python3-venv; pip fetches the pinned build backend (scikit-build-core, see
# bindings/python/pyproject.toml) itself. The Rust consumer test needs only cmake and a C++ compiler (above).
if ! command -v python3 >/dev/null 2>&1 || python_is_debian_managed; then
  packages+=(python3-venv)
fi

# Rust: the machine's rustup toolchain is used when present; Debian's cargo, rustc, clippy and rustfmt otherwise.
if ! command -v cargo >/dev/null 2>&1 && [[ -x "$HOME/.cargo/bin/cargo" ]]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi
if ! command -v cargo >/dev/null 2>&1; then
  packages+=(cargo rustc rust-clippy rustfmt)
fi

# Packaging: nuget packs and installs the C# NuGet package under mono (bookworm: 2.8.7); readelf and
# objdump (binutils, in build-essential) check the shipped libraries, unzip lists those inside the jar, the nupkg
# and the wheel (tests/packaging/native_sizes.sh).
packages+=(nuget unzip)

# --- Test command speed ---
# ccache (bookworm: 4.7.5): the compiler launcher of the Rust and Python consumer tests, which build the same libdbdf;
# the second one takes the first's objects from their shared cache (CMakeLists.txt, DBDF_CONSUMER_BUILD_ENVIRONMENT).
packages+=(ccache)
# --- end of test command speed ---

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq
  # dpkg without a sync per unpacked file (--force-unsafe-io): a fresh machine unpacks the JDK, mono and clang, tens of
  # thousands of files; a machine that crashes mid-install has to run this again in any case.
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    -o Dpkg::Options::=--force-unsafe-io "${missing[@]}"
fi

if command -v rustup >/dev/null 2>&1 && ! cargo clippy --version >/dev/null 2>&1; then
  rustup component add clippy >/dev/null 2>&1 || true
fi
if command -v rustup >/dev/null 2>&1 && ! cargo fmt --version >/dev/null 2>&1; then
  rustup component add rustfmt >/dev/null 2>&1 || true
fi

# Python outside Debian's management: the pinned test requirements of the Python package, installed only when one
# of them is missing or has another version.
python_requirements="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/bindings/python/requirements-test.txt"
if ! python_is_debian_managed && [[ -f "$python_requirements" ]]; then
  if ! python3 - "$python_requirements" <<'PYTHON'
import sys
from importlib import metadata
for line in open(sys.argv[1]):
    requirement = line.split("#")[0].strip()
    if requirement:
        name, version = requirement.split("==")
        name = name.split("[")[0]  # "dask[array,dataframe]": the extras are not part of the distribution's name
        try:
            if metadata.version(name) != version:
                sys.exit(1)
        except metadata.PackageNotFoundError:
            sys.exit(1)
PYTHON
  then
    echo "install-deps: installing the Python test requirements"
    python3 -m pip --version >/dev/null 2>&1 || python3 -m ensurepip --upgrade >/dev/null
    python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore -r "$python_requirements"
  fi
fi

# Packaging: every Maven plugin of the Java binding's pom (the jar, sources and javadoc plugins, and the install
# plugin that puts the jar into the local repository), resolved once into ~/.m2, so that the Java consumer test
# runs Maven offline. Skipped when the plugins the packaging added are there already (starting Maven is slow).
java_pom="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/bindings/java/pom.xml"
maven_plugins="$HOME/.m2/repository/org/apache/maven/plugins"
if command -v mvn >/dev/null 2>&1 && [[ -f "$java_pom" ]] &&
  ! [[ -d "$maven_plugins/maven-install-plugin/3.1.2" && -d "$maven_plugins/maven-source-plugin/3.3.1" &&
    -d "$maven_plugins/maven-javadoc-plugin/3.6.3" ]]; then
  echo "install-deps: resolving the Maven plugins of the Java binding"
  mvn -B -q -f "$java_pom" org.apache.maven.plugins:maven-dependency-plugin:3.6.1:resolve-plugins >/dev/null
fi

# Spark data source (bindings/spark): Spark 4.2.0 for Scala 2.13 with everything it depends on, resolved once into
# ~/.m2 (a few hundred MB, reused by every later build and test). Its Maven plugins are the Java binding's (above);
# org.dbdf:dbdf comes from the build. Keep the version in step with spark.version in bindings/spark/pom.xml.
spark_version=4.2.0
if command -v mvn >/dev/null 2>&1 &&
  ! [[ -f "$HOME/.m2/repository/org/apache/spark/spark-sql_2.13/$spark_version/spark-sql_2.13-$spark_version.jar" ]]; then
  echo "install-deps: resolving Spark $spark_version for the Spark data source"
  mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:get \
    -Dartifact="org.apache.spark:spark-sql_2.13:$spark_version" >/dev/null
fi

# --- PySpark (the test python_pyspark, the Spark demo step, bench/spark) ---
# pyspark from PyPI at exactly the Spark version the data source is built against (spark_version above; the
# package carries Spark's own jars, which must match the ones the module compiles with), and the py4j that
# version accepts (py4j>=0.10.9.7,<0.10.9.10). Installed only into a python3 outside Debian's management, like the
# Python test requirements (Debian has no pyspark); about 450 MB, once per machine. CMake registers the PySpark test
# and demo step only when the interpreter imports pyspark at this version.
pyspark_py4j_version=0.10.9.9
if ! python_is_debian_managed &&
  ! python3 - "$spark_version" "$pyspark_py4j_version" 2>/dev/null <<'PYTHON'
import sys
from importlib import metadata
sys.exit(0 if (metadata.version("pyspark"), metadata.version("py4j")) == (sys.argv[1], sys.argv[2]) else 1)
PYTHON
then
  install_pyspark() {
    python3 -m pip --version >/dev/null 2>&1 || python3 -m ensurepip --upgrade >/dev/null
    python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore \
      "pyspark==$spark_version" "py4j==$pyspark_py4j_version"
  }
  # The download is most of the cost (450 MB: minutes on a slow link, little CPU), so the test command has it run
  # in the background while it builds: with DBDF_PYSPARK_BACKGROUND_LOG set, the install goes on after this script
  # ends, writes its output to that file and, when done, its exit status to that file + ".status".
  if [[ -n ${DBDF_PYSPARK_BACKGROUND_LOG:-} ]]; then
    echo "install-deps: installing pyspark $spark_version in the background (log: $DBDF_PYSPARK_BACKGROUND_LOG)"
    : >"$DBDF_PYSPARK_BACKGROUND_LOG" # exists from now on: the waiter's sign that an install runs
    (
      status=0
      install_pyspark || status=$?
      echo "$status" >"$DBDF_PYSPARK_BACKGROUND_LOG.status"
    ) >"$DBDF_PYSPARK_BACKGROUND_LOG" 2>&1 </dev/null &
  else
    echo "install-deps: installing pyspark $spark_version"
    install_pyspark
  fi
fi
# --- end of PySpark ---
