"""The other local user of issue 39 against the ingest endpoint, for tests/integration/test_ingest.py
and bench/ingest-flood.py: run as that user (`as_other`), with this file's text as the script and
a call to `attack(...)` after it. Loopback only, bounded: it stops by itself after `seconds`.

- "flood": from each source address, `conns` connections open at a time, each sending a
  ClientHello and never finishing its handshake; every one the daemon closes is opened again
  at once (at most `rate` new connections a second per address, so the loopback's ports last).
- "slow": from each source address, `conns` connections that send nothing, each opened again as
  soon as the daemon closes it (the "12 slow connections from 3 addresses").
Prints one JSON line at the end: connections opened and closed by the daemon, per address."""
import json
import selectors
import socket
import ssl
import time


def client_hello() -> bytes:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    obj = context.wrap_bio(incoming, outgoing, server_hostname="127.0.0.1")
    try:
        obj.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()


def attack(port: int, sources: list, conns: int, seconds: float, mode: str = "flood", rate: float = 500.0):
    hello = client_hello() if mode == "flood" else b""
    sel = selectors.DefaultSelector()
    held = {s: 0 for s in sources}
    opened = {s: 0 for s in sources}
    closed = {s: 0 for s in sources}
    allowance = {s: 0.0 for s in sources}
    end = time.monotonic() + seconds
    last = time.monotonic()
    while True:
        now = time.monotonic()
        if now >= end:
            break
        for s in sources:
            allowance[s] = min(float(conns), allowance[s] + (now - last) * rate)
        last = now
        for source in sources:
            while held[source] < conns and allowance[source] >= 1:
                allowance[source] -= 1
                c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                try:
                    c.bind((source, 0))
                    c.setblocking(False)
                    c.connect_ex(("127.0.0.1", port))
                except OSError:
                    c.close()
                    break
                sel.register(c, selectors.EVENT_WRITE, [source, False])
                held[source] += 1
                opened[source] += 1
        for key, events in sel.select(timeout=0.01):
            c, data = key.fileobj, key.data
            source = data[0]
            if not data[1]:
                # Connected (or failed): send the hello, then wait for the daemon to close it.
                err = c.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if err == 0:
                    try:
                        if hello:
                            c.send(hello)
                        data[1] = True
                        sel.modify(c, selectors.EVENT_READ, data)
                        continue
                    except OSError:
                        pass
            else:
                try:
                    if c.recv(4096):
                        continue
                except BlockingIOError:
                    continue
                except OSError:
                    pass
            sel.unregister(c)
            c.close()
            held[source] -= 1
            closed[source] += 1
    for key in list(sel.get_map().values()):
        key.fileobj.close()
    print(json.dumps({"opened": opened, "closed": closed}), flush=True)
