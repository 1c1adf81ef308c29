# Terraform reads this file; OpenTofu reads main.tofu instead, so this wrong reference is not reported.
# @0..0 info[shadowed-by-tofu-file]
resource "aws_s3_bucket" "b" {
  provider = aws.nope
}
