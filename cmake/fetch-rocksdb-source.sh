#!/usr/bin/env bash
# Fetches Debian's source package of the installed librocksdb-dev into DEST and
# unpacks the one internal header bloomgate compiles against
# (table/block_based/filter_policy_internal.h), the public headers, and the
# util/ and port/ headers the benchmarks' RocksDB AVX2 query needs. RocksDB's code is read at build
# time only; none of it is committed to bloomgate.
#
# The system's apt configuration is left untouched: the deb-src entries are
# derived from the system's own deb entries (same mirrors, same keys) and live,
# with their package lists and cache, in a private folder under DEST.
#
# Usage: fetch-rocksdb-source.sh DEST
set -euo pipefail

dest=$1
header=table/block_based/filter_policy_internal.h

version=$(dpkg-query -W -f='${Version}' librocksdb-dev 2>/dev/null) || {
  echo "librocksdb-dev is not installed (run tools/setup)" >&2
  exit 1
}
source_pkg=$(dpkg-query -W -f='${source:Package}' librocksdb-dev)

apt_dir=$dest/apt
mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial" "$apt_dir/cache" \
  "$dest/download"
: >"$apt_dir/sources.list"

# deb822 files: the same stanzas, as source entries.
for f in /etc/apt/sources.list.d/*.sources; do
  [[ -e "$f" ]] || continue
  sed -E 's/^Types:.*/Types: deb-src/' "$f" \
    >"$apt_dir/sources.list.d/$(basename "$f")"
done
# One-line files: every "deb" line again as "deb-src".
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
  [[ -e "$f" ]] || continue
  sed -nE 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >>"$apt_dir/sources.list"
done

apt_opts=(
  -o "Dir::Etc::SourceList=$apt_dir/sources.list"
  -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
  -o "Dir::State::Lists=$apt_dir/lists"
  -o "Dir::Cache=$apt_dir/cache"
  -o "APT::Sandbox::User=root"
)

echo "-- fetching Debian source package ${source_pkg}=${version}" >&2
apt-get -q "${apt_opts[@]}" update >&2
(cd "$dest/download" &&
  apt-get -q "${apt_opts[@]}" source --download-only "${source_pkg}=${version}" >&2)

shopt -s nullglob
tarballs=("$dest"/download/"${source_pkg}"_*.orig.tar.*)
if ((${#tarballs[@]} != 1)); then
  echo "expected one upstream tarball in $dest/download, found ${#tarballs[@]}" >&2
  exit 1
fi

mkdir -p "$dest/src"
# The headers of RocksDB's own Bloom query too (util/bloom_impl.h and what it
# includes), which the benchmarks compile with AVX2 (benchmarks/CMakeLists.txt).
tar -xf "${tarballs[0]}" -C "$dest/src" --strip-components=1 --wildcards \
  "*/$header" "*/include/*" "*/util/*.h" "*/port/*.h"
test -f "$dest/src/$header"
echo "$version" >"$dest/src/DEBIAN_VERSION"
