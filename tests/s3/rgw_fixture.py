"""What the end-to-end S3 tests share: the server the fixture rgw started (tests/s3/rgw.sh), a
boto3 client of it, each test's set-up and clean-up, and running dlbench against it.

    server = Server(ENV_FILE, "name", SCRATCH)  # exits 77 (skipped) when the fixture found no
                                                # Ceph packages
    ...                                         # keys under server.prefix, files in SCRATCH
    server.passed()                             # prints "name: OK"
"""
import json
import os
import shutil
import subprocess
import sys

import boto3


def summary_of(out):
    """The summary.json of the run whose output folder is `out`."""
    with open(os.path.join(out, "summary.json")) as handle:
        return json.load(handle)


class Server:
    def __init__(self, env_file, name, scratch):
        """The server, and the test `name`'s set-up: an empty local folder `scratch`, and nothing
        an earlier run of the test left under its prefix in the bucket, `name/` (self.prefix)."""
        self.name = name
        folder = os.path.dirname(env_file)
        if os.path.exists(os.path.join(folder, "skipped")):
            print("%s: skipped: %s" % (name, open(os.path.join(folder, "skipped")).read().strip()))
            sys.exit(77)
        self.settings = {}
        for line in open(env_file):
            key, _, value = line.strip().partition("=")
            if key:
                self.settings[key] = value
        self.bucket = self.settings["DLBENCH_S3_BUCKET"]
        self.endpoint = self.settings["AWS_ENDPOINT_URL"]
        self.secret = self.settings["AWS_SECRET_ACCESS_KEY"]
        self.s3 = boto3.client("s3", endpoint_url=self.endpoint,
                               aws_access_key_id=self.settings["AWS_ACCESS_KEY_ID"],
                               aws_secret_access_key=self.secret,
                               region_name=self.settings.get("AWS_REGION", "us-east-1"))
        # dlbench's environment: the server's endpoint and credentials.
        self.environment = dict(os.environ)
        for key in ("AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION"):
            self.environment[key] = self.settings[key]
        self.prefix = name + "/"
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(scratch)
        self.remove(self.prefix)

    def passed(self):
        """Removes what the test left under its prefix and says it passed."""
        self.remove(self.prefix)
        print("%s: OK" % self.name)

    def on_s3(self, folder):
        """The overrides that put a workload's dataset in the bucket, in `folder` under the
        test's prefix."""
        return ["++workload.storage.storage_type=s3",
                "++workload.storage.storage_root=" + self.bucket,
                "++workload.dataset.data_folder=" + self.prefix + folder]

    def fail(self, message):
        sys.exit("%s: %s" % (self.name, message))

    def check(self, condition, what):
        if not condition:
            self.fail(what)

    def objects(self, under):
        """{key: (size, etag, last modified)} of the objects under the prefix `under`."""
        found = {}
        for page in self.s3.get_paginator("list_objects_v2").paginate(Bucket=self.bucket,
                                                                       Prefix=under):
            for item in page.get("Contents", []):
                found[item["Key"]] = (item["Size"], item["ETag"], item["LastModified"])
        return found

    def pending(self, under):
        """[(key, upload id)] of the multipart uploads started under `under` and neither
        completed nor aborted."""
        found = []
        for page in self.s3.get_paginator("list_multipart_uploads").paginate(Bucket=self.bucket,
                                                                             Prefix=under):
            found += [(item["Key"], item["UploadId"]) for item in page.get("Uploads", [])]
        return found

    def remove(self, under):
        """Removes every object and pending upload under `under` (what an earlier run of a
        test left)."""
        stale = list(self.objects(under))
        for at in range(0, len(stale), 1000):
            self.s3.delete_objects(Bucket=self.bucket, Delete={
                "Objects": [{"Key": key} for key in stale[at:at + 1000]]})
        for key, upload_id in self.pending(under):
            self.s3.abort_multipart_upload(Bucket=self.bucket, Key=key, UploadId=upload_id)

    def read(self, key):
        return self.s3.get_object(Bucket=self.bucket, Key=key)["Body"].read()

    def run(self, dlbench, args, code, env=None, timeout=240):
        """Runs dlbench; fails unless it exits `code` without the secret in its output. Returns
        the output (stdout and stderr)."""
        done = subprocess.run([dlbench] + args, capture_output=True, text=True, timeout=timeout,
                              env=self.environment if env is None else env)
        text = done.stdout + done.stderr
        if done.returncode != code:
            self.fail("exit %d (expected %d) for %s:\n%s" % (done.returncode, code,
                                                             " ".join(args), text))
        self.check(self.secret not in text, "the secret appears in the output of %s" % args)
        return text

    def no_secret_under(self, path):
        for root, _, files in os.walk(path):
            for name in files:
                with open(os.path.join(root, name), "rb") as handle:
                    self.check(self.secret.encode() not in handle.read(),
                               "the secret appears in " + os.path.join(root, name))
