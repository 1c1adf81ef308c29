resource "aws_s3_bucket" "logs" {
  count = 2
}
