# healthspool — the two commands of the README:
#   make run    set up, build, and run the daemon in the foreground on ~/HealthSpool
#   make test   set up, build, and run every test (unit, integration, end-to-end as root)
SWIFT ?= swift
export PATH := /opt/swift/usr/bin:$(PATH)

.PHONY: run test test-serial setup setup-test build imports-check writes-check build-release unit unit-quick docs-check fuzz-smoke fuzz integration e2e e2e-deb deb deb-no-build bench bench-smoke clean

run: setup build-release
	./.build/release/healthspool daemon

# Every stage, the independent ones side by side (scripts/test.sh draws the graph; logs in
# .build-test/, a table of the stages' times at the end). test-serial: the same stages one by one.
test:
	./scripts/test.sh

test-serial: setup-test build unit docs-check fuzz-smoke integration bench-smoke e2e

setup:
	./scripts/setup-deps.sh

setup-test:
	./scripts/setup-deps.sh --test

# A target imports only the package's targets it declares (Package.swift): SwiftPM's check fails
# the build on an import of a module no dependency brings, imports-check on one that is not a
# direct dependency (HealthSpoolWeb must not import HealthSpoolStore, reached through HealthSpoolDaemon).
#
# The one build (issue 41): release, with the tests, in .build-release (scripts/swift-release.sh;
# Package.swift puts -enable-testing on our targets), and its binary linked once more with the standard library
# inside for the .deb (scripts/link-static.py: seconds). The unit tests, the integration tests,
# the benchmarks' smoke run, the man page check and the .deb all use it; the fuzz build reuses
# its third-party objects.
# For a quicker edit-and-test loop, a plain `swift build` and `swift test` use .build (debug).
build: imports-check writes-check
	./scripts/swift-release.sh build --build-tests
	./scripts/link-static.py

imports-check:
	python3 scripts/check-imports.py

# Files are created one way only, through SafeWrite (issue 39): no O_CREAT, fopen for writing, … elsewhere.
writes-check:
	python3 scripts/check-file-writes.py

build-release:
	$(SWIFT) build -c release

# The test bundle run as `swift test --skip-build` runs it, without SwiftPM: `swift test` waits for
# SwiftPM's lock on .build-release, which the fuzz build beside the tests holds.
TESTS_BUNDLE = $(CURDIR)/.build-release/release/healthspoolPackageTests.xctest --testing-library swift-testing
BIN = $(CURDIR)/.build-release/release/healthspool
unit:
	$(TESTS_BUNDLE)

# The quick tier, seconds after a build: the modules whose tests neither start a server nor wait
# on a clock (the domain, the parsers, the store, the gateway's encoders, the journal) and
# ConfigCheck's checks. The test bundle selects by name, not by tag (this toolchain), so the tier
# is a --filter over the suites' names; `make unit` runs everything.
QUICK_TESTS = ^(HealthSpoolCoreTests|HealthExportTests|HealthSpoolStoreTests|HealthSpoolGatewayTests|HealthJournalTests|HealthSpoolLockTests|HealthSpoolConfigTests)\.|\.ConfigCheckTests/
unit-quick:
	$(TESTS_BUNDLE) --filter '$(QUICK_TESTS)'

# The defaults file and healthspool.conf(5) must list every setting of Settings.swift.
docs-check:
	python3 packaging/gen-conf-docs.py --check
	python3 packaging/check-man.py $(BIN) man/healthspool.1
	@for p in man/*.[157]; do w=$$(groff -man -ww -z $$p 2>&1); [ -z "$$w" ] || { echo "$$p: groff: $$w"; exit 1; }; done
	@# The shipped /etc file passes config check (issue 19), read with an empty HOME and environment.
	@h=$$(mktemp -d); env -i PATH="$$PATH" HOME="$$h" HEALTHSPOOL_SYSTEM_CONFIG=etc/healthspool/healthspool.conf \
		$(BIN) config check; rc=$$?; rm -rf "$$h"; exit $$rc

# Fuzz targets (docs/fuzzing.md): one sanitized libFuzzer binary, built in .build-release with
# the one release build's flags so that only our targets compile again (the third-party objects
# are `make build`'s), copied to .build-fuzz; each target runs FUZZ_SECONDS (smoke: 30 s, six at
# a time at nice 5, as the tests beside them; our targets built at -Onone). Fails on a finding; a
# build error fails at once.
fuzz-smoke:
	FUZZ_SECONDS=30 FUZZ_JOBS=6 FUZZ_OPT=-Onone FUZZ_NICE=5 ./scripts/fuzz.sh

FUZZ_SECONDS ?= 1800
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) ./scripts/fuzz.sh

# pytest-xdist: the tests mostly wait on daemons (379 CPU seconds in 455 s of wall with 4 workers
# on the release build), so 8 workers on 2 cores (the run's wall time is mostly theirs). Tests that cannot
# share the machine carry @pytest.mark.serial (pytest.ini) and run after the others, alone.
INTEGRATION_WORKERS ?= 8
integration:
	HEALTHSPOOL_BIN=$(BIN) python3 -m pytest -q -p no:benchmark -n $(INTEGRATION_WORKERS) \
		--durations=15 -m "not serial" tests/integration
	HEALTHSPOOL_BIN=$(BIN) python3 -m pytest -q -p no:benchmark -m serial tests/integration; \
		rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 5 ]   # 5: no test is marked serial

# The end-to-end test of the .deb under systemd: e2e builds the package first (packaging/build-deb.sh,
# one release build); e2e-deb installs the one `make deb` made.
e2e:
	tests/e2e/systemd-e2e.sh

DEB = dist/healthspool_$(shell tr -d ' \n' <VERSION)_$(shell dpkg --print-architecture).deb
e2e-deb:
	tests/e2e/systemd-e2e.sh --deb $(DEB)

deb:
	./packaging/build-deb.sh

# The .deb of the build `make build` made (scripts/test.sh's deb stage): the packaging, xz at level 1.
deb-no-build:
	DEB_XZ_LEVEL=1 ./packaging/build-deb.sh --no-build

# Benchmarks (figures in BENCHMARKS.md): Apple Health import, then delivery to a gateway.
bench:
	bench/import-bench.sh
	bench/gateway-bench.sh

# Every benchmark at a tiny size, on the one release build (bench/smoke.sh): a benchmark that no
# longer runs fails the test command.
bench-smoke:
	bench/smoke.sh $(BIN)

clean:
	rm -rf .build .build-release .build-fuzz .build-asan .build-test dist
