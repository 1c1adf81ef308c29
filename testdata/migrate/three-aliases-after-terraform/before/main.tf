resource "aws_s3_bucket" "x" {
  provider = aws.c
}
