# Two set-up commands: `make demo` and `make test`. Each creates .venv with pinned packages.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
DEMO_RUN := runs/demo

.PHONY: install demo test test-browser test-twin test-nojit lint fmt bench report clean clean-cache

$(STAMP): pyproject.toml requirements.lock
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements.lock
	$(BIN)/python -m pip install -q --no-deps -e .
	touch $(STAMP)

# install also byte-compiles the project (PYTHONDONTWRITEBYTECODE=1 would otherwise have every process compile
# balance/ and sims/ from source, ~0.07 CPU-s each); checked-hash .pyc files are checked against their source's
# hash at every import, so an edited file is never run from a stale .pyc (__pycache__/ is git-ignored).
BYTECOMPILE := -m compileall -q --invalidation-mode checked-hash balance sims
install: $(STAMP)
	$(BIN)/python $(BYTECOMPILE)

demo: install  ## simulate the demo spec (200 000 Cardinger games), value every card (±1 pp), write the report
	rm -rf $(DEMO_RUN)
	$(BIN)/balance run reports/demo/spec.toml --out runs --name demo
	$(BIN)/balance value --game cardinger --half-width 0.01 --out $(DEMO_RUN)/values
	$(BIN)/balance report $(DEMO_RUN) --values $(DEMO_RUN)/values --out reports/demo
	@echo "open reports/demo/index.html"

# `make test` spreads the tests over every CPU (pytest-xdist; TEST_WORKERS=1 runs them in one process)
TEST_WORKERS ?= auto
test: install  ## the whole test suite on every CPU (CI runs this); the opt-in browser and C-twin tests are left out (make test-browser, make test-twin)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist worksteal --durations=20

test-browser: install  ## generated reports in headless Chromium (Debian's chromium package); screenshots in runs/browser/
	$(BIN)/python -m pytest -q -m browser tests/browser

test-twin: install  ## the C twin of the Cardinger kernel plays the kernel's games (needs gcc; .ci/run installs it)
	$(BIN)/python -m pytest -q -m twin tests/sims/cardinger/test_twin.py

test-nojit: install  ## rules tests with Numba disabled (coverage of kernel lines, JIT parity)
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q tests/sims -m "not slow" -W "ignore::RuntimeWarning"

lint: install
	$(BIN)/ruff check balance sims tests benchmarks
	$(BIN)/ruff format --check balance sims tests benchmarks

fmt: install
	$(BIN)/ruff format balance sims tests benchmarks

bench: install  ## speed figures (printed, never asserted)
	$(BIN)/balance bench --game cardinger --scaling 200000
	$(BIN)/python benchmarks/cardinger_speed.py twin -n 200000
	$(BIN)/python benchmarks/cardinger_speed.py ratio -n 1000000 --repeat 3
	$(BIN)/python benchmarks/pure_python.py
	$(BIN)/balance bench --game blessings --games-per-pairing 50000 --scaling 20000
	$(BIN)/python benchmarks/pure_python.py --game blessings
	$(BIN)/balance bench --game cardrpg --games-per-pairing 50000 --scaling 100000
	$(BIN)/python benchmarks/pure_python.py --game cardrpg
	$(BIN)/balance bench --game cardwars --games-per-pairing 20000
	$(BIN)/python benchmarks/pure_python.py --game cardwars --variant standard
	$(BIN)/python benchmarks/value_speed.py --game cardinger
	$(BIN)/balance bench --game cardia --games-per-pairing 20000
	$(BIN)/python benchmarks/pure_python.py --game cardia

report: install  ## make report NAME=demo: run reports/NAME/spec.toml and write its report
	rm -rf runs/$(NAME)
	$(BIN)/balance run reports/$(NAME)/spec.toml --out runs --name $(NAME)
	$(BIN)/balance report runs/$(NAME) --out reports/$(NAME)

clean:
	rm -rf runs .pytest_cache

clean-cache:  ## drop compiled kernels (they are keyed by a hash of sims/, so this only frees disk)
	rm -rf $${XDG_CACHE_HOME:-$$HOME/.cache}/balance-lab/numba
