# toolgate developer tasks. `make help` lists them.
#
# Tools that are not part of the service are pinned here (see docs
# TOOLCHAIN.md): buf stays out of go.mod. Each is built once, with
# `go install module@version`, into bin/ under a name that carries its
# version, so a later make finds the file and builds nothing, and a new pin
# builds a new file. Tests that run a tool (the gen/ staleness check, the
# README walkthrough) use these binaries and never compile a tool under
# go test's timeout. The protoc plugins are `tool` lines in go.mod, so they
# match the runtime.
BUF_VERSION := v1.75.0
GRPCURL_VERSION := v1.9.4
STATICCHECK_VERSION := v0.8.2
DEADCODE_VERSION := v0.52.0

# Tests find the tools in bin/ by these pins (internal/fixtures.Tool).
export BUF_VERSION GRPCURL_VERSION

GO ?= go
TOOLS_DIR := $(CURDIR)/bin
BUF_BIN := $(TOOLS_DIR)/buf-$(BUF_VERSION)
GRPCURL_BIN := $(TOOLS_DIR)/grpcurl-$(GRPCURL_VERSION)
STATICCHECK_BIN := $(TOOLS_DIR)/staticcheck-$(STATICCHECK_VERSION)
DEADCODE_BIN := $(TOOLS_DIR)/deadcode-$(DEADCODE_VERSION)
BUF := $(BUF_BIN)
GRPCURL := $(GRPCURL_BIN)
STATICCHECK := $(STATICCHECK_BIN)
DEADCODE := $(DEADCODE_BIN)

# The image `make image` builds; the Kubernetes manifest runs this tag.
IMAGE ?= toolgate:dev

# The interpreter of the Python client and its tests: Debian's, which has
# python3-grpcio and python3-protobuf (the default python3 may not).
PYTHON ?= /usr/bin/python3

# How long `make fuzz` runs each Fuzz target.
FUZZTIME ?= 10s
# How long `make test-fuzz` (run by CI) fuzzes each target.
TEST_FUZZTIME ?= 8s
# How long `make soak` runs its load, and with how many workers of each kind.
SOAK_DURATION ?= 30s
SOAK_WORKERS ?= 4
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

.PHONY: tools
tools: $(BUF_BIN) $(GRPCURL_BIN) ## Build the pinned tools the tests run into bin/ (once per version)

# go-install builds module@version into $@: into a fresh folder first, so an
# interrupted build leaves no file that make would take for a finished one.
define go-install
	@mkdir -p $(TOOLS_DIR)
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	echo "building $(notdir $@) (once; later runs use bin/)"; \
	GOBIN="$$tmp" $(GO) install $(1); \
	mv "$$tmp/$(2)" $@
endef

$(BUF_BIN):
	$(call go-install,github.com/bufbuild/buf/cmd/buf@$(BUF_VERSION),buf)

$(GRPCURL_BIN):
	$(call go-install,github.com/fullstorydev/grpcurl/cmd/grpcurl@$(GRPCURL_VERSION),grpcurl)

$(STATICCHECK_BIN):
	$(call go-install,honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION),staticcheck)

$(DEADCODE_BIN):
	$(call go-install,golang.org/x/tools/cmd/deadcode@$(DEADCODE_VERSION),deadcode)

.PHONY: test
test: tools ## Run every test with the race detector; lists every skipped test with its reason
	$(GO) test -race -count=1 -timeout 30m -json ./... | $(GO) run ./internal/cmd/testsummary

.PHONY: testshort
testshort: ## Run the tests with -short (skips the end-to-end tests that build the binary)
	$(GO) test -short -race ./...

