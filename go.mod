module github.com/p4hls/p4hls

go 1.26.8

require (
	github.com/antlr4-go/antlr/v4 v4.13.1
	github.com/cilium/ebpf v0.22.0
	golang.org/x/sys v0.49.0
)

require (
	golang.org/x/exp v0.0.0-20240506185415-9bf2ced13842 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

tool golang.org/x/tools/cmd/stringer
