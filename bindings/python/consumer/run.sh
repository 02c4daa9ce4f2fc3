#!/usr/bin/env bash
# The "Use dbdf in your project" section of bindings/python/README.md, run as written from an empty temporary
# folder: a virtual environment, `pip install` of bindings/python (which builds libdbdf with CMake and bundles it),
# then consumer/program.py. It also checks what the section promises: the wheel's tag names a platform, the
# package loads the library bundled in it without any environment variable, and program.py's output.
# Usage: run.sh PYTHON REPOSITORY
set -euo pipefail
python=$1
repository=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/dbdf-python-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Nothing from the repository's own test setup may help the installed package find its library.
unset DBDF_LIBRARY PYTHONPATH DBDF_STAGED_PACKAGE
cp "$repository/bindings/python/consumer/program.py" "$work/"
cd "$work"
started=$SECONDS

"$python" -m venv venv
venv/bin/pip install --disable-pip-version-check --quiet "$repository/bindings/python"
installed=$SECONDS
venv/bin/python program.py | tee output.txt

grep -qx 'read back (3, 4) matrix of float64 with libdbdf [0-9]*\.[0-9]*\.[0-9]*' output.txt
grep -q '^missing file: io: .*no-such-file.dbdf' output.txt
venv/bin/python - <<'PYTHON'
import pathlib, sys
from importlib import metadata
import dbdf
package_dir = pathlib.Path(dbdf.__file__).resolve().parent
# The library loaded is the one the wheel bundled next to the package.
assert pathlib.Path(dbdf.library_path).resolve().parent == package_dir, (dbdf.library_path, package_dir)
assert metadata.version("dbdf") == dbdf.__version__ == dbdf.library_version(), metadata.version("dbdf")
assert (package_dir / "py.typed").is_file()
tags = [line.split(": ", 1)[1] for line in metadata.distribution("dbdf").read_text("WHEEL").splitlines()
        if line.startswith("Tag: ")]
assert tags and all(not tag.endswith("-any") for tag in tags), tags
print("wheel tags:", ", ".join(tags))
PYTHON
echo "python consumer: pip install took $((installed - started)) s, all steps $((SECONDS - started)) s"
