"""dlbench on S3 when the server misbehaves: the fault proxy (tests/s3/fault_proxy.py) between
dlbench and the Ceph RGW of the fixture rgw (tests/s3/rgw.sh).

1. Transient errors: every other PUT and GET answered 503 SlowDown once. Generation and training
   succeed; summary.json counts the retries; every object is whole (numpy reads each one).
2. Bodies cut short: every third GET's body stops halfway and the connection closes. Training
   succeeds on retries and reads every sample (no sample counted as skipped, no corrupt-data
   error).
3. A lasting error: every GET of one object answered 503. Training ends with exit 3 within the
   attempts allowed (s3_max_attempts), naming the object, the status and the attempts.
4. The server killed during generation: exit 3 naming the object, well before the time limit;
   every object under a final name is complete (numpy reads each); a rerun against the server
   keeps them and completes the dataset.
5. The server killed during a checkpoint: exit 3; no manifest names a checkpoint that is not
   whole, so a load would never see a partial one; a rerun saves and loads them all.
6. dlbench killed (SIGKILL) during generation and during a checkpoint, while a part of a
   multipart upload is on the server: the upload stays pending (stored, billed, no object); the
   rerun aborts it and completes, and no upload is left pending.
The insights of the object-storage rules (docs/insights.md): the run of 1 reports `retries`;
a training of 12 epochs (over 100 requests) whose GETs wait 30 ms for their first byte reports
`request_latency_bound`; the same training whose GETs send half their body at once and the rest
30 ms later (the transfer, not the first byte, takes the time) reports neither.

    faults_s3.py DLBENCH TINY_TRAIN_YAML TINY_CHECKPOINT_YAML SCRATCH RGW_ENV_FILE
Exits 77 (skipped) when the fixture found no Ceph packages.
"""
import io
import json
import os
import signal
import subprocess
import sys
import time

import numpy

from fault_proxy import FaultProxy, Rule
from rgw_fixture import Server, summary_of

dlbench, tiny_train, tiny_checkpoint, scratch, env_file = sys.argv[1:6]
server = Server(env_file, "faults_s3", scratch)
check, on_s3, prefix = server.check, server.on_s3, server.prefix

proxy = FaultProxy(server.endpoint).start()
through_proxy = dict(server.environment, AWS_ENDPOINT_URL=proxy.url)


def insights(summary):
    return {finding["id"]: finding for finding in summary.get("insights", [])}


def retries(summary, *operations):
    requests = summary.get("object_storage", {}).get("requests", {})
    return sum(requests.get(operation, {}).get("retries", 0) for operation in operations)


def check_whole(keys):
    """numpy reads every npz object of `keys` as the tiny workload's 2 samples of 4 KiB."""
    for key in keys:
        arrays = numpy.load(io.BytesIO(server.read(key)))
        check(arrays["x"].nbytes == 2 * 4096, "%s holds %s" % (key, arrays["x"].shape))


def npz_under(folder):
    return sorted(key for key in server.objects(prefix + folder) if key.endswith(".npz"))


# 1. Transient 503s on PUT and GET: retried, counted, nothing lost.
proxy.rules = [Rule("status", {"PUT"}, every=2), Rule("status", {"GET"}, every=2)]
out = os.path.join(scratch, "transient")
server.run(dlbench, ["run", tiny_train] + on_s3("transient") + ["-o", out], 0, env=through_proxy)
summary = summary_of(out)
check(retries(summary, "PUT") > 0 and retries(summary, "GET", "range GET") > 0,
      "summary.json counts no retries: %s" % summary.get("object_storage"))
check(summary["metric"].get("train_samples_skipped_on_error", 0) == 0, "samples skipped")
check_whole(npz_under("transient/"))
check(len(npz_under("transient/")) == 10, "expected 10 objects: %s" % npz_under("transient/"))
found = insights(summary)
check("retries" in found and found["retries"]["severity"] == "high",
      "half the requests retried, and no high `retries` finding: %s" % sorted(found))
