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
       hdf5_chunk_files.py PATH pipelines ORDER ...       a new file: records_<j> as in layouts,
                                                           chunks (2, 3, 5), filtered in the j-th
                                                           ORDER (writing order; s shuffle, g gzip,
                                                           f fletcher32), through h5py's low-level
                                                           API
       hdf5_chunk_files.py PATH fletcher-bomb|fletcher-damaged|szip|nbit|scaleoffset|lzf
                                                           records_0 (dlbench's gzip file of 6 x 6
                                                           uint8 samples) rewritten with gzip and
                                                           fletcher32, its chunk (1, 0, 0) then a
                                                           bomb with a valid checksum or one byte
                                                           changed; or with that filter
"""
import struct
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
elif mode == "pipelines":
    shape = (5, 7, 11)
    values = numpy.arange(5 * 7 * 11, dtype="<u2").reshape(shape)
    with h5py.File(path, "w") as f:
        for j, order in enumerate(sys.argv[3:]):
            dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
            dcpl.set_chunk((2, 3, 5))
            for c in order:
                {"s": dcpl.set_shuffle, "g": lambda: dcpl.set_deflate(6),
                 "f": dcpl.set_fletcher32}[c]()
            space = h5py.h5s.create_simple(shape)
            dset = h5py.h5d.create(f.id, f"records_{j}".encode(), h5py.h5t.STD_U16LE, space,
                                   dcpl=dcpl)
            dset.write(h5py.h5s.ALL, h5py.h5s.ALL, values)
elif mode in ("fletcher-bomb", "fletcher-damaged", "szip", "nbit", "scaleoffset", "lzf"):

    def fletcher32(data):  # H5checksum.c's, as HDF5 appends it (little-endian)
        def fold(x):
            return (x & 0xFFFF) + (x >> 16)

        sum1 = sum2 = 0
        words = len(data) // 2
        i = 0
        while words:
            run = min(words, 360)
            words -= run
            for _ in range(run):
                sum1 += data[i] << 8 | data[i + 1]
                sum2 += sum1
                i += 2
            sum1, sum2 = fold(sum1), fold(sum2)
        if len(data) % 2:
            sum1 += data[i] << 8
            sum2 += sum1
            sum1, sum2 = fold(sum1), fold(sum2)
        return struct.pack("<I", fold(sum2) << 16 | fold(sum1))

    with h5py.File(path, "r+") as f:
        values = f["records_0"][...]
        del f["records_0"]
        if mode in ("fletcher-bomb", "fletcher-damaged"):
            d = f.create_dataset("records_0", data=values, chunks=(1, 6, 6), compression="gzip",
                                 fletcher32=True)
            if mode == "fletcher-bomb":
                bomb = zlib.compress(bytes(1 << 26), 9)
                d.id.write_direct_chunk((1, 0, 0), bomb + fletcher32(bomb))
            else:
                _, stored = d.id.read_direct_chunk((1, 0, 0))
                d.id.write_direct_chunk((1, 0, 0), stored[:3] + bytes([stored[3] ^ 1]) + stored[4:])
        elif mode == "nbit":
            dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
            dcpl.set_chunk((1, 6, 6))
            dcpl.set_filter(h5py.h5z.FILTER_NBIT)
            dset = h5py.h5d.create(f.id, b"records_0", h5py.h5t.STD_U8LE,
                                   h5py.h5s.create_simple(values.shape), dcpl=dcpl)
            dset.write(h5py.h5s.ALL, h5py.h5s.ALL, values)
        else:
            options = {"szip": {"compression": "szip"}, "scaleoffset": {"scaleoffset": 0},
                       "lzf": {"compression": "lzf"}}[mode]
            f.create_dataset("records_0", data=values, chunks=(1, 6, 6), **options)
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
