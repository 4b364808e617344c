#!/usr/bin/env bash
# Optional (make test never runs it): checks p4hls's Tofino outputs with
# p4c's own front and mid end, `p4test`, against Intel's TNA headers (p4c's
# backends/tofino/bf-p4c/p4include) and against p4hls's bundled tna.p4.
#
#   scripts/p4test.sh [TOFINO.p4...]
#
# With no arguments it compiles every corpus program for Tofino (those
# the target refuses are skipped) into .cache/p4test/out and checks each
# tofino.p4. It prints a line per failure and a count per header set, and
# exits 1 when any output fails.
#
# p4test is built once into .cache/p4test/build from a p4c source tree:
#   P4C_SRC    the tree (default: a clone of P4C_REPO at P4C_COMMIT into
#              .cache/p4test/p4c, which needs the network)
#   P4C_DEPS   a folder holding the sources of protobuf (v25.3), abseil
#              (20240722.1) and p4runtime (ec4eb5ef) as protobuf/, abseil/
#              and p4runtime/, for a machine without the network (p4c's
#              CMake fetches them otherwise)
# Debian packages it needs: cmake bison flex libfl-dev libboost-dev
# libboost-graph-dev libboost-iostreams-dev libgc-dev g++ (2 cores: about
# 45 minutes).
set -euo pipefail

P4C_REPO=${P4C_REPO:-https://github.com/p4lang/p4c.git}
P4C_COMMIT=${P4C_COMMIT:-34b86e9bac}
root=$(cd "$(dirname "$0")/.." && pwd)
cache="$root/.cache/p4test"
build="$cache/build"
p4test="$build/backends/p4test/p4test"

build_p4test() {
	local src=${P4C_SRC:-$cache/p4c}
	if [ ! -d "$src" ]; then
		git clone -q "$P4C_REPO" "$src"
		git -C "$src" checkout -q "$P4C_COMMIT"
	fi
	# GCC 12's std::erase_if hands the predicate a const element; p4c at
	# this commit takes it by non-const reference (newer compilers accept
	# that). The change only adds const.
	sed -i 's/\[this\](flow_join_points_t::value_type &el)/[this](const flow_join_points_t::value_type \&el)/' \
		"$src/ir/visitor.cpp"
	local deps=()
	if [ -n "${P4C_DEPS:-}" ]; then
		deps=(-DFETCHCONTENT_FULLY_DISCONNECTED=ON
			-DFETCHCONTENT_SOURCE_DIR_PROTOBUF="$P4C_DEPS/protobuf"
			-DFETCHCONTENT_SOURCE_DIR_ABSEIL="$P4C_DEPS/abseil"
			-DFETCHCONTENT_SOURCE_DIR_P4RUNTIME="$P4C_DEPS/p4runtime")
	fi
	mkdir -p "$build"
	# Only p4test: the other backends, the tests and the tools are off.
	cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
		-DENABLE_BMV2=OFF -DENABLE_EBPF=OFF -DENABLE_UBPF=OFF -DENABLE_DPDK=OFF -DENABLE_P4TC=OFF \
		-DENABLE_GTESTS=OFF -DENABLE_P4FMT=OFF -DENABLE_P4C_GRAPHS=OFF -DENABLE_TEST_TOOLS=OFF \
		-DENABLE_LTO=OFF -DCMAKE_UNITY_BUILD=ON -DP4C_USE_PREINSTALLED_BDWGC=ON "${deps[@]}" >/dev/null
	make -C "$build" -j"$(nproc)" p4test
}

[ -x "$p4test" ] || build_p4test
src=${P4C_SRC:-$cache/p4c}
intel="$src/backends/tofino/bf-p4c/p4include"
p4include="$src/p4include"

outputs=("$@")
if [ ${#outputs[@]} -eq 0 ]; then
	(cd "$root" && go build -o "$cache/p4hls" ./cmd/p4hls)
	for f in "$root"/testdata/p4/ok/*.p4; do
		out="$cache/out/$(basename "$f" .p4)"
		if "$cache/p4hls" compile --target tofino -o "$out" "$f" >/dev/null 2>&1; then
			outputs+=("$out/tofino.p4")
		fi
	done
fi

failed=0
for headers in intel bundled; do
	inc=(-I "$intel" -I "$p4include")
	[ "$headers" = bundled ] && inc=(-I "$root/frontend/include" -I "$p4include")
	pass=0
	for f in "${outputs[@]}"; do
		if log=$("$p4test" -D__TARGET_TOFINO__=1 "${inc[@]}" "$f" 2>&1); then
			pass=$((pass + 1))
		else
			failed=1
			echo "p4test ($headers headers) refuses $f:"
			echo "$log" | head -5
		fi
	done
	echo "p4test with the $headers headers: $pass of ${#outputs[@]} pass"
done
exit $failed
