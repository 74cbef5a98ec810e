"""A backlog goes out in larger requests while the gateway is quick (issue 32: gateway.batch_size
when a type's queue holds at most that many samples, up to gateway.backlog_batch_size when it
holds more; back to gateway.batch_size after a request slower than a quarter of gateway.timeout)."""
import json

from conftest import samples, wait_until


def set_gateway(hs, gateway):
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]))


def sizes(gateway) -> list[int]:
    """Samples per accepted request (not `gateway set`'s probe, an empty batch)."""
    return [len(b["samples"]) for b in gateway.batches if b["samples"]]


def test_a_backlog_drains_in_requests_of_the_backlog_batch_size(hs, gateway):
    # No gateway yet: 1,050 samples queue up (as in an outage), then it is set.
    hs.start()
    hs.drop("backlog.json", json.dumps(samples(1050)))
    assert wait_until(lambda: hs.status()["store"]["queued"] == 1050, 30)
    set_gateway(hs, gateway)
    got = gateway.wait_for_samples(1050, timeout=60)
    assert len({s["id"] for s in got}) == 1050
    # Three requests (500 + 500 + 50), not eleven of 100.
    assert sizes(gateway) == [500, 500, 50], sizes(gateway)
    assert all(r["status"] == 200 for r in gateway.requests)
    # A queue that holds no more than a batch goes in one request, as ever.
    hs.drop("small.json", json.dumps(samples(30, start=5000)))
    gateway.wait_for_samples(1080, timeout=30)
    assert sizes(gateway)[-1] == 30


def test_after_a_slow_request_a_backlog_keeps_to_the_batch_size_until_the_gateway_is_quick(hs, gateway):
    # gateway.timeout 8: a request slower than 2 s is slow. The daemon's first request takes 3 s
    # (set after `gateway set`, whose probe is a request too).
    set_gateway(hs, gateway)
    gateway.delay_next(1, 3)
    hs.start(env={"HEALTHSPOOL_GATEWAY_TIMEOUT": "8"})
    hs.drop("first.json", json.dumps(samples(5)))
    gateway.wait_for_samples(5, timeout=30)
    assert sizes(gateway) == [5]
    # A backlog after the slow request: batches of 100. The next request's size is chosen while
    # the one before it is on the wire, so the second is 100 too; the first answered quickly,
    # so the third may carry the 50 left (it would carry up to 500).
    hs.drop("second.json", json.dumps(samples(250, start=1000)))
    gateway.wait_for_samples(255, timeout=30)
    assert sizes(gateway)[1:] == [100, 100, 50], sizes(gateway)
    # The gateway has been quick since: the next backlog goes in requests of 500.
    hs.drop("third.json", json.dumps(samples(1050, start=5000)))
    gateway.wait_for_samples(1305, timeout=60)
    assert sizes(gateway)[4:] == [500, 500, 50], sizes(gateway)
