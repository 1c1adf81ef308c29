resource "aws_s3_bucket" "x" {
  provider = aws.by_region["c"]
}
