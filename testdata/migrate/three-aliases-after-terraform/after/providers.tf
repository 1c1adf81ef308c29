terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

locals {
  by_region = {
    a = {
      region = "us-east-1"
    }
    b = {
      region = "us-east-2"
    }
    c = {
      region = "us-west-1"
    }
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = local.by_region

  region = each.value.region
}
