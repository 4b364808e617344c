#!/usr/bin/env bash
# Regenerates the Go code and the OpenAPI document of proto/p4hls/v1 from
# compiler.proto and compiler.yaml (the HTTP routes). The plugin versions
# are pinned here, and only here; they are installed into a folder of
# their own, so building and testing p4hls never need them (the generated
# code is committed). Needs protoc (Debian's protobuf-compiler).
set -euo pipefail

PROTOC_GEN_GO=google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
PROTOC_GEN_GO_GRPC=google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2
PROTOC_GEN_GATEWAY=github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-grpc-gateway@v2.33.0
PROTOC_GEN_OPENAPI=github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-openapiv2@v2.33.0

root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v protoc >/dev/null 2>&1; then
	echo "generate-proto: installing protobuf-compiler" >&2
	sudo=""
	[ "$(id -u)" -ne 0 ] && sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq protobuf-compiler >/dev/null
fi
bin="$root/.cache/protoc-plugins"
mkdir -p "$bin"
for tool in "$PROTOC_GEN_GO" "$PROTOC_GEN_GO_GRPC" "$PROTOC_GEN_GATEWAY" "$PROTOC_GEN_OPENAPI"; do
	GOBIN="$bin" GOFLAGS= go install "$tool"
done

dir=proto/p4hls/v1
cd "$root"
PATH="$bin:$PATH" protoc -I . -I /usr/include \
	--go_out=paths=source_relative:. \
	--go-grpc_out=paths=source_relative:. \
	--grpc-gateway_out=paths=source_relative,grpc_api_configuration=$dir/compiler.yaml:. \
	--openapiv2_out=grpc_api_configuration=$dir/compiler.yaml,json_names_for_fields=false,allow_merge=false:. \
	"$dir/compiler.proto"
echo "generate-proto: wrote $dir" >&2
