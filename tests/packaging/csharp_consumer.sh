#!/usr/bin/env bash
# The C# part of "Use dbdf in your project" (bindings/csharp/README.md), as a user does it, from an empty temporary
# folder: installs the NuGet package from a local folder feed with `nuget install`, compiles examples/csharp/consumer
# with mcs and runs it with mono, copying no file of the package by hand (Program.exe.config points the runtime at
# the package's lib/ folder; Dbdf.dll finds its natives in the package's runtimes/ folder by itself).
# Usage: csharp_consumer.sh NUPKG CONSUMER_PROJECT_DIR
set -euo pipefail
nupkg=$1
consumer_source=$2
version=$(basename "$nupkg" .nupkg)
version=${version#Dbdf.}

# Shipped natives carry no debug sections: each is under 5 MB.
source "$(dirname "${BASH_SOURCE[0]}")/native_sizes.sh"
check_packed_natives "$nupkg" '^runtimes/.*/native/'

work=$(mktemp -d -t dbdf-csharp-consumer-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/feed"
cp "$nupkg" "$work/feed/"
cp -R "$consumer_source"/. "$work/app"
cd "$work/app"

# nuget keeps its caches and configuration under HOME: a private one keeps the test from the user's.
export HOME="$work/home"
nuget install Dbdf -Version "$version" -Source "$work/feed" -OutputDirectory packages -NonInteractive -Verbosity quiet
mcs -nologo -r:"packages/Dbdf.$version/lib/net45/Dbdf.dll" -out:Program.exe Program.cs
output=$(mono Program.exe matrix.dbdf)
echo "$output"
grep -q "round trip ok" <<<"$output"
grep -q "missing file: System.IO.FileNotFoundException" <<<"$output"
