"""Every format dlbench writes to an object store opens, read back by boto3 (a client other than
dlbench's), with the readers the field uses: npy and npz with numpy, jpeg and png with PIL, csv
with pandas, parquet with hyparquet (npm, run by node); and dlbench trains on each dataset
(generation then one epoch: every sample read, none skipped). HDF5 is not written to an object
store (refused before any work, naming the file): h5py writes the files, boto3 uploads them
without dlbench's marker (as DLIO's generator leaves a dataset), and dlbench trains on them
through its HDF5 virtual file driver over S3.

    formats_s3.py DLBENCH TINY_TRAIN_YAML SCRATCH RGW_ENV_FILE NODE HYPARQUET_DIR
Exits 77 (skipped) when the fixture found no Ceph packages.
"""
import io
import os
import subprocess
import sys

import h5py
import numpy
import pandas
from PIL import Image

from rgw_fixture import Server, summary_of

dlbench, tiny_train, scratch, env_file, node, hyparquet_dir = sys.argv[1:7]
server = Server(env_file, "formats_s3", scratch)
check = server.check

# hyparquet reads every row of the file and prints their number.
HYPARQUET = """
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
const [folder, file] = process.argv.slice(1)
const require = createRequire(folder + '/package.json')
const { parquetReadObjects } = await import(require.resolve('hyparquet'))
const { compressors } = await import(require.resolve('hyparquet-compressors'))
const bytes = readFileSync(file)
const rows = await parquetReadObjects({
  file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), compressors })
console.log(rows.length)
"""


def samples_in(fmt, data):
    """The samples an object holds, as its format's usual reader counts them (DLIO's npy and npz
    hold (dimension, dimension, samples))."""
    if fmt == "npy":
        return numpy.load(io.BytesIO(data)).shape[-1]
    if fmt == "npz":
        return numpy.load(io.BytesIO(data))["x"].shape[-1]
    if fmt in ("jpeg", "png"):
        image = Image.open(io.BytesIO(data))
        image.load()
        check(image.format == fmt.upper(), "PIL reads a %s object as %s" % (fmt, image.format))
        return 1
    if fmt == "csv":
        return len(pandas.read_csv(io.BytesIO(data), header=None))
    if fmt == "parquet":
        path = os.path.join(scratch, "object.parquet")
        with open(path, "wb") as handle:
            handle.write(data)
        rows = subprocess.run([node, "--input-type=module", "-e", HYPARQUET, hyparquet_dir, path],
                              capture_output=True, text=True, timeout=60)
        check(rows.returncode == 0, "hyparquet cannot read the parquet object:\n" + rows.stderr)
        return int(rows.stdout.strip())
    raise ValueError(fmt)


per_file = {"npy": 2, "npz": 2, "jpeg": 1, "png": 1, "csv": 2, "parquet": 2}
for fmt, samples in per_file.items():
    out = os.path.join(scratch, fmt)
    server.run(dlbench, ["run", tiny_train] + server.on_s3(fmt) +
               ["++workload.dataset.format=" + fmt,
                "++workload.dataset.num_files_train=4",
                "++workload.dataset.num_files_eval=0",
                "++workload.dataset.num_samples_per_file=%d" % samples,
                "++workload.workflow.evaluation=False", "++workload.train.epochs=1",
                "-o", out], 0)
    metric = summary_of(out)["metric"]
    check(metric.get("train_samples_skipped_on_error", 0) == 0, "%s: samples skipped" % fmt)
    keys = sorted(key for key in server.objects(server.prefix + fmt + "/train/")
                  if key.endswith("." + fmt))
    check(len(keys) == 4, "%s: expected 4 objects, boto3 lists %s" % (fmt, keys))
    for key in keys:
        found = samples_in(fmt, server.read(key))
        check(found == samples, "%s holds %d samples, not %d" % (key, found, samples))

# HDF5: h5py's files under the names dlbench gives them (a local generation shows them), DLIO's
# layout (records_0 (samples, 64, 64) uint8, labels), uploaded by boto3.
local = os.path.join(scratch, "hdf5_names")
server.run(dlbench, ["generate", tiny_train, "++workload.dataset.data_folder=" + local,
                     "++workload.dataset.format=hdf5", "++workload.dataset.num_files_train=4",
                     "++workload.dataset.num_files_eval=0", "-o", local + "_out"], 0)
names = sorted(os.listdir(os.path.join(local, "train")))
check(len(names) == 4, "a local hdf5 generation wrote %s" % names)
records = numpy.arange(2 * 64 * 64, dtype=numpy.uint8).reshape(2, 64, 64)
for name in names:
    path = os.path.join(scratch, name)
    with h5py.File(path, "w") as handle:
        handle.create_dataset("records_0", data=records)
        handle.create_dataset("labels", data=numpy.zeros(2, numpy.int64))
    server.s3.upload_file(path, server.bucket, server.prefix + "hdf5/train/" + name)
out = os.path.join(scratch, "hdf5")
server.run(dlbench, ["train", tiny_train] + server.on_s3("hdf5") +
           ["++workload.dataset.format=hdf5", "++workload.dataset.num_files_train=4",
            "++workload.dataset.num_files_eval=0", "++workload.workflow.evaluation=False",
            "++workload.train.epochs=1", "-o", out], 0)
metric = summary_of(out)["metric"]
check(metric.get("train_samples_skipped_on_error", 0) == 0, "hdf5: samples skipped")
check(metric.get("train_sample_read_latency_count", 0) == 8,
      "hdf5: %s samples read, not 8" % metric.get("train_sample_read_latency_count"))

server.passed()
