"""Interop of dlbench's format writers and readers with numpy, h5py, TFRecord, PIL and pandas.

Run by ctest as: formats_interop.py <interop_tool>. (a) Files written by interop_tool are read by
numpy / h5py / a pure-Python TFRecord reader that checks every length and CRC32C / PIL (jpeg,
png) / pandas (csv); the per-sample checksums must equal what interop_tool prints when it reads
the same file. (b) Files written by numpy / h5py / a Python TFRecord writer / PIL and pandas the
way DLIO's generators call them are read by interop_tool with the same checksums.
"""
import io
import os
import struct
import subprocess
import sys
import tempfile
from gzip import open as gzip_open

import h5py
import numpy as np
import pandas as pd
from PIL import Image

TOOL = sys.argv[1]
FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL:", message)


def fnv1a(data):
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def tool(*args):
    out = subprocess.run([TOOL] + [str(a) for a in args], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError("interop_tool %s failed: %s" % (args, out.stderr))
    return out.stdout


def tool_checksums(*args):
    return [line.split()[1] for line in tool("read", *args).splitlines()]


# --- CRC32C and a TFRecord codec, written independently of the C++ code.
def _crc32c_table():
    table = []
    for b in range(256):
        c = b
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


CRC_TABLE = _crc32c_table()


def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = (c >> 8) ^ CRC_TABLE[(c ^ b) & 0xFF]
    return c ^ 0xFFFFFFFF


def masked(data):
    c = crc32c(data)
    return ((((c >> 15) | (c << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def read_varint(buf, pos):
    value, shift = 0, 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7


def fields(buf):
    pos = 0
    while pos < len(buf):
        tag, pos = read_varint(buf, pos)
        wire = tag & 7
        if wire == 2:
            n, pos = read_varint(buf, pos)
            yield tag >> 3, buf[pos:pos + n]
            pos += n
        elif wire == 0:
            v, pos = read_varint(buf, pos)
            yield tag >> 3, v
        else:
            raise ValueError("unexpected wire type %d" % wire)


def decode_example(payload):
    features = {}
    for num, body in fields(payload):
        assert num == 1
        for num2, entry in fields(body):
            assert num2 == 1
            key, value = None, None
            for f, v in fields(entry):
                if f == 1:
                    key = bytes(v).decode()
                elif f == 2:
                    value = v
            for kind, lst in fields(value):
                if kind == 1:
                    features[key] = [bytes(v) for _, v in fields(lst)]
                elif kind == 3:
                    ints = []
                    for f, v in fields(lst):
                        if isinstance(v, int):
                            ints.append(v)
                        else:
                            p = 0
                            while p < len(v):
                                x, p = read_varint(v, p)
                                ints.append(x)
                    features[key] = ints
    return features


def read_tfrecord(path):
    data = open(path, "rb").read()
    pos, records = 0, []
    while pos < len(data):
        length_bytes = data[pos:pos + 8]
        (length,) = struct.unpack("<Q", length_bytes)
        (lcrc,) = struct.unpack("<I", data[pos + 8:pos + 12])
        check(lcrc == masked(length_bytes), "%s: length CRC at %d" % (path, pos))
        payload = data[pos + 12:pos + 12 + length]
        (dcrc,) = struct.unpack("<I", data[pos + 12 + length:pos + 16 + length])
        check(dcrc == masked(payload), "%s: data CRC at %d" % (path, pos))
        records.append((pos, length + 16, decode_example(payload)))
        pos += length + 16
    check(pos == len(data), "%s: trailing bytes" % path)
    return records


def encode_example_size_first(image):
    def entry(key, feature):
        body = b"\x0a" + varint(len(key)) + key + b"\x12" + varint(len(feature)) + feature
        return b"\x0a" + varint(len(body)) + body
    ints = varint(len(image))
    size_feature = b"\x1a" + varint(len(ints) + 2) + b"\x0a" + varint(len(ints)) + ints
    bl = b"\x0a" + varint(len(image)) + image
    image_feature = b"\x0a" + varint(len(bl)) + bl
    features = entry(b"size", size_feature) + entry(b"image", image_feature)
    return b"\x0a" + varint(len(features)) + features


def write_tfrecord(path, images):
    with open(path, "wb") as f:
        for image in images:
            payload = encode_example_size_first(image)
            length = struct.pack("<Q", len(payload))
            f.write(length + struct.pack("<I", masked(length)) + payload +
                    struct.pack("<I", masked(payload)))


def sample_last(x, k):
    return np.ascontiguousarray(x[..., k]).tobytes()


def ours_to_python(tmp):
    cases = [("uint8", 1, [6, 7]), ("uint8", 3, [5, 4]), ("float32", 2, [3, 5])]
    for dtype, n, dims in cases:
        for fmt, extra in (("npy", []), ("npz", []), ("npz", ["--zip"])):
            path = os.path.join(tmp, "ours_%s_%d.%s" % (dtype, n, fmt))
            tool("write", fmt, path, dtype, n, *dims, *extra)
            ours = tool_checksums(fmt, path, dtype, n, *dims)
            x = np.load(path) if fmt == "npy" else np.load(path)["x"]
            if fmt == "npz":
                y = np.load(path)["y"]
                check(y.dtype == np.int64 and y.shape == (n,) and not y.any(), path + ": labels")
            check(x.shape == tuple(dims) + (n,) and x.dtype == np.dtype(dtype),
                  "%s: numpy sees %s %s" % (path, x.shape, x.dtype))
            check([fnv1a(sample_last(x, k)) for k in range(n)] == ours, path + ": sample bytes")

        path = os.path.join(tmp, "ours_%s_%d.hdf5" % (dtype, n))
        tool("write", "hdf5", path, dtype, n, *dims, "--datasets", 2)
        ours = tool_checksums("hdf5", path, dtype, n, *dims, "--datasets", 2)
        with h5py.File(path, "r") as f:
            r0, r1 = f["records_0"], f["records_1"]
            check(r0.shape == (n, *dims) and r0.dtype == np.dtype(dtype), path + ": h5py shape")
            check(f["labels"].shape == (n,) and f["labels"].dtype == np.int64, path + ": labels")
            py = [fnv1a(r0[k].tobytes() + r1[k].tobytes()) for k in range(n)]
        check(py == ours, path + ": hdf5 sample bytes")

        path = os.path.join(tmp, "ours_%s_%d.tfrecord" % (dtype, n))
        index = path + ".idx"
        tool("write", "tfrecord", path, dtype, n, *dims, "--dali-index", index)
        ours = tool_checksums("tfrecord", path, dtype, n, *dims, "--verify")
        records = read_tfrecord(path)
        check(len(records) == n, path + ": record count")
        sample = int(np.prod(dims)) * np.dtype(dtype).itemsize
        for offset, length, feats in records:
            check(feats["size"] == [sample] and len(feats["image"][0]) == sample,
                  path + ": Example features")
        check([fnv1a(r[2]["image"][0]) for r in records] == ours, path + ": image bytes")
        lines = ["%d %d" % (o, l) for o, l, _ in records]
        check(open(index).read() == "".join(l + "\n" for l in lines), path + ": DALI index")


def ours_to_pil_and_pandas(tmp):
    for fmt, dims in (("jpeg", [48, 80]), ("png", [48, 80]), ("jpeg", [1, 7]), ("png", [300, 2])):
        path = os.path.join(tmp, "ours_%dx%d.%s" % (dims[0], dims[1], fmt))
        tool("write", fmt, path, "uint8", 1, *dims)
        ours = tool_checksums(fmt, path, "uint8", 1, *dims)
        with Image.open(path) as image:
            check(image.format == fmt.upper() and image.mode == "L" and
                  image.size == (dims[1], dims[0]),
                  "%s: PIL sees %s %s %s" % (path, image.format, image.mode, image.size))
            pixels = np.asarray(image)
        # Both decode with libjpeg-turbo's default (islow) IDCT: the same pixels, not just close.
        check([fnv1a(pixels.tobytes())] == ours, path + ": PIL's pixels differ from dlbench's")
    # Assembled jpeg files (dataset.content.encoding: assembled): PIL opens and decodes every
    # size, odd ones and those ending with a short last segment included, to dlbench's pixels.
    for dims in ([568, 568], [37, 300], [1, 1], [9, 1], [1, 1000], [7, 13]):
        path = os.path.join(tmp, "ours_assembled_%dx%d.jpeg" % tuple(dims))
        tool("write", "jpeg", path, "uint8", 1, *dims, "--assembled")
        ours = tool_checksums("jpeg", path, "uint8", 1, *dims)
        with Image.open(path) as image:
            check(image.format == "JPEG" and image.mode == "L" and image.size == (dims[1], dims[0]),
                  "%s: PIL sees %s %s %s" % (path, image.format, image.mode, image.size))
            pixels = np.asarray(image)
        check([fnv1a(pixels.tobytes())] == ours, path + ": PIL's pixels differ from dlbench's")
        if pixels.size >= 4096:
            check(abs(pixels.mean() - 127.5) < 3 and pixels.std() > 60,
                  "%s: not noise (mean %.1f, deviation %.1f)" % (path, pixels.mean(), pixels.std()))
    # Assembled png files: PIL verifies every chunk's CRC, opens and decodes every size (widths
    # 1 and 7, odd heights) to dlbench's pixels, and sees the tEXt chunk that makes files differ.
    for dims in ([568, 568], [37, 300], [1, 1], [9, 1], [1, 1000], [7, 13], [13, 7]):
        path = os.path.join(tmp, "ours_assembled_%dx%d.png" % tuple(dims))
        tool("write", "png", path, "uint8", 1, *dims, "--assembled")
        ours = tool_checksums("png", path, "uint8", 1, *dims)
        with Image.open(path) as image:
            image.verify()
        with Image.open(path) as image:
            check(image.format == "PNG" and image.mode == "L" and image.size == (dims[1], dims[0]),
                  "%s: PIL sees %s %s %s" % (path, image.format, image.mode, image.size))
            pixels = np.asarray(image)
            check(len(image.info.get("dlbench", "")) == 16, path + ": no dlbench tEXt chunk")
        check([fnv1a(pixels.tobytes())] == ours, path + ": PIL's pixels differ from dlbench's")
        if pixels.size >= 4096:
            check(abs(pixels.mean() - 127.5) < 3 and pixels.std() > 70,
                  "%s: not noise (mean %.1f, deviation %.1f)" % (path, pixels.mean(), pixels.std()))
    # Assembled csv (dataset.content.encoding: assembled): lines put together from pre-formatted
    # pieces, plain and gzip (pre-deflated pieces, one gzip member): the same checks, every type,
    # lines shorter than, equal to and longer than a main piece (16,384 uint8 values), and
    # `gzip -t` accepts the gzip files. (No uint64: pandas reads a column of values on both sides
    # of 2^63 as floats, whatever wrote them.)
    cases = [(dtype, n, dims, gzip, False) for dtype, n, dims, gzip in (
        ("uint8", 3, [4, 5], False), ("int16", 2, [7], False), ("float32", 3, [2, 3], False),
        ("float64", 2, [5], False), ("uint8", 4, [16, 16], True), ("uint8", 2, [40, 30], False),
        ("int64", 2, [9], False))]
    cases += [(dtype, n, dims, gzip, True) for dtype, n, dims, gzip in (
        ("uint8", 1, [1], False), ("uint8", 3, [4, 5], True), ("uint8", 2, [128, 128], False),
        ("uint8", 1, [170, 170], True), ("int8", 2, [20000], True), ("int16", 2, [9000], False),
        ("uint16", 2, [7], True), ("int32", 2, [5000], False), ("uint32", 3, [4], True),
        ("int64", 2, [3000], True), ("uint8", 2, [16384], False), ("float32", 2, [5000], True),
        ("float64", 2, [3000], False), ("float64", 3, [2, 3], True))]
    for dtype, n, dims, gzip, assembled in cases:
        path = os.path.join(tmp, "ours_%s%s_%d_%d.csv%s" % ("assembled_" if assembled else "",
                                                            dtype, n, dims[0],
                                                            ".gz" if gzip else ""))
        tool("write", "csv", path, dtype, n, *dims, *(["--gzip"] if gzip else []),
             *(["--assembled"] if assembled else []))
        if gzip:
            result = subprocess.run(["gzip", "-t", path], capture_output=True, text=True)
            check(result.returncode == 0, "%s: gzip -t: %s" % (path, result.stderr.strip()))
        ours = tool_checksums("csv", path, dtype, n, *dims)
        # DLIO's reader call (no header); round_trip because pandas' default float parser may
        # miss a float64 by an ulp, whatever wrote the text.
        table = pd.read_csv(path, header=None, compression="infer", float_precision="round_trip")
        check(table.shape == (n, int(np.prod(dims))), "%s: pandas sees %s" % (path, table.shape))
        rows = table.to_numpy().astype(dtype)
        check([fnv1a(rows[k].tobytes()) for k in range(n)] == ours, path + ": values differ")
        # The bytes too, not only the values: what DLIO's writer, to_csv, makes of the same rows.
        with (gzip_open if gzip else open)(path, "rb") as f:
            text = f.read()
        pandas_text = pd.DataFrame(data=list(rows)).to_csv(index=False, header=False).encode()
        check(text == pandas_text, "%s: not pandas' text (%r... against %r...)"
              % (path, text[:60], pandas_text[:60]))


def png_image_data(data):
    """The zlib stream of a PNG: its IDAT chunks' data joined (chunk sizes are the encoder's)."""
    pos, stream = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            stream += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    return stream


def ours_are_pils_encoding(tmp):
    # DLIO's images are PIL's encodings; dlbench's use the same libraries with PIL's settings, so
    # they are the same bytes: the whole JPEG, and the PNG's image data (libpng cuts it into
    # 8 KiB IDAT chunks, PIL into 64 KiB ones). 200 x 300: large enough that libpng keeps zlib's
    # full 32 KiB window (it shrinks it for images under 16 KiB).
    dims = [200, 300]
    raw = os.path.join(tmp, "pixels.bin")
    tool("payload", raw, dims[0] * dims[1])
    image = Image.fromarray(np.fromfile(raw, dtype=np.uint8).reshape(dims))
    for fmt in ("jpeg", "png"):
        path = os.path.join(tmp, "as_pil_%dx%d.%s" % (dims[0], dims[1], fmt))
        tool("write", fmt, path, "uint8", 1, *dims)
        with open(path, "rb") as f:
            ours = f.read()
        pil = io.BytesIO()
        image.save(pil, format=fmt.upper())
        pil = pil.getvalue()
        if fmt == "png":
            ours, pil = png_image_data(ours), png_image_data(pil)
        check(ours == pil, "%s: %d bytes, PIL's encoding of the same pixels %d bytes, first "
              "difference at %d" % (path, len(ours), len(pil),
                                    next((i for i, (a, b) in enumerate(zip(ours, pil)) if a != b),
                                         min(len(ours), len(pil)))))


def pil_and_pandas_to_ours(tmp):
    rng = np.random.default_rng(11)
    for dims in ([33, 65], [1, 1], [200, 3]):
        # DLIO's jpeg_generator / png_generator: randint(255) uint8, PIL mode L, PIL defaults.
        records = rng.integers(0, 255, size=dims, dtype=np.uint8)
        image = Image.fromarray(records)
        png = os.path.join(tmp, "pil_%dx%d.png" % tuple(dims))
        image.save(png, format="PNG")
        check(tool_checksums("png", png, "uint8", 1, *dims) == [fnv1a(records.tobytes())], png)
        jpeg = os.path.join(tmp, "pil_%dx%d.jpeg" % tuple(dims))
        image.save(jpeg, format="JPEG", bits=8)
        with Image.open(jpeg) as decoded:
            expected = [fnv1a(np.asarray(decoded).tobytes())]
        check(tool_checksums("jpeg", jpeg, "uint8", 1, *dims) == expected, jpeg)
    rgb = os.path.join(tmp, "pil_rgb.png")
    Image.new("RGB", (4, 3)).save(rgb)
    out = subprocess.run([TOOL, "read", "png", rgb, "uint8", "1", "3", "4"], capture_output=True,
                         text=True)
    check(out.returncode == 3 and "color type 2" in out.stderr, rgb + ": RGB not refused")

    # DLIO's csv_generator: DataFrame(rows).to_csv(index=False, header=False[, compression]).
    for dtype, n, dims in (("uint8", 3, [4, 6]), ("int32", 2, [5]), ("float32", 2, [3]),
                           ("float64", 3, [2, 2])):
        x = rng.random((n, int(np.prod(dims))))
        x = (x * 200).astype(dtype) if dtype.startswith(("u", "i")) else x.astype(dtype)
        expected = [fnv1a(x[k].tobytes()) for k in range(n)]
        for suffix, compression in (("", None), (".gz", "gzip")):
            path = os.path.join(tmp, "pandas_%s_%d.csv%s" % (dtype, n, suffix))
            pd.DataFrame(data=list(x)).to_csv(path, compression=compression, index=False,
                                              header=False)
            check(tool_checksums("csv", path, dtype, n, *dims) == expected, path)


def python_to_ours(tmp):
    rng = np.random.default_rng(7)
    for dtype, n, dims in (("uint8", 1, [9, 8]), ("uint8", 4, [6, 5]), ("float32", 3, [4, 4])):
        x = (rng.random(tuple(dims) + (n,)) * 200).astype(dtype)
        expected = [fnv1a(sample_last(x, k)) for k in range(n)]
        path = os.path.join(tmp, "numpy_%s_%d.npy" % (dtype, n))
        np.save(path, x)
        check(tool_checksums("npy", path, dtype, n, *dims) == expected, path)
        for save in (np.savez, np.savez_compressed):
            path = os.path.join(tmp, "numpy_%s_%d_%s.npz" % (dtype, n, save.__name__))
            save(path, x=x, y=np.zeros(n, np.int64))
            check(tool_checksums("npz", path, dtype, n, *dims) == expected, path)

        records = np.moveaxis(x, -1, 0).copy()  # sample-first for hdf5
        expected = [fnv1a(records[k].tobytes()) for k in range(n)]
        # Shuffle and fletcher32 too: dlbench decodes them itself, with gzip (hdf5_chunks.h).
        for chunks, compression, shuffle, fletcher32 in (
                (None, None, False, False), ((1, *dims), "gzip", False, False),
                ((1, *dims), "gzip", True, True), ((1, *dims), None, True, True)):
            path = os.path.join(tmp, "h5py_%s_%d_%s_%d%d.hdf5" %
                                (dtype, n, compression, shuffle, fletcher32))
            with h5py.File(path, "w", libver="latest") as f:
                f.create_dataset("records_0", data=records, chunks=chunks, compression=compression,
                                 shuffle=shuffle, fletcher32=fletcher32)
                f.create_dataset("labels", data=np.zeros(n, np.int64))
            check(tool_checksums("hdf5", path, dtype, n, *dims) == expected, path)

        path = os.path.join(tmp, "python_%s_%d.tfrecord" % (dtype, n))
        write_tfrecord(path, [records[k].tobytes() for k in range(n)])
        check(tool_checksums("tfrecord", path, dtype, n, *dims, "--verify") == expected, path)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        ours_to_python(tmp)
        python_to_ours(tmp)
        ours_to_pil_and_pandas(tmp)
        ours_are_pils_encoding(tmp)
        pil_and_pandas_to_ours(tmp)
    if FAILURES:
        print("%d interop failures" % len(FAILURES))
        sys.exit(1)
    print("interop ok")


if __name__ == "__main__":
    main()
