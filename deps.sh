#!/bin/sh
# Install the Debian packages dlasim needs, if any is missing (run as root
# on a fresh machine; a no-op when everything is there).  Why each one is
# needed: docs/dependencies.md.  `sh deps.sh slurm` adds what `make
# test-slurm` needs (a one-node Slurm cluster, docs/sweeps.md).
set -e
PKGS="make gcc libc6-dev pkg-config libsimgrid-dev libltdl-dev libjemalloc-dev libxml2-dev time gnuplot-nox pajeng libprotobuf-c-dev protobuf-c-compiler parallel scdoc clang-14 libclang-rt-14-dev zzuf python3 python3-jsonschema"
[ "$1" = slurm ] && PKGS="$PKGS slurm-wlm munge"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps.sh: installing:$missing"
if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: run as root (or install these packages):$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends $missing
