"""dlbench end to end on S3 against the Ceph RGW of the fixture rgw (tests/s3/rgw.sh):

- MLPerf Storage's spelling (storage_root: the bucket, data_folder: a key prefix in it,
  credentials from the environment) generates an npz dataset, trains on it and saves and loads
  checkpoints; boto3 lists the objects and numpy opens one; summary.json records the storage;
  no output file holds the secret;
- a rerun of generation keeps the complete objects (none rewritten), found by listing (fewer
  HEADs than objects);
- DLIO's spelling (data_folder: s3://bucket/prefix, credentials in storage_options) trains on the
  same objects;
- a burst buffer on a local tier drains checkpoints to S3 (every byte saved is an object, the
  fast tier is emptied), and a later job loads them from S3, comparing every byte;
- staging copies the dataset from a tier on S3 to a local tier, byte-exact, and training reads
  only the staged copy;
- a wrong secret and a missing bucket are exit 2 before any work, naming the endpoint, the bucket
  and the server's error code, never the secret;
- DLIO's own S3 workload layout runs as it ships (the dataset at the bucket's root, path style
  off against an IP endpoint), and a dataset boto3 copied (no dlbench marker) is trained on.

    cli_s3.py DLBENCH TINY_TRAIN_YAML TINY_CHECKPOINT_YAML SCRATCH RGW_ENV_FILE
Exits 77 (skipped) when the fixture found no Ceph packages.
"""
import io
import os
import sys

import numpy

from rgw_fixture import Server, summary_of

dlbench, tiny_train, tiny_checkpoint, scratch, env_file = sys.argv[1:6]
server = Server(env_file, "cli_s3", scratch)
bucket, secret, check, prefix = server.bucket, server.secret, server.check, server.prefix
s3, objects = server.s3, server.objects
environment = server.environment


def run(args, code, env=environment):
    return server.run(dlbench, args, code, env)


no_secret_under = server.no_secret_under


def get_requests(requests, field):
    """The `field` of summary.json's GETs, whole and range, summed."""
    return sum(requests.get(kind, {}).get(field, 0) for kind in ("GET", "range GET"))

mlperf = ["++workload.storage.storage_type=s3", "++workload.storage.storage_root=" + bucket,
          "++workload.storage.storage_library=s3dlio",
          "++workload.dataset.data_folder=" + prefix + "data"]

# 1. Generate and train, MLPerf Storage's spelling.
out = os.path.join(scratch, "run")
text = run(["run", tiny_train] + mlperf + ["-o", out], 0)
check("is a key prefix in the bucket" in text, "no notice of the data folder's bucket:\n" + text)
written = objects(prefix + "data/")
train = sorted(key for key in written if key.startswith(prefix + "data/train/"))
check(len(train) == 8 and all(key.endswith(".npz") for key in train),
      "expected 8 training objects, found %s" % sorted(written))
check(len([key for key in written if key.startswith(prefix + "data/valid/")]) == 2,
      "expected 2 evaluation objects, found %s" % sorted(written))
sample = numpy.load(io.BytesIO(s3.get_object(Bucket=bucket, Key=train[0])["Body"].read()))
check(sample["x"].nbytes == 2 * 4096, "numpy reads %s as %s" % (train[0], sample["x"].shape))
summary = summary_of(out)
check(summary.get("storage_type") == "s3" and summary.get("storage_library") == "s3dlio",
      "summary.json does not record the storage: %s" % summary.get("storage_type"))
metric = summary["metric"]
check(metric.get("train_au_mean_percentage", 0) > 0 and
      metric.get("train_io_mean_MB_per_second", 0) > 0, "no training metrics: %s" % metric)
requests = summary.get("object_storage", {}).get("requests", {})
check(requests.get("PUT", {}).get("requests", 0) >= 10 and "GET" in requests,
      "summary.json object_storage lacks the PUTs and GETs: %s" % requests)
# The run wrote the objects, so it knows they are small: each is read by a plain GET, whole.
gets = requests["GET"]
check(0 < gets["first_byte_seconds"]["p50"] <= gets["latency_seconds"]["max"],
      "no request latencies: %s" % gets)
# One GET per file read (npz reads a small file in three pieces).
opens = summary["posix_counters"]["totals"]["POSIX_OPENS"]
reads = get_requests(requests, "requests")
check(reads <= opens, "%d GETs for %d opens" % (reads, opens))
check("Object storage: " in text, "no object storage line:\n" + text)
# Two epochs of a dataset that fits in memory, read over HTTP: no page cache served them, and
# nothing was retried.
found = [finding["id"] for finding in summary.get("insights", [])]
check("page_cache_served" not in found and "retries" not in found,
      "findings of a file system or of throttling on S3: %s" % found)
no_secret_under(out)

