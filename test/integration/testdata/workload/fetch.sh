#!/usr/bin/env bash
# Brings the real projects of the workload suite (pinned in the file pins beside this
# script) into .cache/workload/ at the repository root, git-ignored, and checks each
# against its pinned checksum; a mismatch removes what was fetched and fails. Run by
# .ci/run before the tests; safe to run again (what is there already is kept).
#
#   go   the module and the modules its tests need, into Go's module cache (go mod
#        download checks them against go.sum and the checksum database)
#   deb  apt-get download; unpacked with dpkg-deb -x into .cache/workload/deb/NAME@VERSION/
#   npm  npm pack; unpacked into .cache/workload/npm/NAME@VERSION/ (a / in NAME becomes +)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="$(cd "$here/../../../.." && pwd)/.cache/workload"
mkdir -p "$cache/deb" "$cache/npm"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# check FILE SUM: FILE's sha256 is SUM ("sha256:HEX"), else FILE is removed and the script fails.
check() {
  local got
  got="sha256:$(sha256sum "$1" | cut -d' ' -f1)"
  if [ "$got" != "$2" ]; then
    rm -f "$1"
    echo "fetch.sh: $(basename "$1") has $got, pinned $2" >&2
    exit 1
  fi
}

# unpacked DIR: DIR is complete (it is moved into place only once unpacked).
unpacked() { [ -d "$1" ]; }

updated=""
while read -r kind name version sum; do
  case "$kind" in
  "" | \#*) continue ;;
  go)
    got=$(go mod download -json "$name@$version" | sed -n 's/^[[:space:]]*"Sum": "\(.*\)",*$/\1/p')
    if [ "$got" != "$sum" ]; then
      echo "fetch.sh: $name@$version has $got, pinned $sum" >&2
      exit 1
    fi
    # The modules its own tests need: its go.mod and go.sum, downloaded outside the
    # read-only module cache.
    dir=$(go mod download -json "$name@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')
    mkdir -p "$tmp/gomod"
    cp "$dir/go.mod" "$dir/go.sum" "$tmp/gomod/"
    chmod u+w "$tmp/gomod/go.mod" "$tmp/gomod/go.sum"
    (cd "$tmp/gomod" && go mod download)
    ;;
  deb)
    dest="$cache/deb/$name@$version"
    unpacked "$dest" && continue
    deb="$cache/deb/${name}_${version}_all.deb"
    if [ ! -f "$deb" ]; then
      # apt-get download needs the package lists: update them once if it cannot find it.
      if ! (cd "$cache/deb" && apt-get download -qq "$name=$version" 2>/dev/null); then
        if [ -z "$updated" ]; then
          SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
          $SUDO apt-get update -qq
          updated=1
        fi
        (cd "$cache/deb" && apt-get download -qq "$name=$version")
      fi
    fi
    check "$deb" "$sum"
    rm -rf "$dest.tmp"
    dpkg-deb -x "$deb" "$dest.tmp"
    mv "$dest.tmp" "$dest"
    ;;
  npm)
    dest="$cache/npm/${name//\//+}@$version"
    unpacked "$dest" && continue
    tgz=$(cd "$tmp" && npm pack --silent "$name@$version")
    check "$tmp/$tgz" "$sum"
    rm -rf "$dest.tmp"
    mkdir -p "$dest.tmp"
    tar -xzf "$tmp/$tgz" -C "$dest.tmp"
    mv "$dest.tmp" "$dest"
    ;;
  *)
    echo "fetch.sh: unknown kind $kind in $here/pins" >&2
    exit 1
    ;;
  esac
done < "$here/pins"
