# The same state compared in each environment of the project file: staging has no eu-west-1.
variable "regions" {
  type = list(string)
}

provider "aws" {
  alias    = "by_region"
  for_each = toset(var.regions)
  #          ^^^^^^^^^^^^^^^^^^ error[provider-instance-removed-with-resources]
  region   = each.key
}

resource "aws_vpc" "this" {
  for_each = toset(var.regions)
  provider = aws.by_region[each.key]
}
