# Buckets that exist already, adopted by `import` blocks: they are imports, not creates. `aws_s3_bucket.a` is in the
# state (its import block is a no-op); `c` is new and is created; which buckets the last block adopts is not known.
resource "aws_s3_bucket" "a" {
}

resource "aws_s3_bucket" "b" {
}

resource "aws_s3_bucket" "c" {
}

resource "aws_s3_bucket" "regional" {
  for_each = toset(["eu", "us"])
}

import {
  to = aws_s3_bucket.a
  id = "a"
}

import {
  to = aws_s3_bucket.b
  id = "b"
}

import {
  for_each = toset(["eu"])
  to       = aws_s3_bucket.regional[each.key]
  id       = "regional-${each.key}"
}

data "aws_s3_objects" "legacy" {
  bucket = "legacy"
}

resource "aws_s3_bucket" "legacy" {
  for_each = toset(["x"])
}

import {
  for_each = toset(data.aws_s3_objects.legacy.keys)
  to       = aws_s3_bucket.legacy[each.key]
  id       = each.key
}
