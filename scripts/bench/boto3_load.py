#!/usr/bin/python3
"""boto3 under the same load as dlbench, for scripts/bench/bench-s3.sh: the Python client the
peers use (DLIO's and MLPerf Storage's S3 paths are Python), with the same concurrency. Endpoint
and credentials from AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION.

  boto3_load.py get THREADS PASSES BUCKET KEYS_FILE
      GETs the objects of KEYS_FILE (one key a line) whole, PASSES times; thread t reads the
      t-th of THREADS contiguous shards in list order (as bare_s3_get_loop does).
  boto3_load.py download THREADS PASSES BUCKET KEYS_FILE
      the same with download_fileobj: objects from 16 MiB in 8 MiB range GETs, 4 at once per
      object (the concurrency of dlbench's split reads), into a sink that keeps no byte.
  boto3_load.py put THREADS BUCKET PREFIX COUNT SIZE
      writes COUNT objects of SIZE random bytes under PREFIX, THREADS at once: below 16 MiB
      each with one put_object, from 16 MiB with upload_fileobj, a multipart upload of 16 MiB
      parts, 4 in flight (dlbench's part size and parallel parts).
  boto3_load.py put-sizes THREADS BUCKET PREFIX SIZE...
      the same, one object of each SIZE
  boto3_load.py keys BUCKET PREFIX      prints the keys under PREFIX, one a line, sorted
  boto3_load.py sizes BUCKET PREFIX     prints the sizes of the objects under PREFIX, one a line
  boto3_load.py remove BUCKET PREFIX    deletes every object under PREFIX

get, download, put and put-sizes print one line: "objects/s OBJECTS SECONDS BYTES", the time running from the
threads' release to the last one's end.
"""
import io
import os
import sys
import threading
import time

import boto3
import botocore.config
from boto3.s3.transfer import TransferConfig

MiB = 1 << 20


def client(threads=1):
    return boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"],
                        region_name=os.environ.get("AWS_REGION", "us-east-1"),
                        config=botocore.config.Config(max_pool_connections=max(10, 4 * threads)))


def timed(threads, work):
    """Runs work(t) on THREADS threads released together; returns (seconds, [results])."""
    results = [None] * threads
    start = threading.Barrier(threads + 1)

    def run(t):
        start.wait()
        results[t] = work(t)

    pool = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
    for thread in pool:
        thread.start()
    start.wait()
    begin = time.perf_counter()
    for thread in pool:
        thread.join()
    return time.perf_counter() - begin, results


class Sink(io.RawIOBase):
    """A seekable file that keeps no byte: what download_fileobj writes, counted."""

    def __init__(self):
        self.at = 0
        self.bytes = 0

    def writable(self):
        return True

    def seekable(self):
        return True

    def seek(self, offset, whence=io.SEEK_SET):
        self.at = offset if whence == io.SEEK_SET else self.at + offset
        return self.at

    def tell(self):
        return self.at

    def write(self, data):
        self.at += len(data)
        self.bytes += len(data)
        return len(data)


def get(threads, passes, bucket, keys_file, ranges=False):
    keys = [line.strip() for line in open(keys_file) if line.strip()]
    shard = len(keys) // threads
    s3 = client(threads)
    config = TransferConfig(multipart_threshold=16 * MiB, multipart_chunksize=8 * MiB,
                            max_concurrency=4)

    def work(t):
        got = 0
        for _ in range(passes):
            for key in keys[t * shard:(t + 1) * shard]:
                if ranges:
                    sink = Sink()
                    s3.download_fileobj(bucket, key, sink, Config=config)
                    got += sink.bytes
                else:
                    got += len(s3.get_object(Bucket=bucket, Key=key)["Body"].read())
        return got

    seconds, sizes = timed(threads, work)
    objects = shard * threads * passes
    print("%.1f %d %.6f %d" % (objects / seconds, objects, seconds, sum(sizes)))


def put(threads, bucket, prefix, sizes):
    s3 = client(threads)
    data = {size: os.urandom(size) for size in set(sizes)}
    config = TransferConfig(multipart_threshold=16 * MiB, multipart_chunksize=16 * MiB,
                            max_concurrency=4)

    def work(t):
        for i in range(t, len(sizes), threads):
            key = "%s/obj_%07d" % (prefix, i)
            if sizes[i] < 16 * MiB:
                s3.put_object(Bucket=bucket, Key=key, Body=data[sizes[i]])
            else:
                s3.upload_fileobj(io.BytesIO(data[sizes[i]]), bucket, key, Config=config)
        return 0

    seconds, _ = timed(threads, work)
    print("%.1f %d %.6f %d" % (len(sizes) / seconds, len(sizes), seconds, sum(sizes)))


def listing(bucket, prefix):
    """[(key, size)] of the objects under `prefix`, sorted by key."""
    found = []
    for page in client().get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        found += [(item["Key"], item["Size"]) for item in page.get("Contents", [])]
    return sorted(found)


def keys(bucket, prefix):
    return [key for key, _ in listing(bucket, prefix)]


def main(argv):
    if argv[0] == "get":
        get(int(argv[1]), int(argv[2]), argv[3], argv[4])
    elif argv[0] == "download":
        get(int(argv[1]), int(argv[2]), argv[3], argv[4], ranges=True)
    elif argv[0] == "put":
        put(int(argv[1]), argv[2], argv[3], [int(argv[5])] * int(argv[4]))
    elif argv[0] == "put-sizes":
        put(int(argv[1]), argv[2], argv[3], [int(size) for size in argv[4:]])
    elif argv[0] == "keys":
        print("\n".join(keys(argv[1], argv[2])))
    elif argv[0] == "sizes":
        print("\n".join(str(size) for _, size in listing(argv[1], argv[2])))
    elif argv[0] == "remove":
        stale = keys(argv[1], argv[2])
        for at in range(0, len(stale), 1000):
            client().delete_objects(Bucket=argv[1], Delete={
                "Objects": [{"Key": key} for key in stale[at:at + 1000]]})
    else:
        sys.exit("boto3_load.py: unknown command " + argv[0])


if __name__ == "__main__":
    main(sys.argv[1:])
