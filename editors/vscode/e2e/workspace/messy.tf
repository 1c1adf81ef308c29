resource "aws_s3_bucket"   "archive" {
provider = aws.by_region["use1"]
  bucket = "archive"
    tags = {
  team = "data"
      cost_center = "42"
  }
}
