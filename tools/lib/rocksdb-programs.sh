# Helpers for scripts that drive RocksDB's own programs (db_bench, db_stress,
# ldb, sst_dump) built with bloomgate as a plugin. Sourced, not run.

# The path of RocksDB program $1 in the build tree $tree; exits if absent.
find_tool() {
  local path
  path=$(find "$tree" -maxdepth 3 -type f -name "$1" -perm -u+x | head -n 1)
  if [[ -z "$path" ]]; then
    echo "$(basename "$0"): no $1 in $tree" >&2
    exit 2
  fi
  echo "$path"
}

# An OPTIONS file: by default small buffers and levels, so that a few hundred
# thousand keys make a leveled tree RocksDB flushes and compacts itself; no
# compression (RocksDB built without compression libraries).
#   write_options <file> <filter_policy> [<block-based table lines>...]
# From the environment: WRITE_BUFFER, TARGET_FILE, LEVEL_BASE and L0_TRIGGER
# override the sizes (bytes) and the level-0 trigger; PREFIX=<n> adds a fixed
# prefix extractor, LISTENER=<name> a listener, CF_LINES="<option=value> ..."
# more column family options (each option once: RocksDB keeps the first).
write_options() {
  local file=$1 policy=$2
  shift 2
  {
    printf '[Version]\n  rocksdb_version=7.8.3\n  options_file_version=1.1\n\n'
    printf '[DBOptions]\n  create_if_missing=true\n  max_background_jobs=2\n'
    if [[ -n "${LISTENER:-}" ]]; then
      printf '  listeners={%s}\n' "$LISTENER"
    fi
    printf '\n'
    printf '[CFOptions "default"]\n'
    printf '  write_buffer_size=%s\n  target_file_size_base=%s\n' \
      "${WRITE_BUFFER:-262144}" "${TARGET_FILE:-262144}"
    printf '  max_bytes_for_level_base=%s\n  level0_file_num_compaction_trigger=%s\n' \
      "${LEVEL_BASE:-1048576}" "${L0_TRIGGER:-2}"
    printf '  compression=kNoCompression\n  bottommost_compression=kNoCompression\n'
    if [[ -n "${PREFIX:-}" ]]; then
      printf '  prefix_extractor=rocksdb.FixedPrefix.%s\n' "$PREFIX"
    fi
    local line
    for line in ${CF_LINES:-}; do printf '  %s\n' "$line"; done
    printf '\n[TableOptions/BlockBasedTable "default"]\n'
    printf '  filter_policy=%s\n' "$policy"
    for line in "$@"; do printf '  %s\n' "$line"; done
  } >"$file"
}

# The value of one ticker in db_bench's --statistics output.
ticker() {
  awk -v name="$1" '$1 == name && $2 == "COUNT" {print $4; found = 1}
                    END {if (!found) print 0}' "$2"
}

# Sums the filter block sizes and entries of a DB's SST files (sst_dump),
# and says whose filters they are: "<bits per key> <policy names>".
filter_memory() {
  "$sst_dump" --file="$1" --show_properties 2>/dev/null |
    awk -F': ' '/^ *# entries:/ {keys += $2}
                /^ *filter block size:/ {bytes += $2}
                /^ *filter policy name:/ {names[$2] = 1}
                END {n = ""; for (k in names) n = n (n ? "," : "") k;
                     printf "%.3f %s\n", keys ? 8 * bytes / keys : 0, n}'
}
