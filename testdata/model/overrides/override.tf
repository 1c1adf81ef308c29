resource "aws_s3_bucket" "b" {
  provider = aws.by_region["ap"]
  #                        ^^^^ error[unknown-provider-instance]
}

variable "not_in_main" {}
#        ^^^^^^^^^^^^^ error[override-without-base]
