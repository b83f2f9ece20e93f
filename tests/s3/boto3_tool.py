#!/usr/bin/python3
"""boto3 as the independent S3 client of the RGW tests (tests/s3/rgw_*_test.cpp). Endpoint and
credentials from AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION.

  boto3_tool.py sha256 BUCKET KEY          prints the object's size and SHA-256 as boto3 reads it
  boto3_tool.py put BUCKET KEY SIZE SEED   writes SIZE bytes made by SEED (multipart above 8 MiB,
                                           boto3's default), prints their SHA-256
  boto3_tool.py keys BUCKET PREFIX         prints the keys under PREFIX, one a line
"""
import hashlib
import io
import os
import random
import sys

import boto3


def client():
    return boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"],
                        region_name=os.environ.get("AWS_REGION", "us-east-1"))


def main(argv):
    s3 = client()
    if argv[0] == "sha256":
        body = s3.get_object(Bucket=argv[1], Key=argv[2])["Body"].read()
        print(len(body), hashlib.sha256(body).hexdigest())
    elif argv[0] == "put":
        data = random.Random(int(argv[4])).randbytes(int(argv[3]))
        s3.upload_fileobj(io.BytesIO(data), argv[1], argv[2])
        print(hashlib.sha256(data).hexdigest())
    elif argv[0] == "keys":
        pages = s3.get_paginator("list_objects_v2").paginate(Bucket=argv[1], Prefix=argv[2])
        for page in pages:
            for item in page.get("Contents", []):
                print(item["Key"])
    else:
        sys.exit("boto3_tool.py: unknown command " + argv[0])


main(sys.argv[1:])
