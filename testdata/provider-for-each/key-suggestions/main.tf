# Suggestions that fit the key: a number from `count.index` or a bool is no misspelt key (no "did you mean", no
# "add it"); `count.index` is explained. The offered fixes are tested in ide/code_actions.rs.
variable "regions" {
  type = set(string)
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.key
}

resource "aws_s3_bucket" "counted" {
  count    = 2
  provider = aws.by_region[count.index]
  #                        ^^^^^^^^^^^ error[unknown-provider-instance]: `count.index` numbers this block's instances 0, 1
}

resource "aws_s3_bucket" "flag" {
  provider = aws.by_region[true]
  #                        ^^^^ error[unknown-provider-instance]: no provider instance `true` in `aws.by_region`; its instances are `euw1`, `use1`
}