server.no_secret_under(out)

# The time to first byte: 12 epochs of 10 GETs (over the rule's 100 requests), each delayed 30 ms
# by the proxy before its first byte, then each slowed 30 ms after it. (Straight to the server
# the 8 KiB objects are latency-bound too: nothing but the first byte takes time.)
epochs = ["++workload.workflow.generate_data=False", "++workload.train.epochs=12"]
proxy.rules = [Rule("delay", {"GET"}, seconds=0.03)]
out = os.path.join(scratch, "first_byte")
server.run(dlbench, ["train", tiny_train] + on_s3("transient") + epochs + ["-o", out], 0,
           env=through_proxy)
found = insights(summary_of(out))
check("request_latency_bound" in found and "retries" not in found,
      "GETs of 30 ms to the first byte: %s" % sorted(found))
proxy.rules = [Rule("slow_body", {"GET"}, seconds=0.03)]
out = os.path.join(scratch, "slow_body")
server.run(dlbench, ["train", tiny_train] + on_s3("transient") + epochs + ["-o", out], 0,
           env=through_proxy)
summary = summary_of(out)
found = insights(summary)
check(summary["object_storage"]["total"]["requests"] >= 100,
      "fewer requests than the rule needs: %s" % summary["object_storage"]["total"])
check("request_latency_bound" not in found and "retries" not in found,
      "transfers slower than their first byte: %s" % sorted(found))
check("page_cache_served" not in found, "page_cache_served on an object store: %s" % sorted(found))

# 2. Bodies cut short: retried; every sample read.
proxy.rules = [Rule("truncate", {"GET"}, every=3)]
out = os.path.join(scratch, "truncated")
server.run(dlbench, ["train", tiny_train] + on_s3("transient") +
           ["++workload.workflow.generate_data=False", "-o", out], 0, env=through_proxy)
check(proxy.applied() > 0, "no GET was cut short")
summary = summary_of(out)
check(retries(summary, "GET", "range GET") > 0, "no retried GET: %s" % summary.get("object_storage"))
check(summary["metric"].get("train_samples_skipped_on_error", 0) == 0, "samples skipped")

# 3. One object always answered 503: exit 3 after the attempts allowed, naming it.
victim = npz_under("transient/train/")[0]
proxy.rules = [Rule("status", {"GET"}, key=victim)]
text = server.run(dlbench, ["train", tiny_train] + on_s3("transient") +
                  ["++workload.workflow.generate_data=False",
                   "++workload.storage.storage_options.s3_max_attempts=2",
                   "-o", os.path.join(scratch, "lasting")], 3, env=through_proxy)
check(victim in text and "503" in text and "after 2 attempts" in text,
      "the lasting error does not name the object, status and attempts:\n" + text)

# 4. The server killed during generation.
proxy.rules = [Rule("die", {"PUT"}, every=5)]
started = time.monotonic()
text = server.run(dlbench, ["generate", tiny_train] + on_s3("killed") +
                  ["-o", os.path.join(scratch, "killed")], 3, env=through_proxy, timeout=120)
check(time.monotonic() - started < 60, "a killed server took %.0f s to report" %
      (time.monotonic() - started))
check("s3://%s/%skilled/" % (server.bucket, prefix) in text,
      "the error does not name the object:\n" + text)
kept = npz_under("killed/")
check(len(kept) < 10, "every object was written although the server died: %s" % kept)
check_whole(kept)
text = server.run(dlbench, ["generate", tiny_train] + on_s3("killed") +
                  ["-o", os.path.join(scratch, "killed_rerun")], 0)
if kept:
    check("%d complete files kept" % len(kept) in text, "the rerun did not keep the %d objects:\n%s"
          % (len(kept), text))
check(len(npz_under("killed/")) == 10, "the rerun did not complete the dataset")
check_whole(npz_under("killed/"))

