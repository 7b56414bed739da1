# Two commands for a newcomer:  `make run`  (the app on the demo study)  and  `make test`  (the whole suite).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8501
ADDRESS ?=  # e.g. 0.0.0.0 so that phones on the network reach the app (class mode)

.PHONY: run test install install-test lint format bench clean

# editable_mode=compat: the install is one path line in a .pth file (the checkout), not setuptools' default
# import finder, which costs every Python process of the venv 50 M instructions (11-17 ms) at start-up
# (benchmarks/RESULTS-bleu.md, "start-up"). The checkout's other top-level names (tests, benchmarks, app)
# become importable too; an installed package of the same name still comes first.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e . --config-settings editable_mode=compat
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(PY) -m pip install --quiet -e '.[test,bench]' --config-settings editable_mode=compat
	touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

# `streamlit run` through ui/app/serve.py, which imports the first page's modules while the browser connects;
# Streamlit's other settings (headless, no file watcher, ...) are in .streamlit/config.toml; two malloc arenas
# keep the server's memory down (bleu_core/cli/launch.py, MALLOC_ARENAS).
run: $(VENV)/.installed
	MALLOC_ARENA_MAX=$${MALLOC_ARENA_MAX:-2} $(PY) -m ui.app.serve run app.py --server.port $(PORT) $(if $(ADDRESS),--server.address $(ADDRESS))

test: $(VENV)/.installed-test
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest -n 2 -q

lint: $(VENV)/.installed-test
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: $(VENV)/.installed-test
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

bench: $(VENV)/.installed-test
	$(PY) benchmarks/bench_bleu.py
	$(PY) benchmarks/bench_stats.py

clean:
	rm -rf $(VENV) tests/artifacts
