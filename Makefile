# gamesweep — the two commands: `make run` (main job, quick config) and `make test`.
CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
BIN := $(TARGET_DIR)/release/gamesweep

.PHONY: build run test thesis bench

build:
	$(CARGO) build --release

# The main job: the quick config (minutes on 2 cores), its exact verification and report.
run: build
	$(BIN) run configs/quick.toml
	$(BIN) verify data/quick
	$(BIN) report data/quick

# Everything CI checks: formatting, lints, no import cycle between modules or
# folders, no broken link or anchor in the docs and comments, unit +
# integration tests (release mode: the exact solvers are heavy), the
# end-to-end smoke test with polars, the quickstart's code blocks, the output
# comparison's own test, the checked-rows rule in Python and in `gamesweep
# export` on one damaged directory, and the job array on a real one-node
# Slurm (skipped unless root).
test:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --release --all-targets -- -D warnings
	python3 scripts/check_imports.py src
	python3 scripts/check_links.py
	$(CARGO) test --release
	scripts/smoke-test.sh
	scripts/run-quickstart.sh
	scripts/test-compare-outputs.sh
	scripts/test-checked-reading.sh
	scripts/test-slurm.sh

# Full reproduction of the published results (overnight at most).
thesis: build
	$(BIN) run configs/thesis.toml
	$(BIN) verify data/thesis
	$(BIN) report data/thesis

# Speed measurements: medians, variants side by side.
bench:
	$(CARGO) bench
