resource "aws_s3_bucket" "logs" {
  provider = aws.regional["use1"]
  bucket   = "logs"
}