# The Python stubs need Debian's protobuf-compiler and protobuf-compiler-grpc
# (buf.gen.python.yaml); the Node client loads its own copy of proto/.
.PHONY: generate
generate: $(BUF_BIN) ## Regenerate gen/ and the Python client's stubs from proto/, and copy proto/ into the Node client
	$(BUF) generate
	rm -f client/python/toolgate/v1/*_pb2.py client/python/toolgate/v1/*_pb2.pyi client/python/toolgate/v1/*_pb2_grpc.py
	$(BUF) generate --template buf.gen.python.yaml
	rm -rf client/node/proto
	cp -R proto client/node/proto

.PHONY: checkgenerate
checkgenerate: $(BUF_BIN) ## Fail if gen/ differs from what proto/ generates (work tree untouched)
	$(GO) test -count=1 -run '^TestGeneratedCodeIsCurrent$$' ./internal/gencheck/

.PHONY: lint
lint: $(BUF_BIN) $(STATICCHECK_BIN) $(DEADCODE_BIN) ## buf lint, buf format, go vet, staticcheck, deadcode and gofmt
	$(BUF) lint
	$(BUF) format -d --exit-code
	$(GO) vet ./...
	$(STATICCHECK) ./...
	@# A function no program and no test reaches, exported or not, is dead.
	@dead="$$($(DEADCODE) -test ./...)"; \
	if [[ -n "$$dead" ]]; then \
		echo "unreachable code (deadcode -test):"; echo "$$dead"; exit 1; \
	fi
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

# Go 1.26's fuzz coordinator can fail a target with a bare "context
# deadline exceeded" when -fuzztime ends while a worker is mid-input on a
# loaded machine (golang/go#75804, fixed in Go 1.27). A real finding always
# prints "Failing input written to"; a failure without it that names the
# deadline is run again, up to five attempts in all (the race hit about
# one target in 25 per CI run, and has hit one target twice in a row), and
# any other failure fails at once.
.PHONY: fuzz
fuzz: ## Fuzz every Fuzz target for FUZZTIME each (default 10s)
	@log="$$(mktemp)"; trap 'rm -f "$$log"' EXIT; \
	for pkg in $$($(GO) list ./...); do \
		targets="$$($(GO) test -list '^Fuzz' "$$pkg" | { grep '^Fuzz' || true; })"; \
		for target in $$targets; do \
			for attempt in 1 2 3 4 5; do \
				echo "fuzz $$pkg $$target for $(FUZZTIME) (attempt $$attempt)"; \
				if $(GO) test -run='^$$' -fuzz="^$$target\$$" -fuzztime=$(FUZZTIME) "$$pkg" 2>&1 | tee "$$log"; then break; fi; \
				if [[ $$attempt == 5 ]] || grep -q 'Failing input written to' "$$log" || \
					! grep -q '^    context deadline exceeded$$' "$$log"; then exit 1; fi; \
				echo "fuzz: $$target ended on the fuzztime deadline with no failing input (golang/go#75804); running it again"; \
			done; \
		done; \
	done

.PHONY: test-fuzz
test-fuzz: ## Fuzz every Fuzz target for TEST_FUZZTIME each (default 8s), as CI does
	@$(MAKE) --no-print-directory fuzz FUZZTIME=$(TEST_FUZZTIME)

.PHONY: soak
soak: ## Mixed unary and streaming load on loopback for SOAK_DURATION (30s); zero errors, p99, no leaks
	$(GO) test -tags soak -run '^TestSoak$$' -count=1 -timeout 0 -v ./server/ \
		-soak.duration=$(SOAK_DURATION) -soak.workers=$(SOAK_WORKERS)

.PHONY: breaking
breaking: $(BUF_BIN) ## Check proto/ for breaking changes against the main branch
	@if git cat-file -e main:buf.yaml 2>/dev/null; then \
		$(BUF) breaking --against '.git#branch=main'; \
	else \
		echo "no local branch main with a buf.yaml to compare with; skipping"; \
	fi

.PHONY: mcp-report
mcp-report: ## Regenerate the README's report on testdata/mcp-tools
	@report="$$(mktemp)"; trap 'rm -f "$$report" README.md.tmp' EXIT; \
	$(GO) run ./server/cmd/toolgate check --summary --profile tool_input,json_schema testdata/mcp-tools/*.json > "$$report"; \
	awk -v report="$$report" ' \
		/^<!-- mcp-report:begin -->$$/ { print; print ""; while ((getline line < report) > 0) print line; print ""; skip = 1; begin++; next } \
		/^<!-- mcp-report:end -->$$/ { skip = 0; end++ } \
		!skip { print } \
		END { if (begin != 1 || end != 1) { print "mcp-report: README.md needs one <!-- mcp-report:begin --> and one <!-- mcp-report:end --> line" > "/dev/stderr"; exit 1 } }' \
		README.md > README.md.tmp; \
	mv README.md.tmp README.md; \
	echo "README.md: MCP report regenerated"

.PHONY: image
image: ## Build the container image IMAGE (toolgate:dev) from server/deploy/Dockerfile; needs a Docker daemon
	docker build -f server/deploy/Dockerfile -t $(IMAGE) \
		--build-arg VERSION="$$(git describe --tags --always --dirty 2>/dev/null || echo '(devel)')" \
		--build-arg REVISION="$$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
		--build-arg REVISION_TIME="$$(TZ=UTC0 git log -1 --date=format-local:%Y-%m-%dT%H:%M:%SZ --format=%cd 2>/dev/null || echo unknown)" \
		.

.PHONY: grpcurl
grpcurl: $(GRPCURL_BIN) ## Run the pinned grpcurl (ARGS='-plaintext 127.0.0.1:50051 list')
	$(GRPCURL) $(ARGS)