# 2. A rerun of generation keeps every complete object.
run(["generate", tiny_train] + mlperf + ["-o", os.path.join(scratch, "regenerate")], 0)
# Its data objects, that is: the dataset's description (.dlbench-dataset.json) is written anew.
rewritten = sorted(key for key, stat in objects(prefix + "data/").items()
                   if key.endswith(".npz") and written.get(key) != stat)
check(not rewritten, "the rerun rewrote %s" % rewritten)
# Found by listing the folders, not by a HEAD per object (two each before: exists, then size).
rerun = summary_of(os.path.join(scratch, "regenerate"))["object_storage"]
heads = rerun["requests"].get("HEAD", {}).get("requests", 0)
check(heads < 10, "the rerun sent %d HEADs for 10 data objects: %s" % (heads, rerun["requests"]))

# 3. DLIO's spelling: a URI, credentials in storage_options, the environment without them.
dlio_options = ["++workload.storage.storage_type=s3",
                "++workload.storage.storage_root=" + bucket,
                "++workload.dataset.data_folder=s3://%s/%sdata" % (bucket, prefix),
                "++workload.workflow.generate_data=False",
                "++workload.storage.storage_options.endpoint_url=" + server.endpoint,
                "++workload.storage.storage_options.access_key_id=" + server.settings["AWS_ACCESS_KEY_ID"],
                "++workload.storage.storage_options.secret_access_key=" + secret]
bare = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")}
out = os.path.join(scratch, "dlio")
run(["train", tiny_train] + dlio_options + ["-o", out], 0, env=bare)
no_secret_under(out)

# 4. Checkpoints: saved as objects, loaded back.
out = os.path.join(scratch, "checkpoint")
run(["checkpoint", tiny_checkpoint, "++workload.storage.storage_type=s3",
     "++workload.storage.storage_root=" + bucket,
     "++workload.checkpoint.checkpoint_folder=" + prefix + "ckpt", "-o", out], 0)
saved = objects(prefix + "ckpt/")
check(any(key.endswith("dlbench_checkpoint_manifest.json") for key in saved),
      "no checkpoint manifest among %s" % sorted(saved))
checkpoint = summary_of(out)["metric"]
check(checkpoint.get("checkpoint_bytes_written", 0) > 0, "no checkpoint bytes: %s" % checkpoint)

# 5. A burst buffer on a local tier draining to S3, then a job that loads from S3 and verifies.
burst = os.path.join(scratch, "burst")
fast_tier = os.path.join(scratch, "nvme")
on_s3 = ["++workload.storage.storage_type=s3", "++workload.storage.storage_root=" + bucket,
         "++workload.checkpoint.checkpoint_folder=" + prefix + "bbckpt"]
run(["checkpoint", tiny_checkpoint] + on_s3 +
    ["++workload.storage.tiers.nvme.path=" + fast_tier, "++workload.checkpoint.burst_buffer.tier=nvme",
     "-o", burst], 0)
metric = summary_of(burst)["metric"]
drained = objects(prefix + "bbckpt/")
manifests = [key for key in drained if key.endswith("/dlbench_checkpoint_manifest.json")]
check(len(manifests) == 2, "expected 2 drained checkpoints, found %s" % sorted(drained))
tensors = sum(size for key, (size, _, _) in drained.items() if key.endswith(".pt"))
check(tensors == metric.get("save_checkpoint_bytes") and
      metric.get("checkpoint_drained_bytes", 0) >= tensors,
      "S3 holds %d B of checkpoint files; the run saved %s and drained %s" %
      (tensors, metric.get("save_checkpoint_bytes"), metric.get("checkpoint_drained_bytes")))
left = [os.path.join(root, name) for root, _, names in os.walk(fast_tier) for name in names
        if name != ".dlbench-folder"]
check(not left, "the fast tier still holds %s after the drains" % left)
out = os.path.join(scratch, "load")
run(["checkpoint", tiny_checkpoint] + on_s3 +
    ["++workload.checkpoint.num_checkpoints_write=0", "++workload.checkpoint.verify=True",
     "-o", out], 0)
loaded = summary_of(out)
check(loaded["metric"].get("load_checkpoint_bytes", 0) >= tensors and
      get_requests(loaded["object_storage"]["requests"], "bytes") >= tensors,
      "the load did not read the drained checkpoints from S3: %s" % loaded["object_storage"])

# 6. Staging from a tier on S3 to a local tier; training reads the staged copy only.
staged = os.path.join(scratch, "staged")
out = os.path.join(scratch, "stage")
run(["run", tiny_train, "++workload.storage.storage_type=s3",
     "++workload.storage.storage_root=" + bucket, "++workload.workflow.generate_data=False",
     "++workload.dataset.data_folder=s3://%s/%sdata" % (bucket, prefix),
     "++workload.storage.tiers.capacity.path=s3://%s/%s" % (bucket, prefix.rstrip("/")),
     "++workload.storage.tiers.local.path=" + staged, "++workload.workflow.stage=True",
     "++workload.stage.to=local", "-o", out], 0)
