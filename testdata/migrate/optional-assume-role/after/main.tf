# The management account is reached directly; the others through a role.
locals {
  by_key = {
    mgmt = {
      assume_role = null
    }
    prod = {
      assume_role = {
        role_arn = "arn:aws:iam::111111111111:role/deploy"
      }
    }
    stage = {
      assume_role = {
        role_arn = "arn:aws:iam::222222222222:role/deploy"
      }
    }
  }
}

provider "aws" {
  alias    = "by_key"
  for_each = local.by_key

  region = "us-east-1"

  dynamic "assume_role" {
    for_each = each.value.assume_role[*]
    content {
      role_arn     = assume_role.value.role_arn
      session_name = "deploy"
    }
  }
}

resource "aws_s3_bucket" "audit" {
  provider = aws.by_key["mgmt"]
}
