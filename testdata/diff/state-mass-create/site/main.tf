resource "aws_vpc" "v" {
}

resource "aws_s3_bucket" "logs" {
  count = 12
}

resource "aws_iam_role" "a" {
}

resource "aws_iam_role" "b" {
}
