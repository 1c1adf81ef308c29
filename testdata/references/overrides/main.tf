# Override files merge into the blocks of the primary files: an argument an override replaces is not evaluated,
# and the override's own references are checked.

resource "aws_vpc" "a" {
  cidr_block = "10.0.0.0/16"
  # The override replaces `tags`: this reference is never evaluated.
  tags = {
    Name = aws_vpc.typo.id
  }
}

resource "aws_vpc" "b" {
  cidr_block = "10.1.0.0/16"
}

resource "aws_subnet" "s" {
  vpc_id = aws_vpc.b.id
  # Declared only in an override file, which OpenTofu refuses (reported there); not reported again here.
  tags = {
    bucket = aws_s3_bucket.only_in_override.id
  }
}
