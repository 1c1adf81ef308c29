resource "aws_s3_bucket" "corrected_by_override" {
  provider = aws.by_region["use1"]
}
