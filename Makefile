# The README's two commands are `make demo` and `make test`; CI runs
# `make test` through .ci/run. Both set up what is missing first.

GO      ?= go
BIN     := bin/p4hls
EXAMPLE := testdata/p4/ok/blue_increase

.PHONY: all setup build demo test vet generate fuzz fuzz-brief bench clean

all: build

setup:
	@scripts/setup.sh

build: setup
	$(GO) build -o $(BIN) ./cmd/p4hls

# The main job on bundled examples: check a stateful program, run its
# packet test on the reference interpreter, then synthesize its @atomic
# action for Banzai's pred_raw atom and run the ALUs against the
# interpreter on 10,000 packets (report in out/report.json); then rewrite
# ME-3's if-else chain into a table (out/me3/transformed.p4) and run ME-3's
# packet test on the result; last, compile sampling for Menshen (its
# configuration in out/menshen, checked on the model against the
# interpreter on 10,000 frames) and run a packet test on the model.
ME3 := testdata/p4/ok/me3_upf_rate_enforcer
demo: build
	$(BIN) check $(EXAMPLE).p4 && echo "$(EXAMPLE).p4: ok"
	$(BIN) sim $(EXAMPLE).p4 $(EXAMPLE).stf
	$(BIN) compile --target banzai --alu pred_raw --verify 10000 -o out $(EXAMPLE).p4
	$(BIN) compile --emit transformed -o out/me3 $(ME3).p4
	$(BIN) sim -I testdata/p4/ok out/me3/transformed.p4 $(ME3).stf
	$(BIN) compile --target menshen --verify 10000 -o out/menshen testdata/p4/ok/sampling.p4
	$(BIN) sim --target menshen out/menshen testdata/menshen/sampling.stf

# Everything CI checks: formatting, vet, and the whole test suite. The
# solvers are linked with cgo, so a missing library fails the build; no
# test skips for want of one. Then, under the race detector, the tests
# that run compiles (and syntheses) at once in one process, as a server
# does.
test: setup vet
	$(GO) test -count=1 ./...
	$(GO) test -race -count=1 -run 'TestConcurrent' ./driver ./synth ./api
	$(MAKE) --no-print-directory fuzz-brief

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go') | grep -v '^frontend/parser/' || true); \
	if [ -n "$$unformatted" ]; then echo "gofmt wants to change: $$unformatted"; exit 1; fi
	$(GO) vet $$($(GO) list ./... | grep -v /frontend/parser)
	$(GO) vet -unreachable=false ./frontend/parser

# Regenerates the ANTLR parser and the service's protobuf, gRPC, gateway
# and OpenAPI files (scripts/generate-proto.sh pins the protoc plugins).
generate:
	$(GO) generate ./...

# Every fuzz target, as PACKAGE:TARGET: the preprocessor, the whole
# frontend (parser and checker), phase 1, the STF reader and runner, ALU
# grammar files, the query cache's reader, the service's request decoding
# and #include resolution, the editor server's message reader, the hXDP
# ROM reader and core.
FUZZ_TARGETS = ./frontend/cpp:FuzzPreprocess ./frontend:FuzzFrontend ./transform:FuzzTransform \
	./interp:FuzzSTF ./synth/grammar:FuzzParse ./synth:FuzzDecodeAnswer \
	./api:FuzzRequestDecoding ./api:FuzzIncludeResolution ./lsp:FuzzServe \
	./hxdp:FuzzParseHex ./hxdp:FuzzCore

# Fuzz each target for FUZZTIME (default 10 minutes); `make test` runs
# each for FUZZBRIEF inputs, so every CI run fuzzes a little. The brief run
# counts inputs rather than time: a fuzz run cut by its time limit can
# fail with "context deadline exceeded" while an input is running.
FUZZTIME ?= 10m
FUZZBRIEF ?= 5000x
fuzz:
	@for t in $(FUZZ_TARGETS); do \
		echo "fuzz $${t#*:} in $${t%%:*} for $(FUZZTIME)"; \
		$(GO) test $${t%%:*} -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5s || exit 1; \
	done

fuzz-brief:
	@for t in $(FUZZ_TARGETS); do \
		echo "fuzz $${t#*:} in $${t%%:*} for $(FUZZBRIEF)"; \
		$(GO) test $${t%%:*} -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZBRIEF) -fuzzminimizetime 2s || exit 1; \
	done

bench:
	$(GO) test ./frontend -run '^$$' -bench . -benchmem
	$(GO) test ./transform -run '^$$' -bench . -benchmem

clean:
	rm -rf bin
