#!/usr/bin/python3
"""Compares the HDF5 files of two dataset folders written with the same seed (e.g. one by a single
rank with serial HDF5, one shared by several ranks with parallel HDF5): same file names, same
datasets with the same shapes, types, chunking and filters, identical contents.
Usage: compare_hdf5.py FOLDER_A FOLDER_B. Prints "compare_hdf5: OK" or the differences."""
import os
import sys

import h5py
import numpy as np


def files(folder):
    found = {}
    for root, _, names in os.walk(folder):
        for name in names:
            if name.endswith((".h5", ".hdf5")):
                path = os.path.join(root, name)
                found[os.path.relpath(path, folder)] = path
    return found


def main():
    a, b = files(sys.argv[1]), files(sys.argv[2])
    errors = []
    if not a:
        errors.append(f"{sys.argv[1]}: no hdf5 files")
    if sorted(a) != sorted(b):
        errors.append(f"different files: {sorted(a)} vs {sorted(b)}")
    for rel in sorted(set(a) & set(b)):
        with h5py.File(a[rel], "r") as fa, h5py.File(b[rel], "r") as fb:
            if sorted(fa.keys()) != sorted(fb.keys()):
                errors.append(f"{rel}: datasets {sorted(fa.keys())} vs {sorted(fb.keys())}")
                continue
            for name in fa.keys():
                da, db = fa[name], fb[name]
                for attr in ("shape", "dtype", "chunks", "compression", "compression_opts",
                             "maxshape"):
                    if getattr(da, attr) != getattr(db, attr):
                        errors.append(f"{rel}/{name}: {attr} {getattr(da, attr)} vs "
                                      f"{getattr(db, attr)}")
                xa, xb = da[()], db[()]
                if xa.shape != xb.shape or not np.array_equal(xa, xb):
                    errors.append(f"{rel}/{name}: contents differ")
                elif name.startswith("records") and xa.size > 0 and not xa.any():
                    errors.append(f"{rel}/{name}: all zeros (nothing was written)")
    for e in errors:
        print(e)
    print("compare_hdf5: " + ("FAILED" if errors else "OK"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
