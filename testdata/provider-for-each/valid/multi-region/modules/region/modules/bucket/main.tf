variable "prefix" {
  type = string
}

resource "aws_s3_bucket" "b" {
  bucket = "${var.prefix}-data"
}
