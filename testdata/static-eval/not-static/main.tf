data "aws_regions" "all" {}

locals {
  regions  = data.aws_regions.all.names
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^^ value: unknown
  filtered = [for r in local.regions : r if r != "us-east-1"]
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ value: unknown
  stamp    = timestamp()
  #          ^^^^^^^^^^^ value: unknown
}
