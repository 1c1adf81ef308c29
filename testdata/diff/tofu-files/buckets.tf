resource "aws_s3_bucket" "b" {
# @0..0 info[shadowed-by-tofu-file]
  for_each = toset(["a", "b"])
}
