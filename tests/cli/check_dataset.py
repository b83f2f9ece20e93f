#!/usr/bin/python3
"""Checks a dataset written by `dlbench generate`: file counts, exact sizes, readability.

check_dataset.py DATA_FOLDER FORMAT N_TRAIN N_EVAL SAMPLES_PER_FILE D1 D2

Every data file must exist under its DLIO name with its exact size (for the formats whose size
does not depend on the content), load with numpy / h5py / PIL / pandas with the expected shape,
carry its companion files, and no partial file may remain; the completeness marker must say
complete. Exit 0 when all holds, 1 with the reasons otherwise.
"""
import json
import os
import struct
import sys

import h5py
import numpy as np

folder, fmt = sys.argv[1], sys.argv[2]
n_train, n_eval, n, d1, d2 = (int(v) for v in sys.argv[3:8])
S = d1 * d2
errors = []


def record_bytes(b):
    def vlen(x):
        k = 1
        while x >= 0x80:
            x >>= 7
            k += 1
        return k
    bl = 1 + vlen(b) + b
    fb = 1 + vlen(bl) + bl
    e1 = 7 + 1 + vlen(fb) + fb
    il = 1 + 1 + vlen(b)
    fi = 1 + vlen(il) + il
    e2 = 6 + 1 + vlen(fi) + fi
    f = (1 + vlen(e1) + e1) + (1 + vlen(e2) + e2)
    return 12 + 1 + vlen(f) + f + 4


def check_file(split, i, count):
    width = len(str(count))
    name = f"img_{i:0{width}d}_of_{count}.{fmt}"
    path = os.path.join(folder, split, name)
    if not os.path.isfile(path):
        errors.append(f"missing {path}")
        return
    size = os.path.getsize(path)
    expected = {
        "npy": 128 + n * S,
        "npz": 490 + n * S + 8 * n,
        "tfrecord": n * record_bytes(S),
        "indexed_binary": n * S,
    }.get(fmt)
    if expected is not None and size != expected:
        errors.append(f"{path}: {size} bytes, expected {expected}")
    if fmt == "npy":
        x = np.load(path)
        if x.shape != (d1, d2, n) or x.dtype != np.uint8:
            errors.append(f"{path}: shape {x.shape} dtype {x.dtype}")
    elif fmt == "npz":
        with np.load(path) as z:
            x, y = z["x"], z["y"]  # reading to the end verifies the CRC-32
            if x.shape != (d1, d2, n) or y.shape != (n,):
                errors.append(f"{path}: shapes {x.shape} {y.shape}")
    elif fmt == "hdf5":
        with h5py.File(path, "r") as h:
            x = h["records_0"][()]
            if x.shape != (n, d1, d2) or h["labels"].shape != (n,):
                errors.append(f"{path}: shapes {x.shape} {h['labels'].shape}")
    elif fmt == "tfrecord":
        with open(path, "rb") as f:
            data = f.read()
        offsets = []
        at = 0
        while at < len(data):
            (length,) = struct.unpack_from("<Q", data, at)
            offsets.append((at, length + 16))
            at += length + 16
        if len(offsets) != n or at != len(data):
            errors.append(f"{path}: {len(offsets)} records, expected {n}")
        idx = os.path.join(folder, "index", split, name + ".idx")
        want = "".join(f"{o} {l}\n" for o, l in offsets)
        if not os.path.isfile(idx) or open(idx).read() != want:
            errors.append(f"{idx}: missing or wrong DALI index")
    elif fmt in ("jpeg", "png"):
        from PIL import Image
        with Image.open(path) as image:
            if image.format != fmt.upper() or image.mode != "L" or image.size != (d2, d1):
                errors.append(f"{path}: PIL sees {image.format} {image.mode} {image.size}")
            image.load()  # decodes: a truncated file fails here
    elif fmt == "csv":
        import pandas as pd
        table = pd.read_csv(path, header=None)
        if table.shape != (n, S) or (table.to_numpy() > 255).any():
            errors.append(f"{path}: pandas sees {table.shape}")
    elif fmt == "indexed_binary":
        off = np.fromfile(path + ".off.idx", dtype="<u8")
        sz = np.fromfile(path + ".sz.idx", dtype="<u8")
        if not (len(off) == n and (off == np.arange(n) * S).all() and (sz == S).all()):
            errors.append(f"{path}: wrong index files")
    return path


paths = [check_file("train", i, n_train) for i in range(n_train)]
paths += [check_file("valid", i, n_eval) for i in range(n_eval)]

# Data files must differ from each other (content depends on the file).
contents = set()
for p in paths:
    if p and os.path.isfile(p):
        contents.add(open(p, "rb").read())
if len(contents) != len([p for p in paths if p]):
    errors.append("some data files have identical bytes")

for root, _, files in os.walk(folder):
    for f in files:
        if f.endswith(".dlbench-partial"):
            errors.append(f"partial file left: {os.path.join(root, f)}")
    data = [f for f in files if f.endswith("." + fmt)]
    split = os.path.basename(root)
    if split in ("train", "valid") and os.path.basename(os.path.dirname(root)) != "index":
        want = n_train if split == "train" else n_eval
        if len(data) != want:
            errors.append(f"{root}: {len(data)} .{fmt} files, expected {want}")

marker = os.path.join(folder, ".dlbench-dataset.json")
if not os.path.isfile(marker) or json.load(open(marker)).get("complete") is not True:
    errors.append(f"{marker}: missing or not complete")

for e in errors:
    print("check_dataset:", e)
print("check_dataset:", "OK" if not errors else f"{len(errors)} problem(s)")
sys.exit(1 if errors else 0)
