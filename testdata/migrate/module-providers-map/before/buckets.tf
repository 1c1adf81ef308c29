resource "aws_s3_bucket" "logs" {
  provider = aws.use1
  bucket   = "logs"
}
