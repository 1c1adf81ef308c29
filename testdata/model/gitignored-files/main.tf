# `.gitignore` beside this file lists `*.tfvars` and `*_override.tf`, as GitHub's standard Terraform `.gitignore`
# does. OpenTofu reads them whatever git ignores, and so does foreach-ls: the instance keys come from
# `terraform.tfvars` and `extra.auto.tfvars`, and `bucket_override.tf` corrects the first bucket's key.

variable "regions" {
  type = map(string)
}

variable "extra" {
  type    = map(string)
  default = {}
}

provider "aws" {
  alias    = "by_region"
  for_each = merge(var.regions, var.extra)
  region   = each.value
}

resource "aws_s3_bucket" "corrected_by_override" {
  provider = aws.by_region["nope"]
}

resource "aws_s3_bucket" "from_auto_tfvars" {
  provider = aws.by_region["apse1"]
}

resource "aws_s3_bucket" "wrong" {
  provider = aws.by_region["apse2"]
  #                        ^^^^^^^ error[unknown-provider-instance]
}
