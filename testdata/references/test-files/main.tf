# A run block's assertions and expect_failures refer to the module under test (or to the module its `module`
# block loads), not to the test file.

variable "name" {
  type    = string
  default = "b"
}

resource "aws_s3_bucket" "b" {
  bucket = var.name
}

module "net" {
  source = "./net"
}

output "name" {
  value = aws_s3_bucket.b.bucket
}
