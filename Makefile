# toolgate developer tasks. `make help` lists them.
#
# Tools that are not part of the service are pinned here and run with
# `go run module@version` (see docs TOOLCHAIN.md): buf stays out of go.mod.
# The protoc plugins are `tool` lines in go.mod, so they match the runtime.
BUF_VERSION := v1.75.0
GRPCURL_VERSION := v1.9.4
STATICCHECK_VERSION := v0.8.2

# The staleness test in internal/gencheck runs the same buf version.
export BUF_VERSION

GO ?= go
BUF := $(GO) run github.com/bufbuild/buf/cmd/buf@$(BUF_VERSION)
GRPCURL := $(GO) run github.com/fullstorydev/grpcurl/cmd/grpcurl@$(GRPCURL_VERSION)
STATICCHECK := $(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

# The interpreter of the Python client and its tests: Debian's, which has
# python3-grpcio and python3-protobuf (the default python3 may not).
PYTHON ?= /usr/bin/python3

# How long `make fuzz` runs each Fuzz target.
FUZZTIME ?= 10s
# Extra arguments for `make run` and `make grpcurl`.
ARGS ?=

SHELL := /usr/bin/env bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

.PHONY: help
help: ## Describe the targets
	@grep -E '^[a-z][a-z-]*:.*## ' $(MAKEFILE_LIST) | \
		awk 'BEGIN {FS = ":.*## "} {printf "  %-14s %s\n", $$1, $$2}'

.PHONY: run
run: ## Run the server (pass flags with ARGS='--addr 127.0.0.1:50051')
	$(GO) run ./server/cmd/toolgate $(ARGS)

.PHONY: test
test: ## Run every test with the race detector, including the gen/ staleness check
	$(GO) test -race -count=1 ./...

.PHONY: testshort
testshort: ## Run the tests with -short (skips the gen/ staleness check)
	$(GO) test -short -race ./...

# The Python stubs need Debian's protobuf-compiler and protobuf-compiler-grpc
# (buf.gen.python.yaml); the Node client loads its own copy of proto/.
.PHONY: generate
generate: ## Regenerate gen/ and the Python client's stubs from proto/, and copy proto/ into the Node client
	$(BUF) generate
	rm -f client/python/toolgate/v1/*_pb2.py client/python/toolgate/v1/*_pb2.pyi client/python/toolgate/v1/*_pb2_grpc.py
	$(BUF) generate --template buf.gen.python.yaml
	rm -rf client/node/proto
	cp -R proto client/node/proto

.PHONY: checkgenerate
checkgenerate: ## Fail if gen/ differs from what proto/ generates (work tree untouched)
	$(GO) test -count=1 -run '^TestGeneratedCodeIsCurrent$$' ./internal/gencheck/

.PHONY: lint
lint: ## buf lint, buf format, go vet, staticcheck and gofmt
	$(BUF) lint
	$(BUF) format -d --exit-code
	$(GO) vet ./...
	$(STATICCHECK) ./...
	@unformatted="$$(find . -name '*.go' -not -path './.git/*' -not -path '*/testdata/*' \
		-not -path '*/node_modules/*' -print0 | xargs -0 -r gofmt -l)"; \
	if [[ -n "$$unformatted" ]]; then \
		echo "gofmt needed on:"; echo "$$unformatted"; exit 1; \
	fi

.PHONY: interop
interop: client/node/node_modules/.package-lock.json ## Test the Python and Node clients against the real binary on loopback
	@bin="$$(mktemp -d)"; trap 'rm -rf "$$bin"' EXIT; \
	$(GO) build -o "$$bin/toolgate" ./server/cmd/toolgate; \
	PYTHON='$(PYTHON)' client/interop/run.sh "$$bin/toolgate"

# npm ci again whenever the Node client's dependencies change.
client/node/node_modules/.package-lock.json: client/node/package.json client/node/package-lock.json
	cd client/node && npm ci --no-audit --no-fund

.PHONY: bench
bench: ## Run every benchmark once, with allocation counts
	$(GO) test -run='^$$' -bench=. -benchmem ./...

.PHONY: fuzz
fuzz: ## Fuzz every Fuzz target for FUZZTIME each (default 10s)
	@for pkg in $$($(GO) list ./...); do \
		targets="$$($(GO) test -list '^Fuzz' "$$pkg" | { grep '^Fuzz' || true; })"; \
		for target in $$targets; do \
			echo "fuzz $$pkg $$target for $(FUZZTIME)"; \
			$(GO) test -run='^$$' -fuzz="^$$target\$$" -fuzztime=$(FUZZTIME) "$$pkg"; \
		done; \
	done

.PHONY: breaking
breaking: ## Check proto/ for breaking changes against the main branch
	@if git cat-file -e main:buf.yaml 2>/dev/null; then \
		$(BUF) breaking --against '.git#branch=main'; \
	else \
		echo "no local branch main with a buf.yaml to compare with; skipping"; \
	fi

.PHONY: mcp-report
mcp-report: ## Regenerate the README's report on ../shared/fixtures/mcp-tools
	@if [[ ! -d ../shared/fixtures/mcp-tools ]]; then \
		echo "mcp-report: ../shared/fixtures/mcp-tools not found; it needs the shared fixtures beside this repository" >&2; \
		exit 1; \
	fi
	@report="$$(mktemp)"; trap 'rm -f "$$report" README.md.tmp' EXIT; \
	$(GO) run ./server/cmd/toolgate check --summary ../shared/fixtures/mcp-tools/*.json > "$$report"; \
	awk -v report="$$report" ' \
		/^<!-- mcp-report:begin -->$$/ { print; print ""; while ((getline line < report) > 0) print line; print ""; skip = 1; begin++; next } \
		/^<!-- mcp-report:end -->$$/ { skip = 0; end++ } \
		!skip { print } \
		END { if (begin != 1 || end != 1) { print "mcp-report: README.md needs one <!-- mcp-report:begin --> and one <!-- mcp-report:end --> line" > "/dev/stderr"; exit 1 } }' \
		README.md > README.md.tmp; \
	mv README.md.tmp README.md; \
	echo "README.md: MCP report regenerated"

.PHONY: grpcurl
grpcurl: ## Run the pinned grpcurl (ARGS='-plaintext 127.0.0.1:50051 list')
	$(GRPCURL) $(ARGS)
