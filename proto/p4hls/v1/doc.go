// Package p4hlsv1 is the p4hls service's contract: the messages and the
// Compiler service of compiler.proto, with their REST routes
// (compiler.yaml, through grpc-gateway) and their OpenAPI document. All
// but this file and openapi.go are generated: do not edit them, run
// `make generate`.
package p4hlsv1

//go:generate ../../../scripts/generate-proto.sh
