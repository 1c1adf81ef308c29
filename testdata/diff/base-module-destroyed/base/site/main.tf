resource "aws_s3_bucket" "logs" {
  count = 11
}

resource "aws_s3_bucket" "extra" {
}
