#!/usr/bin/env python3
"""An independent S3 client for the tests (boto3): reads back what narrate stored.

    s3peek.py ENDPOINT buckets                -> JSON [name]
    s3peek.py ENDPOINT mb BUCKET
    s3peek.py ENDPOINT list BUCKET            -> JSON [{key, size, etag, contentType, metadata}]
    s3peek.py ENDPOINT get BUCKET KEY FILE
    s3peek.py ENDPOINT uploads BUCKET         -> JSON [{key, uploadId}] of unfinished multipart uploads
    s3peek.py ENDPOINT writable BUCKET        waits (up to 60 s) until an object can be stored, then removes it

Keys come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY.
"""
import json
import sys
import time

import boto3
import botocore.exceptions
from botocore.config import Config

endpoint, command, *args = sys.argv[1:]
s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                  config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))
if command == "buckets":
    print(json.dumps([bucket["Name"] for bucket in s3.list_buckets().get("Buckets", [])]))
elif command == "mb":
    s3.create_bucket(Bucket=args[0])
elif command == "list":
    objects = []
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=args[0]):
        for item in page.get("Contents", []):
            head = s3.head_object(Bucket=args[0], Key=item["Key"])
            objects.append({"key": item["Key"], "size": head["ContentLength"], "etag": head["ETag"].strip('"'),
                            "contentType": head.get("ContentType"), "metadata": head.get("Metadata", {})})
    print(json.dumps(objects))
elif command == "get":
    s3.download_file(args[0], args[1], args[2])
elif command == "uploads":
    answer = s3.list_multipart_uploads(Bucket=args[0])
    print(json.dumps([{"key": u["Key"], "uploadId": u["UploadId"]} for u in answer.get("Uploads", [])]))
elif command == "writable":
    # A fresh SeaweedFS lists its buckets before it has a volume to write to, and answers a PUT
    # in that moment with 500 InternalError. The probe is as big as a small export and nested as
    # narrate's keys are, so that it is stored in a volume as they are, not inline in the filer.
    deadline = time.monotonic() + 60
    probe = "narrate-probe/folder/probe.bin"
    while True:
        try:
            s3.put_object(Bucket=args[0], Key=probe, Body=bytes(range(256)) * 512)
            s3.delete_object(Bucket=args[0], Key=probe)
            break
        except (botocore.exceptions.ClientError, botocore.exceptions.BotoCoreError) as error:
            if time.monotonic() > deadline:
                sys.exit(f"bucket {args[0]} is not writable: {error}")
            time.sleep(0.25)
else:
    sys.exit(f"unknown command {command}")