# 5. The server killed during a checkpoint (after a few of its parts).
proxy = FaultProxy(server.endpoint).start()
through_proxy["AWS_ENDPOINT_URL"] = proxy.url
proxy.rules = [Rule("die", {"PUT"}, every=6)]
checkpoint_args = ["checkpoint", tiny_checkpoint, "++workload.storage.storage_type=s3",
                   "++workload.storage.storage_root=" + server.bucket,
                   "++workload.checkpoint.checkpoint_folder=" + prefix + "ckpt"]
server.run(dlbench, checkpoint_args + ["-o", os.path.join(scratch, "ckpt_killed")], 3,
           env=through_proxy, timeout=120)
saved = server.objects(prefix + "ckpt/")
for manifest in (key for key in saved if key.endswith("dlbench_checkpoint_manifest.json")):
    listed = json.loads(server.read(manifest))
    folder = manifest.rsplit("/", 1)[0]
    for entry in listed.get("files", []):
        name = folder + "/" + entry["name"]
        check(name in saved and saved[name][0] == entry["bytes"],
              "%s names %s, which is not whole" % (manifest, name))
out = os.path.join(scratch, "ckpt_rerun")
server.run(dlbench, checkpoint_args + ["-o", out], 0)
check(summary_of(out)["metric"].get("checkpoint_bytes_written", 0) > 0, "the rerun saved nothing")

proxy.stop()


# 6. dlbench killed while a part is on the server: its answer is held back by the proxy, so the
# kill lands mid-upload, deterministically.
def killed_mid_upload(args, folder, out):
    proxy = FaultProxy(server.endpoint).start()
    hold = Rule("delay", {"PUT"}, key="uploadId", seconds=60)
    proxy.rules = [hold]
    run = subprocess.Popen([dlbench] + args + ["-o", os.path.join(scratch, out)],
                           env=dict(through_proxy, AWS_ENDPOINT_URL=proxy.url),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while hold.applied == 0 and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    check(hold.applied > 0, "no part upload reached the server before %s ended" % out)
    time.sleep(0.5)  # the part is stored upstream; its answer waits in the proxy
    run.send_signal(signal.SIGKILL)
    run.wait()
    proxy.stop()
    check(server.pending(prefix + folder), "no upload pending after %s was killed" % out)


big = ["++workload.dataset.format=npy", "++workload.dataset.num_files_train=2",
       "++workload.dataset.num_files_eval=0", "++workload.dataset.num_samples_per_file=1",
       "++workload.dataset.record_length_bytes=%d" % (20 << 20)]
killed_mid_upload(["generate", tiny_train] + on_s3("pending") + big, "pending/", "gen_killed")
out = os.path.join(scratch, "gen_after_kill")
server.run(dlbench, ["generate", tiny_train] + on_s3("pending") + big + ["-o", out], 0)
check(summary_of(out)["generation"].get("partial_files_removed", 0) >= 1,
      "the rerun reports no unfinished upload removed: %s" % summary_of(out)["generation"])
check(not server.pending(prefix + "pending/"),
      "uploads left pending after the rerun: %s" % server.pending(prefix + "pending/"))
check(len(server.objects(prefix + "pending/train/")) == 2, "the rerun did not complete the dataset")

# An optimizer file of 45 MiB: a multipart upload.
wide = ["++workload.model.transformer.hidden_size=256",
        "++workload.model.transformer.ffn_hidden_size=896"]
killed_mid_upload(checkpoint_args + wide, "ckpt/", "ckpt_killed_client")
server.run(dlbench, checkpoint_args + wide + ["-o", os.path.join(scratch, "ckpt_after_kill")], 0)
check(not server.pending(prefix + "ckpt/"),
      "uploads left pending after the checkpoint's rerun: %s" % server.pending(prefix + "ckpt/"))

server.passed()
