# Two commands for a newcomer:  `make run`  (the app on the demo study)  and  `make test`  (the whole suite).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8501
ADDRESS ?=  # e.g. 0.0.0.0 so that phones on the network reach the app (class mode)

.PHONY: run test install install-test lint format bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

# Streamlit's other settings (headless, no file watcher, ...) are in .streamlit/config.toml.
run: $(VENV)/.installed
	$(PY) -m streamlit run app.py --server.port $(PORT) $(if $(ADDRESS),--server.address $(ADDRESS))

test: $(VENV)/.installed-test
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
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
