# The two commands (see README.md):
#   make serve   set everything up and serve the apps on http://localhost:8866 (PORT=... to change)
#   make test    set everything up and run the whole test suite
PYTHON ?= python3
VENV ?= .venv
PORT ?= 8866
HOST ?= localhost
JOBS ?= 2
BIN := $(VENV)/bin

.PHONY: serve test setup setup-dev browser postgres bwrap clean

serve: $(VENV)/.installed
	@echo "gopskit: starting the apps' server (HOST=0.0.0.0 serves the classroom network and prints a teacher passcode;"
	@echo "gopskit: CERTFILE=cert.pem KEYFILE=key.pem serve HTTPS, see docs/classroom.md)."
	@$(BIN)/gopskit serve --port $(PORT) --host $(HOST) $(if $(CERTFILE),--certfile "$(CERTFILE)") $(if $(KEYFILE),--keyfile "$(KEYFILE)")

test: $(VENV)/.installed-dev browser postgres bwrap
	$(BIN)/python -m pytest $(wildcard tests lessons notebooks) --nbval-lax -p no:cacheprovider -n $(JOBS) --dist loadfile $(PYTEST_ARGS)

setup: $(VENV)/.installed
setup-dev: $(VENV)/.installed-dev

# pip's output, shortened to one line per library fetched (a fresh install takes minutes:
# never silent for long); the whole of it is kept in $(VENV)/pip.log. Exits with pip's status.
PIP_SAYS = awk '/^Collecting /{print "  gopskit: getting " $$2; fflush()} \
	/^ *Downloading / && !/\.metadata/{print "  gopskit:   downloading " $$2 " " $$3 $$4; fflush()} \
	/^Processing /{n = split($$2, part, "/"); print "  gopskit: getting " part[n]; fflush()} \
	/^Installing collected packages/{print "  gopskit: unpacking the libraries (a minute or two, quiet)"; fflush()} \
	/^Successfully installed/{print "  gopskit: installed " NF-2 " packages"; fflush()} \
	/^ERROR/{print; fflush()} /^__pip_exit=/{code=substr($$0,12)} \
	END{if (code != 0) print "gopskit: the installation failed; the whole story is in $(VENV)/pip.log"; exit code}'
PIP_INSTALL = PYTHONUNBUFFERED=1 $(BIN)/python -m pip install --disable-pip-version-check --progress-bar off

$(VENV)/bin/python:
	@echo "gopskit: creating a Python environment in $(VENV) (once)."
	@$(PYTHON) -m venv $(VENV)
	@echo "gopskit: updating pip in it."
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	@echo "gopskit: installing the kit and its libraries into $(VENV) (Voila, Jupyter, numpy, scipy, numba...)."
	@echo "gopskit: the first time this downloads a few hundred MB and takes a few minutes."
	@($(PIP_INSTALL) -e . 2>&1; echo "__pip_exit=$$?") | tee $(VENV)/pip.log | $(PIP_SAYS)
	@$(BIN)/python -m gopskit.solvers.precompile
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	$(BIN)/python -m gopskit.solvers.precompile
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
