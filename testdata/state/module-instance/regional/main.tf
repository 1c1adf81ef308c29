resource "aws_s3_bucket" "b" {
}

resource "aws_s3_bucket" "c" {
  count = 1
}
