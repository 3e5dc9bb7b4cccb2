# The two commands (see README.md):
#   make serve   set everything up and serve the apps on http://localhost:8866 (PORT=... to change)
#   make test    set everything up and run the whole test suite
PYTHON ?= python3
VENV ?= .venv
PORT ?= 8866
JOBS ?= 2
BIN := $(VENV)/bin

.PHONY: serve test setup setup-dev browser postgres bwrap clean

serve: $(VENV)/.installed
	$(BIN)/gopskit serve --port $(PORT)

test: $(VENV)/.installed-dev browser postgres bwrap
	$(BIN)/python -m pytest $(wildcard tests lessons notebooks) --nbval-lax -p no:cacheprovider -n $(JOBS) --dist loadfile $(PYTEST_ARGS)

setup: $(VENV)/.installed
setup-dev: $(VENV)/.installed-dev

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(VENV)/.installed

# The browser tests drive Debian's Chromium; install it when we can (root with apt-get).
browser:
	@bash tests/ensure_chromium.sh

# Students' strategies run under bubblewrap (the OS sandbox); install Debian's when we can.
bwrap:
	@bash tests/ensure_bwrap.sh

# The classroom store is tested on a real PostgreSQL too; install Debian's when we can.
postgres:
	@bash tests/ensure_postgres.sh install

clean:
	rm -rf $(VENV) .pytest_cache
