# The pipeline gives these with -var: they have no value here, but OpenTofu knows them before planning, so the
# arguments that use them move into the map as written.
variable "primary_region" {
  type = string
}

variable "profile" {
  type = string
}

variable "account_id" {
  type = string
}

locals {
  deploy_role = "arn:aws:iam::${var.account_id}:role/deploy"
}

locals {
  by_region = {
    primary = {
      region  = var.primary_region
      profile = var.profile
      assume_role = {
        role_arn = local.deploy_role
      }
    }
    dr = {
      region  = "eu-west-1"
      profile = "${var.profile}-dr"
      assume_role = {
        role_arn = "arn:aws:iam::222222222222:role/deploy"
      }
    }
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = local.by_region

  region  = each.value.region
  profile = each.value.profile

  assume_role {
    role_arn = each.value.assume_role.role_arn
  }
}

resource "aws_s3_bucket" "replica" {
  provider = aws.by_region["dr"]
}
