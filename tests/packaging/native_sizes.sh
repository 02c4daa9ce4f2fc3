# Sourced by the consumer tests and scripts/package.sh. Every native library dbdf ships is stripped of debug sections
# and must stay under 5 MB (native_size_limit bytes).
native_size_limit=$((5 * 1024 * 1024))

# list_packed_natives ARCHIVE AWK_REGEX: "size path" of every entry of the zip ARCHIVE (a jar, a nupkg, a wheel)
# whose path matches AWK_REGEX, one a line.
list_packed_natives() {
  local archive=$1 pattern=$2
  unzip -Z -l "$archive" | awk -v pattern="$pattern" '$NF ~ pattern {print $4, $NF}'
}

# check_packed_natives ARCHIVE AWK_REGEX: every entry of ARCHIVE matching AWK_REGEX is under the limit; exits with a
# message naming the first that is not, or when no entry matches at all.
check_packed_natives() {
  local archive=$1 pattern=$2 size name found=0
  while read -r size name; do
    found=1
    if ((size >= native_size_limit)); then
      echo "$name in $archive weighs $size bytes: a shipped native library must stay under 5 MB" >&2
      exit 1
    fi
  done < <(list_packed_natives "$archive" "$pattern")
  if ((!found)); then
    echo "$archive holds no native library matching $pattern" >&2
    exit 1
  fi
}
