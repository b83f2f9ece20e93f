#!/usr/bin/python3
"""Checks the byte counts of a `dlbench run` against the dataset on disk.

    check_summary.py OUTPUT_FOLDER [--skipped N] [--kernel STRACE_PREFIX]

Reads OUTPUT_FOLDER/config.yaml (the resolved configuration) and summary.json, derives from the
configuration how many samples each phase reads (every rank reads floor(floor(N/P)/b) batches of
b samples per epoch, sharding_remainder and partial batches unread) and from the data files what
each sample costs in bytes read from storage, per format (see each reader's header in
src/formats/):

  npy / npz       open: the .npy header (npz: one read from the central directory to the end
                  of the file — directory, [zip64 end record and locator,] end record — and one
                  of x.npy's 30-byte local header with its name, extra and npy header); per
                  sample: the sample when the file holds one, else the whole sample-last array
                  (it is strided).
  tfrecord        streamed (files stay open): each file is read whole through the transfer
                  buffer by the one reader thread of the rank that consumes it (even when its
                  records span several batches); a shared file once per rank per epoch.
  hdf5            what the kernel served: the bytes that read/pread64/readv/preadv returned for
                  the split's data files, summed from the run's system-call log (--kernel: the
                  prefix of `strace -ff -y -s 0 -o PREFIX` files). HDF5 decides what it reads
                  (superblock, object headers, B-trees, a sieve buffer of up to 64 KiB per
                  contiguous dataset), and dlbench reads through it, so the two must be equal.
  indexed_binary  open: both index files (8 bytes per sample each); per sample: the sample.
  mmap_indexed_binary  as indexed_binary (page faults are reported as the sample bytes).
  synthetic       nothing.
  parquet         open: the last min(size, 64 KiB) bytes (footer and offset indexes) and the
                  4-byte leading magic; per sample: for each column with read: true, the data
                  page (header included) that holds the sample's row, found through the offset
                  index (decoded here with a small Thrift compact parser of its own).
  csv / jpeg / png  the whole file for every sample (the test reads every sample once per pass;
                  file sizes depend on the content, so their sum is used).

Every format but synthetic must also report <phase>_decoded_bytes = samples x the sample's
bytes (csv, jpeg and png decode to it).

With reader.odirect every read of a data file is rounded out to 4 KiB blocks (the last one short
at the end of the file; src/formats/io/direct_file.h), a read inside the blocks the file's previous
read fetched costs nothing, and each sample is fetched afresh: npy opens with block 0 and npz
with its directory walk replayed through the blocks; indexed_binary's indexes are read normally.

With --skipped N (a run with reader.on_error: skip over corrupt data), only the sample counts
and train_samples_skipped_on_error = N are checked. Reading on_demand (every sample opens its file) is assumed for the index-order formats. Prints
`check_summary: OK` or the mismatches, and exits 1 on a mismatch.
"""
import glob
import json
import os
import re
import struct
import sys

import yaml


def fail(msg):
    print("check_summary: FAIL: " + msg)
    sys.exit(1)


def npy_header_length(data, where):
    if data[:6] != b"\x93NUMPY":
        fail(where + ": not an npy header")
    major = data[6]
    if major == 1:
        return 10 + struct.unpack("<H", data[8:10])[0]
    return 12 + struct.unpack("<I", data[8:12])[0]


def npz_open_bytes(path):
    """Bytes the reader fetches to open an uncompressed .npz: see the module docstring."""
    with open(path, "rb") as f:
        blob = f.read()
    size = len(blob)
    end = blob[size - 22:]
    if end[:4] != b"PK\x05\x06":
        fail(path + ": no end record in the last 22 bytes (a comment?)")
    cd_size, cd_offset = struct.unpack("<II", end[12:20])
    loc = blob[size - 22 - 20:size - 22]
    if loc[:4] == b"PK\x06\x07":
        end64 = struct.unpack("<Q", loc[8:16])[0]
        rec = blob[end64:end64 + 56]
        cd_size, cd_offset = struct.unpack("<QQ", rec[40:56])
    opened = size - cd_offset
    # The x.npy entry of the central directory: its local header offset.
    p = cd_offset
    local = None
    while p < cd_offset + cd_size:
        name_len, extra_len, comment_len = struct.unpack("<HHH", blob[p + 28:p + 34])
        name = blob[p + 46:p + 46 + name_len]
        local_offset = struct.unpack("<I", blob[p + 42:p + 46])[0]
        if local_offset == 0xFFFFFFFF:
            fail(path + ": zip64 local offsets are not expected in a test dataset")
        if name == b"x.npy":
            local = local_offset
            break
        p += 46 + name_len + extra_len + comment_len
    if local is None:
        fail(path + ": no x.npy member")
    name_len, extra_len = struct.unpack("<HH", blob[local + 26:local + 30])
    member = local + 30 + name_len + extra_len
    header = npy_header_length(blob[member:member + 16], path)
    opened += member + header - local
    return opened, header


