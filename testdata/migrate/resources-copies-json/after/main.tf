locals {
  # `enabled = false` on an entry destroys the resources merged for it while its provider instance
  # remains; remove the entry only once that has been applied.
  by_region = {
    use1 = {
      region  = "us-east-1"
      enabled = true
    }
    euw1 = {
      region  = "eu-west-1"
      enabled = true
    }
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = local.by_region

  region = each.value.region
}
