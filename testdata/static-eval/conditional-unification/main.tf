# HCL unifies a conditional's two result types (cty's unsafe unification) and converts the chosen one: a set and an
# empty tuple unify to a set, so `toset(["0"])` or `[]` is a valid provider `for_each` whichever branch is taken
# (the pattern of GoodRxOSS/lifecycle-opentofu). A branch that fails but is not taken only contributes an open type.

variable "cloud" {
  type    = string
  default = "aws"
}

provider "aws" {
  alias = "alias"
  for_each = (var.cloud == "aws"
    ? toset(["0"]) : []
  )
  region = "us-east-1"
}

provider "google" {
  alias = "alias"
  for_each = (var.cloud == "gcp"
    ? toset(["0"]) : []
  )
  project = "p"
}

resource "aws_s3_bucket" "b" {
  for_each = toset(["0"])
  provider = aws.alias[each.key]
}

locals {
  taken     = var.cloud == "aws" ? toset(["0"]) : []
  #           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: toset(["0"])
  not_taken = var.cloud == "gcp" ? toset(["0"]) : []
  #           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: toset([])
  failing   = false ? { a = true, c = [][0] } : {}
  #           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: tomap({})
  to_list   = true ? [1] : tolist(["a"])
  #           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: tolist(["1"])
  # An attribute of unknown type (a data source's) leaves the map's element type open: cty's object-to-map
  # conversion, unlike its tuple-to-list one, accepts that (philips-labs/terraform-aws-github-runner).
  open_no   = false ? { a = true, b = 1, c = data.aws_caller_identity.me.account_id } : {}
  #           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: tomap({})
  open_yes  = true ? { a = true, b = 1, c = data.aws_caller_identity.me.account_id } : {}
  #           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: unknown
}

data "aws_caller_identity" "me" {}

# An unknown inside a result has no type here (OpenTofu knows it, e.g. a string output): when only that could
# make the types unify, the result type is left open instead of reported
# (philips-labs/terraform-aws-github-runner, `local.job_retry_config`).
locals {
  open_type = false ? { enable = true, attempts = 3, url = timestamp() } : {}
  #           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: {}
  # Without an unknown the same mismatch is an error, as in OpenTofu.
  mismatch = false ? { enable = true, attempts = 3 } : {}
  #                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[evaluation-error]: inconsistent conditional result types
}
