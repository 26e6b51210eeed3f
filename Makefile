# labkit: two commands do all the set-up on a fresh machine (Python 3.11+, make, Node.js with npm).
#   make print   build the complete print-and-play set into output/
#   make test    install what the tests need and run them
#   make serve   start the table companion
#   make bench   print the benchmark figures
#   make reader-model   train the photo reader's letter classifier (reader/letters.npz)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
RUN_STAMP  := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
# Files fetched from the npm registry at set-up, pinned by package-lock.json:
# DejaVu fonts for print, htmx for the companion (no CDN at the table).
NPM_STAMP := node_modules/.installed
VENDOR := companion/static/vendor
HTMX   := $(VENDOR)/htmx.min.js
VENDORED := $(HTMX) $(VENDOR)/sse.min.js $(VENDOR)/idiomorph-ext.min.js
# Debian packages, each as package=probe (a command, or a file that it installs):
# Chromium for browser tests, poppler-utils for pdffonts, and jemalloc, which
# the companion starts with when it is there (a worker's memory stays flat).
SERVE_DEBS := libjemalloc2=/usr/lib/*/libjemalloc.so.2
# Handwriting fonts for the photo reader (reader/pen.py): those the letter
# classifier trains on, and those kept aside that only the held-out photos
# (tests, make bench) write with.
FONT_DIR := /usr/share/fonts
READER_TRAIN_DEBS := fonts-bwht=$(FONT_DIR)/opentype/bwht/BecauseWeBuild-Regular.otf \
  fonts-comic-neue=$(FONT_DIR)/opentype/comic-neue/ComicNeue-Regular.otf \
  fonts-dkg-handwriting=$(FONT_DIR)/truetype/fifthhorseman/dkg.ttf \
  fonts-rufscript=$(FONT_DIR)/truetype/rufscript/Rufscript010.ttf \
  fonts-kaushanscript=$(FONT_DIR)/opentype/kaushanscript/KaushanScript-Regular.otf \
  fonts-klee=$(FONT_DIR)/truetype/klee/KleeOne-Regular.ttf \
  fonts-kristi=$(FONT_DIR)/truetype/kristi/Kristi.ttf \
  fonts-dancingscript=$(FONT_DIR)/opentype/dancingscript/DancingScript-Regular.otf
READER_HELD_OUT_DEBS := fonts-sjfonts=$(FONT_DIR)/truetype/sjfonts/SteveHand.ttf \
  fonts-humor-sans=$(FONT_DIR)/truetype/humor-sans/Humor-Sans.ttf \
  fonts-breip=$(FONT_DIR)/truetype/breip/Breip.ttf
TEST_DEBS  := chromium=chromium poppler-utils=pdffonts $(SERVE_DEBS) $(READER_TRAIN_DEBS) $(READER_HELD_OUT_DEBS)
.PHONY: print test serve bench clean venv debs serve-debs previews assets reader-model reader-debs

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "labkit needs Python 3.11 or newer"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(TEST_STAMP): pyproject.toml $(RUN_STAMP)
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

$(NPM_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "labkit needs Node.js with npm to fetch its fonts and htmx (Debian: apt-get install npm)"; exit 1; }
	npm ci --no-audit --no-fund --silent
	touch $@

$(VENDORED): $(NPM_STAMP)
	mkdir -p $(VENDOR)
	cp node_modules/htmx.org/dist/htmx.min.js node_modules/htmx-ext-sse/dist/sse.min.js \
	   node_modules/idiomorph/dist/idiomorph-ext.min.js $(VENDOR)/

assets: $(NPM_STAMP) $(VENDORED)

venv: $(RUN_STAMP)

# Installs the Debian packages when run as root; otherwise says what is
# missing, and the tests that need it skip with that reason.
define install_debs
	@missing=""; \
	for entry in $(1); do \
	  package=$${entry%%=*}; probe=$${entry#*=}; \
	  case "$$probe" in /*) ls $$probe >/dev/null 2>&1 ;; *) command -v "$$probe" >/dev/null 2>&1 ;; esac \
	    || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "cannot install without root and apt-get:$$missing (what needs them is skipped or falls back, and says so)"; \
	  fi; \
	fi
endef

debs:
	$(call install_debs,$(TEST_DEBS))

serve-debs:
	$(call install_debs,$(SERVE_DEBS))

reader-debs:
	$(call install_debs,$(READER_TRAIN_DEBS) $(READER_HELD_OUT_DEBS))

# The reader's letter classifier, trained on synthetic handwriting; its
# weights (reader/letters.npz) are committed, so nothing is trained or
# fetched at run time. The same command gives the same weights.
reader-model: $(RUN_STAMP) reader-debs
	$(BIN)/python -m pip install -q -e '.[train]'
	$(BIN)/python -m reader.train

print: $(RUN_STAMP) assets
	$(BIN)/labkit build

test: $(TEST_STAMP) assets debs
	$(BIN)/python -m pytest -n 2 --dist loadgroup --durations=25 tests

serve: $(RUN_STAMP) assets serve-debs
	$(BIN)/labkit serve

bench: $(TEST_STAMP) assets reader-debs
	$(BIN)/python -m bench

# The README's pictures: the real PDFs rendered by PDFium (each game's
# game.yaml says which pages).
previews: print $(TEST_STAMP)
	$(BIN)/python -m generator.preview output docs/images

clean:
	rm -rf output .pytest_cache .hypothesis
