locals {
  by_region = {
    use1 = {
      region = "us-east-1"
    }
    euw1 = {
      region = "eu-west-1"
    }
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = local.by_region

  region = each.value.region
}
