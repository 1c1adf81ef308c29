# The change adds two buckets: `b` exists already and is adopted by an import block (an import, not a create).
resource "aws_s3_bucket" "a" {
}

resource "aws_s3_bucket" "b" {
}

resource "aws_s3_bucket" "c" {
}

import {
  to = aws_s3_bucket.b
  id = "b"
}
