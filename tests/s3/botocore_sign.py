#!/usr/bin/python3
"""Signs a fixed set of S3 requests with botocore's S3SigV4Auth at a fixed time and prints them as
JSON, for the unit test that checks dlbench's signer byte for byte (tests/unit/s3/botocore_test.cpp).
Each case: method, region, bucket, key (raw), query (raw name/value pairs), body, the headers
botocore signed (with the ones it added), session token and the Authorization it computed."""
import json
import sys
from urllib.parse import quote

from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

TIMESTAMP = "20261202T010203Z"
ENDPOINT = "http://127.0.0.1:7480"

CASES = [
    ("GET", "us-east-1", "bucket", "train/img_001.npz", [], b"", {"Range": "bytes=0-1048575"}, ""),
    ("GET", "us-east-1", "bucket", "a key with spaces/and+plus=eq&amp$dollar~tilde", [], b"", {}, ""),
    ("GET", "eu-west-3", "my.bucket", "caf\u00e9/\u6587\u4ef6.bin", [], b"", {}, ""),
    ("PUT", "us-east-1", "bucket", "ckpt/rank-0.pt", [], b"some payload bytes", {}, ""),
    ("PUT", "us-east-1", "bucket", "unsigned/obj", [], b"0123456789",
     {"X-Amz-Content-SHA256": "UNSIGNED-PAYLOAD"}, ""),
    ("POST", "us-east-1", "bucket", "big/object", [("uploads", "")], b"", {}, ""),
    ("PUT", "us-east-1", "bucket", "big/object",
     [("partNumber", "3"), ("uploadId", "2~a/b+c=d")], b"part", {}, ""),
    ("GET", "us-east-1", "bucket", "",
     [("list-type", "2"), ("prefix", "data/train set/"), ("delimiter", "/"),
      ("continuation-token", "1/Zm9v+YmFy=="), ("max-keys", "1000")], b"", {}, ""),
    ("POST", "us-east-1", "bucket", "", [("delete", "")],
     b"<Delete><Quiet>true</Quiet><Object><Key>a</Key></Object></Delete>",
     {"Content-MD5": "bm90IGEgcmVhbCBtZDU="}, ""),
    ("HEAD", "us-west-2", "bucket", "x", [], b"", {}, "FwoGZXIvYXdzEXAMPLEtoken/+="),
    ("DELETE", "us-east-1", "bucket", "big/object", [("uploadId", "xyz")], b"", {}, ""),
]


def main():
    out = []
    for method, region, bucket, key, query, body, headers, token in CASES:
        url = ENDPOINT + "/" + bucket + "/" + quote(key, safe="/~")
        if query:
            url += "?" + "&".join(quote(k, safe="-_.~") + "=" + quote(v, safe="-_.~")
                                  for k, v in query)
        request = AWSRequest(method=method, url=url, data=body, headers=dict(headers))
        auth = S3SigV4Auth(Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                                       token or None), "s3", region)
        request.context["timestamp"] = TIMESTAMP
        auth._modify_request_before_signing(request)
        to_sign = auth.headers_to_sign(request)
        signed = [[name, to_sign[name]] for name in sorted(set(to_sign.keys()))]
        canonical = auth.canonical_request(request)
        signature = auth.signature(auth.string_to_sign(request, canonical), request)
        auth._inject_signature_to_request(request, signature)
        out.append({"method": method, "region": region, "bucket": bucket, "key": key,
                    "query": query, "body": body.decode(), "date": TIMESTAMP,
                    "session_token": token, "headers": signed,
                    "canonical_request": canonical,
                    "authorization": request.headers["Authorization"]})
    json.dump(out, sys.stdout)


main()
