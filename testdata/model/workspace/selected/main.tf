# `tofu workspace select prod` left `prod` in .terraform/environment: that is the workspace.
locals {
  by_workspace = {
    staging = ["eu-west-1"]
    prod    = ["eu-west-1", "us-east-1"]
  }
  regions = toset(local.by_workspace[terraform.workspace])
  #       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: toset(["eu-west-1", "us-east-1"])
}

provider "aws" {
  alias    = "by_region"
  for_each = local.regions
  region   = each.key
}

resource "aws_s3_bucket" "logs" {
  provider = aws.by_region["ap-south-1"]
  #                        ^^^^^^^^^^^^ error[unknown-provider-instance]: `ap-south-1`
}
