# healthspool — the two commands of the README:
#   make run    set up, build, and run the daemon in the foreground on ~/HealthSpool
#   make test   set up, build, and run every test (unit, integration, end-to-end as root)
SWIFT ?= swift
export PATH := /opt/swift/usr/bin:$(PATH)

.PHONY: run test setup setup-test build imports-check writes-check build-release unit docs-check fuzz-smoke fuzz integration e2e deb bench clean

run: setup build-release
	./.build/release/healthspool daemon

test: setup-test build unit docs-check fuzz-smoke integration e2e

setup:
	./scripts/setup-deps.sh

setup-test:
	./scripts/setup-deps.sh --test

# A target imports only the package's targets it declares (Package.swift): SwiftPM's check fails
# the build on an import of a module no dependency brings, imports-check on one that is not a
# direct dependency (HealthSpoolWeb must not import HealthSpoolStore, reached through HealthSpoolDaemon).
build: imports-check writes-check
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error

imports-check:
	python3 scripts/check-imports.py

# Files are created one way only, through SafeWrite (issue 39): no O_CREAT, fopen for writing, … elsewhere.
writes-check:
	python3 scripts/check-file-writes.py

build-release:
	$(SWIFT) build -c release

unit:
	$(SWIFT) test --skip-build

# The defaults file and healthspool.conf(5) must list every setting of Settings.swift.
docs-check:
	python3 packaging/gen-conf-docs.py --check
	python3 packaging/check-man.py .build/debug/healthspool man/healthspool.1
	@for p in man/*.[157]; do w=$$(groff -man -ww -z $$p 2>&1); [ -z "$$w" ] || { echo "$$p: groff: $$w"; exit 1; }; done
	@# The shipped /etc file passes config check (issue 19), read with an empty HOME and environment.
	@h=$$(mktemp -d); env -i PATH="$$PATH" HOME="$$h" HEALTHSPOOL_SYSTEM_CONFIG=etc/healthspool/healthspool.conf \
		.build/debug/healthspool config check; rc=$$?; rm -rf "$$h"; exit $$rc

# Fuzz targets (docs/fuzzing.md): one sanitized libFuzzer binary built in .build-fuzz; each
# target runs FUZZ_SECONDS (smoke: 30 s). Fails on a finding; a build error fails at once.
fuzz-smoke:
	FUZZ_SECONDS=30 FUZZ_JOBS=2 ./scripts/fuzz.sh

FUZZ_SECONDS ?= 1800
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) ./scripts/fuzz.sh

integration:
	HEALTHSPOOL_BIN=$(CURDIR)/.build/debug/healthspool python3 -m pytest -q tests/integration

e2e:
	@if [ -x tests/e2e/systemd-e2e.sh ]; then tests/e2e/systemd-e2e.sh; else echo "SKIP: no end-to-end script yet"; fi

deb:
	./packaging/build-deb.sh

# Benchmarks (figures in BENCHMARKS.md): Apple Health import, then delivery to a gateway.
bench:
	bench/import-bench.sh
	bench/gateway-bench.sh

clean:
	rm -rf .build .build-release .build-fuzz .build-asan dist
