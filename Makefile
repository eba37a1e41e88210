# Two commands for a fresh clone: `make run` (the simulator) and `make test` (the whole suite).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: run test lint typecheck pytest bench install clean catalogs catalogs-update lock check-install

$(BIN)/python:
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "companion needs Python 3.11 or newer"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.sim: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[sim]'
	touch $@

$(VENV)/.dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.sim

# The gettext catalogs: .po sources in companion/locale, compiled to .mo (never committed).
CATALOGS := $(wildcard companion/locale/*/LC_MESSAGES/*.po)
KEYWORDS := -k Refusal:2 -k counted:2,3 -k PageRefusal:2
# The pages' own words (domain "pages"), gathered from companion/web only.
PAGE_KEYWORDS := --no-default-keywords -k t -k tn:1,2 -k marked -k refused:3

catalogs: $(CATALOGS:.po=.mo)

companion/locale/%.mo: companion/locale/%.po | $(VENV)/.sim
	$(BIN)/pybabel compile --statistics -i $< -o $@

# After changing a sentence: gather the sentences again and merge them into every catalog
# (in the tool's order; the templates are made on the way and never kept). On a checkout
# whose catalogs are up to date it changes nothing (tests/test_catalogs.py runs it).
catalogs-update: $(VENV)/.dev
	$(BIN)/pybabel extract -F babel.cfg $(KEYWORDS) --no-location --sort-output -o companion/locale/companion.pot .
	$(BIN)/pybabel update -i companion/locale/companion.pot -d companion/locale -D companion --no-fuzzy-matching --ignore-pot-creation-date
	rm companion/locale/companion.pot
	$(BIN)/pybabel extract -F babel-pages.cfg $(PAGE_KEYWORDS) --no-location --sort-output -o companion/locale/pages.pot .
	$(BIN)/pybabel update -i companion/locale/pages.pot -d companion/locale -D pages --no-fuzzy-matching --ignore-pot-creation-date
	rm companion/locale/pages.pot
	$(BIN)/pybabel extract --no-default-keywords -k t --no-location --sort-output -o companion/locale/league.pot companion/club/page.py
	$(BIN)/pybabel update -i companion/locale/league.pot -d companion/locale -D league --no-fuzzy-matching --ignore-pot-creation-date
	rm companion/locale/league.pot

# The installer's dependencies pinned with their hashes (systemd/install.sh installs only
# these, with pip's --require-hashes; systemd/install-league.sh only the league's of them,
# requirements-league.lock). Run after changing a dependency in pyproject.toml: it
# asks PyPI (a minute or two) and keeps the pins it can; tests/daemon/test_install.py checks
# that the lock still answers pyproject.toml.
lock: $(VENV)/.dev
	$(BIN)/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras \
	  --all-build-deps --no-emit-index-url --no-emit-find-links \
	  --output-file requirements.lock pyproject.toml
	$(BIN)/python systemd/league-lock.py

install: $(VENV)/.sim catalogs

run: $(VENV)/.sim catalogs
	$(BIN)/companion simulate

test: lint typecheck pytest

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.dev
	$(BIN)/mypy --strict companion/games companion/session companion/render companion/web/games companion/web/html.py
	$(BIN)/mypy --strict -p tests.fixture_game
	$(BIN)/mypy companion

# Three workers on two cores: much of the suite waits on child daemons, browsers and brokers
# (about 40 % of two cores sat idle with two workers). Each worker is handed whole test
# modules, the slow ones first (tests/conftest.py), so a module's daemon or browser is
# started once and no long test is left for the end.
pytest: $(VENV)/.dev catalogs
	$(BIN)/python -m pytest -n 3 --dist loadfile --no-loadscope-reorder

# docs/install.md followed on fresh Debian trixie and bookworm roots (debootstrap; arm64 too
# where qemu-user-static runs it): install.sh, check-config, a short headless game, games.
# As root, with network to Debian's archive and PyPI; minutes, so never part of `make test`
# (docs/install.md gives the figures). CHECK_INSTALL_ARGS="--suite trixie --arch native".
check-install:
	bash systemd/check-install.sh $(CHECK_INSTALL_ARGS)

# This machine's figures beside a Pi Zero 2 W model's (see docs/performance.md).
bench: $(VENV)/.sim
	$(BIN)/companion bench --cpu pi-zero-2w

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
