#!/usr/bin/env bash
# Installs what p4hls needs to build and test, when it is missing: the C
# libraries of the solvers (Z3 and CBC, through apt-get), redis-server
# (the service's cache tests start one), protoc (for `make generate`
# only), the xdp target's C compiler and loader (clang-14 for the BPF
# target, bpftool, which its tests load an output with), Chromium (the
# stage map's browser test), Neovim (the editor server's real-client
# test) and Go modules (github.com/cilium/ebpf among them, which loads
# and runs XDP programs in the kernel). It
# never changes anything that is already there, so it is safe to run often.
set -euo pipefail

need=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
for pkg in libz3-dev coinor-libcbc-dev pkg-config redis-server protobuf-compiler clang-14 bpftool chromium neovim; do
	have_pkg "$pkg" || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
	echo "setup: installing ${need[*]}" >&2
	sudo=""
	[ "$(id -u)" -ne 0 ] && sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

if ! command -v go >/dev/null 2>&1; then
	echo "setup: Go is not installed; install Go 1.26 or newer first" >&2
	exit 1
fi
go mod download
