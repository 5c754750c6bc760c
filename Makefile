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

# How long `make fuzz` runs each Fuzz target.
FUZZTIME ?= 10s
# `make benchmarks`: interleaved rounds, time per benchmark per round, the
# documents callgrind counts, where the raw results go, and the earlier
# results compared with (by default the last recorded run; empty for none).
BENCH_COUNT ?= 10
BENCH_TIME ?= 1s
CALLGRIND_DOCS ?= small medium escapes
BENCH_RESULTS := docs/benchmarks.txt
BENCH_BASELINE ?= $(BENCH_RESULTS)
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

.PHONY: generate
generate: ## Regenerate gen/ from proto/
	$(BUF) generate

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

.PHONY: bench
bench: ## Run every benchmark once, with allocation counts
	$(GO) test -run='^$$' -bench=. -benchmem ./...

.PHONY: benchmarks
benchmarks: ## Issue 10's benchmarks in BENCH_COUNT interleaved rounds plus callgrind (minutes): rewrites docs/BENCHMARKS.md
	@command -v valgrind >/dev/null || { echo "benchmarks: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	for pkg in internal/validator internal/stream server; do \
		$(GO) test -c -o "$$tmp/$${pkg##*/}.test" "./$$pkg"; \
	done; \
	$(GO) build -o "$$tmp/benchloop" ./internal/cmd/benchloop; \
	flags=(-test.run='^$$' -test.benchmem -test.benchtime=$(BENCH_TIME)); \
	for round in $$(seq $(BENCH_COUNT)); do \
		echo "benchmarks: round $$round of $(BENCH_COUNT)" >&2; \
		(cd internal/validator && "$$tmp/validator.test" "$${flags[@]}" -test.bench='^Benchmark(Compare|Validate)$$'); \
		(cd internal/stream && "$$tmp/stream.test" "$${flags[@]}" -test.bench='^BenchmarkStream(Pieces)?$$'); \
		(cd server && "$$tmp/server.test" "$${flags[@]}" -test.bench='^BenchmarkGRPC$$'); \
	done > "$$tmp/results.txt"; \
	for doc in $(CALLGRIND_DOCS); do \
		for impl in toolgate jsonvalid; do \
			echo "benchmarks: callgrind $$doc $$impl" >&2; \
			n="$$(GODEBUG=asyncpreemptoff=1 GOGC=off GOMAXPROCS=1 valgrind --tool=callgrind --toggle-collect=main.repeat \
				--callgrind-out-file="$$tmp/callgrind.out" "$$tmp/benchloop" -doc "$$doc" -impl "$$impl" 2>"$$tmp/valgrind.log")" || \
				{ cat "$$tmp/valgrind.log" >&2; exit 1; }; \
			awk -v name="BenchmarkCallgrind/$$doc/$$impl" -v n="$$n" \
				'/^totals:/ { printf "%s %d %.1f instr/op\n", name, n, $$2 / n }' "$$tmp/callgrind.out" >> "$$tmp/results.txt"; \
		done; \
	done; \
	baseline=(); \
	if [[ -n "$(BENCH_BASELINE)" && -f "$(BENCH_BASELINE)" ]]; then \
		cp "$(BENCH_BASELINE)" "$$tmp/baseline.txt"; baseline=(-baseline "$$tmp/baseline.txt"); \
	fi; \
	$(GO) run ./internal/cmd/benchreport -in "$$tmp/results.txt" "$${baseline[@]}" \
		-commit "$$(git describe --always --dirty 2>/dev/null || echo unknown)" -doc docs/BENCHMARKS.md; \
	cp "$$tmp/results.txt" $(BENCH_RESULTS); \
	echo "benchmarks: docs/BENCHMARKS.md regenerated; raw results in $(BENCH_RESULTS)"

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
