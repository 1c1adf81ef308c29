# `var.regions` is declared in a linked file and given its value by a linked `terraform.tfvars`: OpenTofu follows
# both links, so the variable is declared and the keys are known.

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

resource "aws_s3_bucket" "logs" {
  provider = aws.by_region["euw1"]
}

resource "aws_s3_bucket" "wrong" {
  provider = aws.by_region["apse2"]
  #                        ^^^^^^^ error[unknown-provider-instance]
}