for key in train:
    copy = os.path.join(staged, key[len(prefix):])
    check(os.path.exists(copy) and open(copy, "rb").read() == server.read(key),
          "the staged %s is not the object %s byte for byte" % (copy, key))
gets = get_requests(summary_of(out)["object_storage"]["requests"], "requests")
check(0 < gets <= len(written), "%d GETs for %d objects: training read S3 too" % (gets, len(written)))

# 7. DLIO's own S3 workload as it ships, endpoint and credentials aside: the dataset at the root
# of its bucket with DLIO's default checkpoint folder in that bucket (checkpointing off),
# s3_force_path_style False against an endpoint given as an IP address (no virtual host can name
# a bucket there: the bucket goes in the path), credentials in storage_options.
root_bucket = "cli-s3-dlio-root"


def empty_bucket(name):
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=name):
        for item in page.get("Contents", []):
            s3.delete_object(Bucket=name, Key=item["Key"])


try:
    s3.create_bucket(Bucket=root_bucket)
except s3.exceptions.BucketAlreadyOwnedByYou:
    empty_bucket(root_bucket)
workload = os.path.join(scratch, "unet3d_s3.yaml")
with open(workload, "w") as out_file:
    out_file.write("\n".join([
        "model: {name: unet3d, type: cnn, model_size: 499153191}",
        "framework: pytorch",
        "workflow: {generate_data: True, train: True, checkpoint: False}",
        "dataset: {data_folder: 's3://%s', format: npz, num_files_train: 8," % root_bucket,
        "          num_samples_per_file: 1, record_length_bytes: 65536,",
        "          record_length_bytes_stdev: 0, record_length_bytes_resize: 2097152}",
        "storage:",
        "  storage_type: s3",
        "  storage_root: %s" % root_bucket,
        "  storage_options: {access_key_id: '%s', secret_access_key: '%s', endpoint_url: '%s',"
        % (server.settings["AWS_ACCESS_KEY_ID"], secret, server.endpoint),
        "                    region: us-east-1, s3_force_path_style: False, s3_max_attempts: 5}",
        "reader: {data_loader: pytorch, batch_size: 7, read_threads: 4, file_shuffle: seed,",
        "         sample_shuffle: seed}",
        "train: {epochs: 1, computation_time: 0.001}",
        "checkpoint: {checkpoint_folder: checkpoints/unet3d, checkpoint_after_epoch: 5,",
        "             epochs_between_checkpoints: 2}",
        "metric: {au: 0.90}", ""]))
out = os.path.join(scratch, "dlio_root")
run(["run", workload, "-o", out], 0, env=bare)
rooted = [item["Key"] for item in s3.list_objects_v2(Bucket=root_bucket).get("Contents", [])]
check(len([key for key in rooted if key.startswith("train/") and key.endswith(".npz")]) == 8,
      "DLIO's layout: expected 8 objects under train/ at the bucket's root, found %s" % rooted)
no_secret_under(out)
empty_bucket(root_bucket)
s3.delete_bucket(Bucket=root_bucket)

# 8. A dataset another client wrote (no dlbench marker: DLIO's or MLPerf Storage's generator):
# accepted from one listing of its folder, not a question per object, and trained on.
copied = [key for key in written if key.endswith(".npz")]
for key in copied:
    s3.copy_object(Bucket=bucket, Key=key.replace("/data/", "/foreign/"),
                   CopySource={"Bucket": bucket, "Key": key})
out = os.path.join(scratch, "foreign")
run(["train", tiny_train, "++workload.storage.storage_type=s3",
     "++workload.storage.storage_root=" + bucket,
     "++workload.dataset.data_folder=" + prefix + "foreign", "-o", out], 0)
foreign = summary_of(out)
heads = foreign["object_storage"]["requests"].get("HEAD", {}).get("requests", 0)
check(heads < len(copied), "%d HEADs for a dataset of %d objects" % (heads, len(copied)))
check(foreign["metric"].get("train_au_mean_percentage", 0) > 0, "no training on the copy")

# 9. Refused before any work: a wrong secret, a missing bucket.
wrong = dict(environment, AWS_SECRET_ACCESS_KEY="not-the-secret-" + secret[::-1])
text = run(["train", tiny_train] + mlperf + ["-o", os.path.join(scratch, "wrong")], 2, env=wrong)
check("SignatureDoesNotMatch" in text and server.endpoint in text and bucket in text,
      "a wrong secret is not named:\n" + text)
check(wrong["AWS_SECRET_ACCESS_KEY"] not in text, "the wrong secret appears:\n" + text)
text = run(["train", tiny_train, "++workload.storage.storage_type=s3",
            "++workload.storage.storage_root=no-such-bucket-dlbench",
            "++workload.dataset.data_folder=data", "-o", os.path.join(scratch, "nobucket")], 2)
check("NoSuchBucket" in text and "no-such-bucket-dlbench" in text,
      "a missing bucket is not named:\n" + text)
print("cli_s3: OK")
