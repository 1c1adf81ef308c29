# A reference without `[…]` to a configuration whose instance keys are known names them, and its example is one
# of them. Where they are not known (`for_each` from a data source), the example stays a placeholder.
variable "regions" {
  type    = map(string)
  default = { use1 = "us-east-1", euw1 = "eu-west-1" }
}

provider "aws" {
  alias    = "by_region"
  for_each = var.regions
  region   = each.value
}

data "aws_regions" "all" {}

provider "aws" {
  alias    = "everywhere"
  for_each = toset(data.aws_regions.all.names)
  #          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[provider-for-each-not-static]
  region   = each.key
}

resource "aws_s3_bucket" "logs" {
  provider = aws.by_region
  #          ^^^^^^^^^^^^^ error[missing-provider-instance-key]: as in `["euw1"]` or `[each.key]`; its instances are `euw1`, `use1`
}

module "network" {
  source = "./network"
  providers = {
    aws = aws.by_region
    #     ^^^^^^^^^^^^^ error[missing-provider-instance-key]: `aws = aws.by_region[each.key]`; its instances are `euw1`, `use1`
  }
}

resource "aws_s3_bucket" "everywhere" {
  provider = aws.everywhere
  #          ^^^^^^^^^^^^^^ error[missing-provider-instance-key]: as in `["us"]` or `[each.key]`
}
