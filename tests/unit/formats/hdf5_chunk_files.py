#!/usr/bin/python3
"""Writes the HDF5 files of hdf5_chunks_test.cpp with h5py.

usage: hdf5_chunk_files.py PATH layouts C0,C1,C2:S ...   a new file: records_<j> for the j-th
                                                           argument, of shape (5, 7, 11), uint16
                                                           values 0, 1, 2, ... in C order, gzip,
                                                           chunks (C0, C1, C2), shuffle S (0/1)
       hdf5_chunk_files.py PATH bomb|short|cut|corrupt    chunk (1, 0, 0) of records_0 (dlbench's
                                                           gzip file of 6 x 6 uint8 samples)
                                                           replaced by hostile deflate bytes
       hdf5_chunk_files.py PATH huge                      records_0 rewritten with chunks of
                                                           1 x 16384 x 16384 (256 MiB)
"""
import sys
import zlib

import h5py
import numpy

path, mode = sys.argv[1], sys.argv[2]
if mode == "layouts":
    shape = (5, 7, 11)
    values = numpy.arange(5 * 7 * 11, dtype="<u2").reshape(shape)
    with h5py.File(path, "w") as f:
        for j, layout in enumerate(sys.argv[3:]):
            dims, shuffle = layout.split(":")
            chunks = tuple(int(c) for c in dims.split(","))
            maxshape = tuple(None if c > s else s for c, s in zip(chunks, shape))
            f.create_dataset(f"records_{j}", shape=shape, maxshape=maxshape, chunks=chunks,
                             dtype="<u2", compression="gzip", shuffle=shuffle == "1", data=values)
elif mode == "huge":
    # Declared only: the open refuses it before any chunk is read (nor written, which would
    # compress 256 MiB).
    with h5py.File(path, "r+") as f:
        del f["records_0"]
        f.create_dataset("records_0", shape=(3, 6, 6), maxshape=(None, None, None),
                         chunks=(1, 16384, 16384), dtype="u1", compression="gzip")
else:
    good = zlib.compress(bytes(range(36)))
    blob = {
        # 64 MiB of zeros in 64 KB: HDF5's filter would allocate and inflate all of it.
        "bomb": zlib.compress(bytes(1 << 26), 9),
        "short": zlib.compress(bytes(30)),
        "cut": good[:len(good) // 2],
        "corrupt": good[:2] + bytes(b ^ 0x55 for b in good[2:]),
    }[mode]
    with h5py.File(path, "r+") as f:
        f["records_0"].id.write_direct_chunk((1, 0, 0), blob)
