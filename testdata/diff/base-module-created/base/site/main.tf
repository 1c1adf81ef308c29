resource "aws_s3_bucket" "logs" {
  count = 12
}

resource "aws_s3_bucket" "extra" {
}
