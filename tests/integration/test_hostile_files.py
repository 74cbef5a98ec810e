"""Hostile and broken files dropped into the spool of the real daemon: each goes to failed/ with
a reason that names what is wrong and what to do, and the daemon keeps running. Every file is
generated here (never committed)."""
import io
import json
import struct
import zipfile
import zlib

from conftest import samples, wait_until

EXPORT = ('<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
          ' <ExportDate value="2026-01-02 10:00:00 +0100"/>\n'
          + "".join(f' <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min"'
                    f' startDate="2026-01-01 10:{m:02d}:00 +0100" endDate="2026-01-01 10:{m:02d}:00 +0100" value="{60 + m}"/>\n'
                    for m in range(20))
          + "</HealthData>\n").encode()
MEMBER = "apple_health_export/export.xml"


def set_gateway(hs, gateway):
    hs.run("gateway", "set", gateway.url, "--ca-file", str(gateway.certs["ca"]))


def plain_zip(method=zipfile.ZIP_DEFLATED, data=EXPORT, name=MEMBER) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=method) as z:
        z.writestr("apple_health_export/", b"")
        z.writestr(name, data)
    return buf.getvalue()


def patch_headers(data: bytes, flags_or=0, method=None) -> bytes:
    """Sets flag bits / the method number in every local and central header (what an encrypting
    or Deflate64 zip tool writes there; the data itself is never read)."""
    b = bytearray(data)
    for sig, flag_at, method_at in ((b"PK\x03\x04", 6, 8), (b"PK\x01\x02", 8, 10)):
        i = b.find(sig)
        while i >= 0:
            (flags,) = struct.unpack_from("<H", b, i + flag_at)
            struct.pack_into("<H", b, i + flag_at, flags | flags_or)
            if method is not None:
                struct.pack_into("<H", b, i + method_at, method)
            i = b.find(sig, i + 4)
    return bytes(b)


def reason_of(hs, name: str, timeout: float = 30) -> str:
    path = hs.spool / "failed" / (name + ".reason")
    # The reason is written before the file is moved beside it: wait for both.
    text = wait_until(lambda: (hs.spool / "failed" / name).exists() and path.exists() and path.read_text(), timeout)
    assert text, f"{name} did not reach failed/ with a reason:\n{hs.read_log()[-3000:]}"
    assert not (hs.spool / name).exists()
    return text


def test_encrypted_and_unsupported_zip_members_are_refused_by_name_and_the_daemon_survives(hs, gateway):
    set_gateway(hs, gateway)
    hs.start()
    files = {
        "encrypted.zip": (patch_headers(plain_zip(), flags_or=1), "encrypted"),
        "bzip2.zip": (plain_zip(zipfile.ZIP_BZIP2), "bzip2 (method 12)"),
        "lzma.zip": (plain_zip(zipfile.ZIP_LZMA), "LZMA (method 14)"),
        "deflate64.zip": (patch_headers(plain_zip(), method=9), "Deflate64 (method 9)"),
    }
    for name, (data, _) in files.items():
        hs.drop(name, data)
    for name, (_, says) in files.items():
        reason = reason_of(hs, name)
        assert f"'{MEMBER}'" in reason and says in reason, reason
        assert "re-zip without encryption" in reason and "unpack" in reason, reason
    assert hs.daemon.poll() is None, "the daemon must survive every one of them"
    # It still imports: the same export in a plain zip goes through.
    hs.drop("plain.zip", plain_zip())
    assert len(gateway.wait_for_samples(20)) == 20
    # And a restart with such files present does not die either (they are in failed/ now).
    assert hs.stop() == 0
    hs.start()
    assert hs.daemon.poll() is None


def test_a_decompression_bomb_is_refused_after_the_limit_with_the_member_named(hs):
    hs.start()
    # <HealthData then 256 MiB of spaces: a ~250 KB zip. The header declares nothing (a data
    # descriptor) and the central directory is cut, as in a hostile or truncated download.
    comp = zlib.compressobj(6, zlib.DEFLATED, -15)
    payload = comp.compress(EXPORT[:EXPORT.index(b">\n<HealthData") + 2] + b"<HealthData locale=\"en_US\">\n")
    spaces = b" " * (1 << 20)
    for _ in range(256):
        payload += comp.compress(spaces)
    payload += comp.flush()
    name = MEMBER.encode()
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x0808, 8, 0, 0x21, 0, 0, 0, len(name), 0) + name
    hs.drop("bomb.zip", local + payload)
    reason = reason_of(hs, "bomb.zip", timeout=60)
    assert f"'{MEMBER}'" in reason and "200×" in reason, reason
    stopped = int(reason.split("stopped after ")[1].split(" ")[0])
    assert stopped <= (33 << 20), f"inflated {stopped} bytes before stopping"
    assert hs.daemon.poll() is None


def test_empty_truncated_and_exportless_files_get_clear_reasons(hs):
    hs.start()
    whole = plain_zip(data=EXPORT * 50)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("apple_health_export/export_cda.xml", '<?xml version="1.0"?><ClinicalDocument/>')
        z.writestr("notes.txt", "hello")
    hs.drop("empty.zip", b"")
    hs.drop("truncated.zip", whole[: len(whole) // 2])
    hs.drop("no-export.zip", buf.getvalue())
    assert "the file is empty" in reason_of(hs, "empty.zip")
    truncated = reason_of(hs, "truncated.zip")
    assert "truncated Apple Health" in truncated and f"'{MEMBER}'" in truncated, truncated
    none = reason_of(hs, "no-export.zip")
    assert "no Apple Health export XML" in none and "notes.txt" in none, none
    assert hs.daemon.poll() is None


def test_an_oversize_native_sample_is_refused_with_its_offset_and_the_rest_imported(hs, gateway):
    set_gateway(hs, gateway)
    hs.start()
    good = samples(3)
    huge = dict(good[0], startDate="2026-01-02T00:00:00Z", metadata={"note": "x" * (1 << 20)})
    text = json.dumps([good[0], huge, good[1], good[2]])
    hs.drop("big.json", text)
    assert len(gateway.wait_for_samples(3)) == 3
    reason = reason_of(hs, "big.json")
    offset = text.index(', {') + 2
    assert f"byte {offset}" in reason and "sample 2" in reason and "1048576-byte limit" in reason, reason
