# Make targets of gamequiv. `make test` is the one test command (CI runs it).
GO ?= go

.PHONY: run test bench fmt vet build

# Run the server with the default configuration (127.0.0.1:8080, ./data);
# pass flags with ARGS, e.g. make run ARGS='--addr 127.0.0.1:9090'.
# The binary is built, then exec'd as make's own child: make passes SIGTERM
# on to it (and Ctrl-C reaches it), so it shuts down and frees the
# database. `go run` would not forward SIGTERM to the program it starts.
run:
	$(GO) build -o bin/server ./cmd/server
	exec bin/server $(ARGS)

# gofmt check, go vet, optional tools, go test ./... (see scripts/test.sh).
test:
	bash scripts/test.sh

# Benchmarks of every package; narrow them with BENCH and PKG,
# e.g. make bench BENCH=Find PKG=./isomorph.
BENCH ?= .
PKG ?= ./...
bench:
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem -count=1 $(PKG)

fmt:
	$(GO) fmt ./...

vet:
	$(GO) vet ./...

# Build the binaries into bin/.
build:
	$(GO) build -o bin/ ./cmd/...
