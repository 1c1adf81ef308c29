# The too-similar warning with a state that binds nothing to `aws.by_region` yet: the trap is not armed right now.
variable "regions" {
  type    = set(string)
  default = ["us", "eu"]
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.key
}

resource "aws_s3_bucket" "b" {
  for_each = var.regions
  #          ^^^^^^^^^^^ warning[too-similar-for-each]: the state has no resources created through its instances yet, so removing an element does not fail the plan right now
  provider = aws.by_region[each.key]
}
