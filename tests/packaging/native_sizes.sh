# Sourced by the consumer tests. check_packed_natives ARCHIVE AWK_REGEX: every entry of the zip ARCHIVE (a jar, a
# nupkg) whose path matches AWK_REGEX is a native library shipped without debug sections, so under 5 MB; exits
# with a message naming the first that is not, or when no entry matches at all.
check_packed_natives() {
  local archive=$1 pattern=$2 size name found=0
  while read -r size name; do
    found=1
    if ((size >= 5 * 1024 * 1024)); then
      echo "$name in $archive weighs $size bytes: a shipped native library must stay under 5 MB" >&2
      exit 1
    fi
  done < <(unzip -Z -l "$archive" | awk -v pattern="$pattern" '$NF ~ pattern {print $4, $NF}')
  if ((!found)); then
    echo "$archive holds no native library matching $pattern" >&2
    exit 1
  fi
}
