# A file being typed: the broken block is reported precisely, everything around it is still analysed.
provider "aws" {
  alias    = "by_region"
  for_each = toset(["us", "eu"])
}

resource "aws_s3_bucket" "half_typed" {
  bucket   = "b"
  provider = aws.by_region[
  #                       ^ error[syntax-error]
}

resource "aws_s3_bucket" "after_the_error" {
  provider = aws.by_region["ap"]
  #                        ^^^^ error[unknown-provider-instance]
}

variable "still_seen" {}

variable "still_seen" {}
#        ^^^^^^^^^^^^ error[duplicate-block]
