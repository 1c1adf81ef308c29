locals {
  regional = {
    use1 = {
      region = "us-east-1"
    }
    euw1 = {
      region = "eu-west-1"
    }
  }
}

provider "aws" {
  alias    = "regional"
  for_each = local.regional

  region = each.value.region
}

module "replica" {
  source = "./replica"
  providers = {
    aws.src = aws.regional["use1"]
    aws.dst = aws.regional["euw1"]
  }
}

module "plain" {
  source = "./replica"
  providers = {
    aws.src = aws.regional["euw1"]
    aws.dst = aws.regional["euw1"]
  }
}
