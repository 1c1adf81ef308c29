# Every provider instance the state binds still exists; a `for_each` that depends on a root variable without a value
# is not compared (its keys are not known here); the default configuration of a root always exists.
variable "accounts" {
  type = set(string)
}

provider "aws" {
  alias    = "by_region"
  for_each = toset(["us", "eu"])
  region   = each.key
}

provider "aws" {
  alias    = "by_account"
  for_each = var.accounts
  #          ^^^^^^^^^^^^ info[provider-for-each-unresolved]
  region   = each.key
}

resource "aws_s3_bucket" "b" {
  provider = aws.by_region["eu"]
}
