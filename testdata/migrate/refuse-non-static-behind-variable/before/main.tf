# `var.prefix` has no value here, and stops the evaluation of both values before the data source and the
# resource they also use: those are still found, by name, and refused.
variable "prefix" {
  type = string
}

data "aws_caller_identity" "current" {}

resource "aws_iam_role" "deploy" {
  name               = "deploy"
  assume_role_policy = "{}"
}

locals {
  role_name = "${var.prefix}-${aws_iam_role.deploy.name}"
}

provider "aws" {
  alias   = "use1"
  region  = "us-east-1"
  profile = "${var.prefix}-${data.aws_caller_identity.current.account_id}"

  assume_role {
    role_arn = "arn:aws:iam::111111111111:role/deploy"
  }
}

provider "aws" {
  alias   = "euw1"
  region  = "eu-west-1"
  profile = "static"

  assume_role {
    role_arn = local.role_name
  }
}