BLOCK = 4096


class DirectReads:
    """Replays reads of a file of `size` bytes as O_DIRECT through one staging window."""

    def __init__(self, size):
        self.size, self.window, self.fetched = size, (0, 0), 0

    def read(self, offset, length):
        end = min(offset + length, self.size)
        if offset >= end or (self.window[0] <= offset and end <= self.window[1]):
            return
        lo, hi = offset - offset % BLOCK, min(-(-end // BLOCK) * BLOCK, self.size)
        self.fetched += hi - lo
        self.window = (lo, hi)


def npz_direct_open_bytes(path):
    """The reads of npz_open_bytes, in the reader's order, through O_DIRECT blocks."""
    with open(path, "rb") as f:
        blob = f.read()
    size = len(blob)
    d = DirectReads(size)
    end = blob[size - 22:]
    if end[:4] != b"PK\x05\x06":
        fail(path + ": no end record in the last 22 bytes (a comment?)")
    cd_size, cd_offset = struct.unpack("<II", end[12:20])
    if blob[size - 42:size - 38] == b"PK\x06\x07":
        end64 = struct.unpack("<Q", blob[size - 34:size - 26])[0]
        cd_size, cd_offset = struct.unpack("<QQ", blob[end64 + 40:end64 + 56])
    d.read(cd_offset, size - cd_offset)
    _, header = npz_open_bytes(path)
    local = struct.unpack("<I", blob[cd_offset + 42:cd_offset + 46])[0]  # x.npy comes first
    name_len, extra_len = struct.unpack("<HH", blob[local + 26:local + 30])
    member = local + 30 + name_len + extra_len
    d.read(local, member + header - local)
    return d.fetched, member + header, size


def direct_blocks(begin, end, size):
    """Bytes O_DIRECT fetches to cover [begin, end) of a file of `size` bytes."""
    return min(-(-end // BLOCK) * BLOCK, size) - begin // BLOCK * BLOCK


def _varint(buf, pos):
    value = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def _thrift_value(buf, pos, kind):
    """One Thrift compact value: structs as {field id: value}, lists as lists."""
    if kind in (1, 2):
        return kind == 1, pos
    if kind == 3:
        return buf[pos], pos + 1
    if kind in (4, 5, 6):
        v, pos = _varint(buf, pos)
        return (v >> 1) ^ -(v & 1), pos
    if kind == 8:
        n, pos = _varint(buf, pos)
        return buf[pos:pos + n], pos + n
    if kind == 9:
        header = buf[pos]
        pos += 1
        n, element = header >> 4, header & 0x0F
        if n == 15:
            n, pos = _varint(buf, pos)
        items = []
        for _ in range(n):
            if element in (1, 2):
                items.append(buf[pos] == 1)
                pos += 1
            else:
                item, pos = _thrift_value(buf, pos, element)
                items.append(item)
        return items, pos
    if kind == 12:
        fields, last = {}, 0
        while True:
            header = buf[pos]
            pos += 1
            if header == 0:
                return fields, pos
            if header >> 4:
                last += header >> 4
            else:
                v, pos = _varint(buf, pos)
                last = (v >> 1) ^ -(v & 1)
            fields[last], pos = _thrift_value(buf, pos, header & 0x0F)
    fail("thrift type %d in a parquet footer" % kind)


def parquet_costs(path, columns):
    """(bytes read at open, [bytes read per row]) for dlbench's Parquet reader."""
    with open(path, "rb") as f:
        data = f.read()
    size = len(data)
    footer = size - 8 - struct.unpack("<I", data[-8:-4])[0]
    meta, _ = _thrift_value(data, footer, 12)
    tail = min(size, 64 * 1024)
    opened = tail + 4
    if footer < size - tail:
        opened += size - footer
    lowest = min(c[4] for g in meta[4] for c in g[1])
    if lowest < min(footer, size - tail):
        opened += min(footer, size - tail) - lowest
    read = [c.get("read", True) for c in columns] if columns else [True]
    rows = []
    for group in meta[4]:
        chunks = [c for c, r in zip(group[1], read) if r]
        for row in range(group[3]):
            cost = 0
            for chunk in chunks:
                pages, _ = _thrift_value(data, chunk[4], 12)
                cost += [p[2] for p in pages[1] if p[3] <= row][-1]
            rows.append(cost)
    return opened, rows


READ_CALL = re.compile(r"^(?:read|pread64|readv|preadv|preadv2)\(\d+<(.*?)>, .*\)\s+=\s+(\d+)$")


def kernel_read_bytes(prefix, folder, split):
    """Bytes the kernel returned to reads of the data files in folder/split (and subfolders)."""
    where = os.path.realpath(os.path.join(folder, split))
    files = glob.glob(prefix + ".*")
    if not files:
        fail("no system-call log %s.*" % prefix)
    total = 0
    for name in files:
        with open(name, errors="replace") as f:
            for line in f:
                m = READ_CALL.match(line.rstrip("\n"))
                path = m.group(1) if m else ""
                # Not the writer's partial files (".<name>.dlbench-partial") of a `dlbench run`.
                inside = (os.path.dirname(path) + "/").startswith(where + "/")
                if inside and not os.path.basename(path).startswith("."):
                    total += int(m.group(2))
    return total


def first_file(folder, split):
    top = os.path.join(folder, split)  # data files, in the split's subfolders too
    names = sorted(os.path.relpath(os.path.join(d, n), top) for d, _, ns in os.walk(top)
                   for n in ns if not n.endswith(".idx"))
    if not names:
        fail("no files in " + os.path.join(folder, split))
    return os.path.join(folder, split, names[0]), names


def per_phase(cfg, ranks, phase):
    ds, rd, tr = cfg["dataset"], cfg["reader"], cfg["train"]
    files = ds["num_files_train"] if phase == "train" else ds["num_files_eval"]
    spf = ds["num_samples_per_file"]
    batch = rd["batch_size"] if phase == "train" else rd["batch_size_eval"]
    n = files * spf
    steps = (n // ranks) // batch
    cap = tr.get("total_training_steps", -1)
    if phase == "train" and cap is not None and cap > 0:
        steps = min(steps, cap)
    epochs = tr["epochs"]
    if phase == "train":
        passes = epochs
    else:
        ev = cfg["evaluation"]
        passes = 0
        if cfg["workflow"]["evaluation"]:
            passes = sum(1 for e in range(1, epochs + 1)
                         if e >= ev["eval_after_epoch"]
                         and (e - ev["eval_after_epoch"]) % ev["epochs_between_evals"] == 0)
    return n, files, spf, ranks * batch * steps, passes


ITEMSIZE = {"uint8": 1, "int8": 1, "uint16": 2, "int16": 2, "float16": 2, "uint32": 4, "int32": 4,
            "float32": 4, "uint64": 8, "int64": 8, "float64": 8}


def sample_bytes(cfg):
    """Bytes of one sample as read: record_dims' product, else int(sqrt(record_length_bytes))^2;
    for parquet with dataset.parquet.columns, the columns read (read: true)."""
    ds = cfg["dataset"]
    columns = (ds.get("parquet") or {}).get("columns")
    if ds["format"] == "parquet" and columns:
        return sum(c["size"] * ITEMSIZE[c.get("dtype", "float32")] for c in columns
                   if c.get("read", True))
    itemsize = ITEMSIZE[ds["record_element_type"]]
    dims = ds.get("record_dims") or [int(ds["record_length_bytes"] ** 0.5)] * 2
    product = 1
    for d in dims:
        product *= d
    return product * itemsize


def expected_bytes(cfg, ranks, phase, read_per_pass, passes, files, kernel):
    ds = cfg["dataset"]
    fmt = ds["format"]
    spf = ds["num_samples_per_file"]
    folder = ds["data_folder"]
    split = "train" if phase == "train" else "valid"
    if fmt == "synthetic":
        return 0
    if fmt == "hdf5":
        if kernel is None:
            fail("hdf5 runs are checked against the kernel: run under strace, pass --kernel")
        return kernel_read_bytes(kernel, folder, split)
    path, names = first_file(folder, split)
    if fmt == "parquet":
        # gzip makes every file's pages differ: each pass reads every sample of every file once.
        if read_per_pass != files * spf:
            fail("parquet runs are checked when every sample is read in each pass")
        columns = (ds.get("parquet") or {}).get("columns")
        total = 0
        for name in names:
            opened, rows = parquet_costs(os.path.join(folder, split, name), columns)
            total += sum(opened + row for row in rows)
        return passes * total
    if fmt in ("csv", "jpeg", "png"):
        if read_per_pass != files * spf:
            fail("%s is checked with every sample read in every pass" % fmt)
        total = sum(os.path.getsize(os.path.join(folder, split, n)) for n in names)
        return passes * spf * total  # O_DIRECT too: the last block of a file comes back short
    sizes = {os.path.getsize(os.path.join(folder, split, n)) for n in names}
    if len(sizes) != 1:
        fail("files of %s differ in size: %s" % (split, sorted(sizes)))
    size = sizes.pop()
    sample = sample_bytes(cfg)  # int(sqrt(record_length_bytes))^2 unless record_dims
    unit = sample if spf == 1 else spf * sample  # sample-last arrays: strided beyond one sample
    samples = read_per_pass * passes
    if cfg["reader"].get("odirect"):
        if fmt == "npy":
            with open(path, "rb") as f:
                header = npy_header_length(f.read(16), path)
            return samples * (min(BLOCK, size) + direct_blocks(header, header + unit, size))
        if fmt == "npz":
            opened, data, size = npz_direct_open_bytes(path)
            return samples * (opened + direct_blocks(data, data + unit, size))
        if fmt == "indexed_binary":
            if sample % BLOCK != 0:
                fail("indexed_binary with odirect is checked with samples of whole blocks")
            return samples * (16 * spf + sample)
        fail("no odirect expectation for format " + fmt)
    if fmt == "npy":
        with open(path, "rb") as f:
            header = npy_header_length(f.read(16), path)
        return samples * (min(12, header) + max(header - 12, 0) + unit)
    if fmt == "npz":
        opened, _ = npz_open_bytes(path)
        return samples * (opened + unit)
    if fmt in ("indexed_binary", "mmap_indexed_binary"):
        index = os.path.getsize(path + ".off.idx") + os.path.getsize(path + ".sz.idx")
        if index != 16 * spf:
            fail("%s: index files hold %d bytes, expected 16 x %d" % (path, index, spf))
        return samples * (index + sample)
    if fmt == "tfrecord":
        transfer = cfg["reader"].get("transfer_size") or 256 * 1024
        if size > transfer:
            fail("tfrecord test files must fit the %d-byte transfer buffer" % transfer)
        if files == 1:
            if cfg["reader"]["read_threads"] > 1:
                fail("a shared tfrecord file is checked with read_threads <= 1")
            return passes * ranks * size
        # One reader thread streams each file the rank consumes, whatever the batch size, so
        # each rank's shard must hold whole files.
        n = files * spf
        if (n // ranks) % spf != 0 or (read_per_pass // ranks) % spf != 0:
            fail("tfrecord files must be consumed whole by one rank in this check")
        return samples // spf * size
    fail("no expectation for format " + fmt)


def main():
    args = sys.argv[1:]
    skipped = None
    kernel = None
    while len(args) >= 3 and args[-2] in ("--skipped", "--kernel"):
        if args[-2] == "--skipped":
            skipped = int(args[-1])
        else:
            kernel = args[-1]
        args = args[:-2]
    if len(args) != 1:
        fail("usage: check_summary.py OUTPUT_FOLDER [--skipped N] [--kernel STRACE_PREFIX]")
    out = args[0]
    with open(os.path.join(out, "config.yaml")) as f:
        cfg = yaml.safe_load(f)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    metric = summary["metric"]
    ranks = summary["num_accelerators"]
    record = cfg["dataset"]["record_length_bytes"]
    problems = []
    for phase in ("train", "eval"):
        n, files, _, read_per_pass, passes = per_phase(cfg, ranks, phase)
        if passes == 0:
            if phase + "_read_bytes" in metric:
                problems.append(phase + ": metrics present without a pass")
            continue
        samples = read_per_pass * passes
        want = {phase + "_sample_read_latency_count": samples}
        if skipped is None:
            want[phase + "_nominal_bytes"] = samples * record
            want[phase + "_read_bytes"] = expected_bytes(cfg, ranks, phase, read_per_pass, passes,
                                                         files, kernel)
            if cfg["dataset"]["format"] != "synthetic":
                want[phase + "_decoded_bytes"] = samples * sample_bytes(cfg)
        if phase == "train":
            want["train_samples_unread_per_epoch"] = n - read_per_pass
            want["train_samples_skipped_on_error"] = skipped or 0
        else:
            want["eval_samples_unread_per_evaluation"] = n - read_per_pass
        for key, value in want.items():
            got = metric.get(key)
            if got != value:
                problems.append("%s = %s, expected %s" % (key, got, value))
            else:
                print("%s = %s" % (key, got))
    if problems:
        fail("; ".join(problems))
    print("check_summary: OK")


if __name__ == "__main__":
    main()
