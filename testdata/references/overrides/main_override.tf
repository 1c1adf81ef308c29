resource "aws_vpc" "a" {
  tags = {
    Name = "a"
  }
}

resource "aws_vpc" "b" {
  cidr_block = aws_vpc.nope.cidr_block
  #            ^^^^^^^^^^^^ error[undefined-reference]
}

resource "aws_s3_bucket" "only_in_override" {
  #                      ^^^^^^^^^^^^^^^^^^ error[override-without-base]
  bucket = "b"
}
