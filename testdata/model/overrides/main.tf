provider "aws" {
  alias    = "by_region"
  for_each = toset(["us", "eu"])
}

resource "aws_s3_bucket" "b" {
  # Replaced by override.tf: the key checked is the override's.
  provider = aws.by_region["us"]
}
