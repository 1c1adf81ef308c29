variable "org" {
  type    = string
  default = "acme"
}

locals {
  accounts = {
    prod = "111111111111"
    dev  = "222222222222"
  }
}

provider "aws" {
  region = "us-east-1"
}

locals {
  by_key = {
    prod = {
      assume_role = {
        role_arn = "arn:aws:iam::${local.accounts.prod}:role/deploy"
      }
    }
    dev = {
      assume_role = {
        role_arn = "arn:aws:iam::${local.accounts.dev}:role/deploy"
      }
    }
  }
}

provider "aws" {
  alias    = "by_key"
  for_each = local.by_key

  region = "us-east-1"

  assume_role {
    role_arn     = each.value.assume_role.role_arn
    session_name = "foreach-ls"
  }

  default_tags {
    tags = { owner = var.org }
  }
}

resource "aws_s3_bucket" "audit_prod" {
  provider = aws.by_key["prod"]
  bucket   = "audit-prod"
}

resource "aws_s3_bucket" "audit_dev" {
  provider = aws.by_key["dev"]
  bucket   = "audit-dev"
}

data "aws_caller_identity" "dev" {
  provider = aws.by_key["dev"]
}

check "prod_reachable" {
  data "aws_caller_identity" "prod" {
    provider = aws.by_key["prod"]
  }

  assert {
    condition     = data.aws_caller_identity.prod.account_id == local.accounts.prod
    error_message = "wrong account"
  }
}

resource "aws_s3_bucket" "default" {
  bucket = "default"
}
