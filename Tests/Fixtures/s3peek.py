#!/usr/bin/env python3
"""An independent S3 client for the tests (boto3): reads back what narrate stored.

    s3peek.py ENDPOINT buckets                -> JSON [name]
    s3peek.py ENDPOINT mb BUCKET
    s3peek.py ENDPOINT list BUCKET            -> JSON [{key, size, etag, contentType, metadata}]
    s3peek.py ENDPOINT get BUCKET KEY FILE
    s3peek.py ENDPOINT uploads BUCKET         -> JSON [{key, uploadId}] of unfinished multipart uploads

Keys come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY.
"""
import json
import sys

import boto3
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
else:
    sys.exit(f"unknown command {command}")
