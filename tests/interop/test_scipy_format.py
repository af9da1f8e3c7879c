"""Reads indexes written by dod using only docs/format.md and numpy, builds
scipy.sparse.csr_matrix from them, and compares each with a matrix built independently in
Python from the same keys. Usage: test_scipy_format.py [EMULATOR...] PATH_TO_interop_write_index
(a cross-built writer runs behind CMAKE_CROSSCOMPILING_EMULATOR: qemu-user, Wine)"""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import scipy.sparse
except ImportError as e:  # reported by ctest as skipped (SKIP_RETURN_CODE 77)
    print(f"interop_scipy skipped: {e} (Debian: apt-get install python3-numpy python3-scipy)")
    sys.exit(77)


# ---- the reader from docs/format.md ----

def crc32c(data: bytes) -> int:
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    c = 0xFFFFFFFF
    for b in data:
        c = table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def read_dod_csr(raw: bytes):
    head = np.frombuffer(raw, dtype="<u4", count=16)
    assert raw[:8] == b"\x89DODCSR\n" and head[2] == 1 and head[3] == 0
    assert head[4] == 64 and head[5] == 4 and head[6] == 4
    n_rows, n_items = int(head[7]), int(head[8])
    items_pos, trailer_pos = np.frombuffer(raw, dtype="<u8", count=2, offset=40)
    items_pos, trailer_pos = int(items_pos), int(trailer_pos)
    assert len(raw) == trailer_pos + 64
    assert int(head[15]) == crc32c(raw[:60])
    assert raw[trailer_pos:trailer_pos + 8] == b"\x89DODEND\n"
    item_bound = int(np.frombuffer(raw, dtype="<u8", count=1, offset=trailer_pos + 8)[0])
    file_crc = int(np.frombuffer(raw, dtype="<u4", count=1, offset=trailer_pos + 60)[0])
    assert file_crc == crc32c(raw[:trailer_pos + 60])
    offsets = np.frombuffer(raw, dtype="<u4", count=n_rows + 1, offset=64)
    items = np.frombuffer(raw, dtype="<u4", count=n_items, offset=items_pos)
    assert offsets[0] == 0 and offsets[-1] == n_items and np.all(np.diff(offsets.astype(np.int64)) >= 0)
    assert n_items == 0 or int(items.max()) < item_bound
    return offsets, items, item_bound


# ---- the test ----

COUNTS = {"passed": 0, "failed": 0}


def check(ok: bool, what: str) -> None:
    COUNTS["passed" if ok else "failed"] += 1
    if not ok:
        print(f"check failed: {what}")


def check_case(raw: bytes, keys_raw: bytes, name: str) -> None:
    n_rows, n_items = (int(v) for v in np.frombuffer(keys_raw, dtype="<u4", count=2))
    keys = np.frombuffer(keys_raw, dtype="<u4", count=n_items, offset=8)
    offsets, items, bound = read_dod_csr(raw)

    # The section layout the spec promises: 64-byte aligned sections, exact file length.
    items_pos = (64 + 4 * (n_rows + 1) + 63) // 64 * 64
    trailer_pos = (items_pos + 4 * n_items + 63) // 64 * 64
    check(len(raw) == trailer_pos + 64 and len(offsets) == n_rows + 1 and len(items) == n_items,
          f"{name}: layout as docs/format.md computes it")

    got = scipy.sparse.csr_matrix(
        (np.ones(n_items, dtype=np.float32), items.astype(np.int32), offsets.astype(np.int32)),
        shape=(n_rows, bound))
    # Independently: item i is column i of row keys[i].
    want = scipy.sparse.coo_matrix(
        (np.ones(n_items, dtype=np.float32), (keys.astype(np.int64), np.arange(n_items))),
        shape=(n_rows, n_items)).tocsr()
    want.sort_indices()
    check(got.shape == want.shape, f"{name}: shape {got.shape} == {want.shape}")
    check(got.shape == want.shape and (got != want).nnz == 0, f"{name}: the matrices are equal")
    check(np.array_equal(got.indptr, want.indptr) and np.array_equal(got.indices, want.indices),
          f"{name}: indptr and indices equal scipy's own CSR")

    # The reader is not vacuous: one flipped bit anywhere fails one of its checks.
    for pos in sorted({0, 30, 61, 64, len(raw) // 2, len(raw) - 70, len(raw) - 1}):
        if pos < 0 or pos >= len(raw):
            continue
        bad = bytearray(raw)
        bad[pos] ^= 0x10
        try:
            read_dod_csr(bytes(bad))
            refused = False
        except AssertionError:
            refused = True
        check(refused, f"{name}: a flipped bit at byte {pos} is refused")


def main() -> int:
    writer = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        n = int(subprocess.run(writer + [tmp], check=True, capture_output=True, text=True).stdout)
        for k in range(n):
            with open(os.path.join(tmp, f"case{k}.dod"), "rb") as f:
                raw = f.read()
            with open(os.path.join(tmp, f"case{k}.keys"), "rb") as f:
                keys_raw = f.read()
            check_case(raw, keys_raw, f"case{k}")
    print(f"interop_scipy: {COUNTS['passed']} passed, {COUNTS['failed']} failed")
    return 1 if COUNTS["failed"] or not COUNTS["passed"] else 0


if __name__ == "__main__":
    sys.exit(main())
