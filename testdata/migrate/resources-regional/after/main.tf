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

data "aws_availability_zones" "this" {
  for_each = { for k, v in local.by_region : k => v if v.enabled }

  provider = aws.by_region[each.key]
  state    = "available"
}

locals {
  aws_vpc_vpc = {
    use1 = {
      cidr_block = "10.0.0.0/16"
      tags = {
        Name = "main-use1"
      }
    }
    euw1 = {
      cidr_block = "10.1.0.0/16"
      tags = {
        Name = "main-euw1"
      }
    }
  }
}

resource "aws_vpc" "vpc" {
  for_each = { for k, v in local.aws_vpc_vpc : k => v if local.by_region[k].enabled }

  provider   = aws.by_region[each.key]
  cidr_block = each.value.cidr_block

  tags = each.value.tags
}

moved {
  from = aws_vpc.vpc_use1
  to   = aws_vpc.vpc["use1"]
}

moved {
  from = aws_vpc.vpc_euw1
  to   = aws_vpc.vpc["euw1"]
}

resource "aws_subnet" "public" {
  for_each = { for k, v in local.by_region : k => v if v.enabled }

  provider          = aws.by_region[each.key]
  vpc_id            = aws_vpc.vpc[each.key].id
  cidr_block        = cidrsubnet(aws_vpc.vpc[each.key].cidr_block, 8, 0)
  availability_zone = data.aws_availability_zones.this[each.key].names[0]
}

moved {
  from = aws_subnet.public_use1
  to   = aws_subnet.public["use1"]
}

moved {
  from = aws_subnet.public_euw1
  to   = aws_subnet.public["euw1"]
}

module "network" {
  for_each = { for k, v in local.by_region : k => v if v.enabled }

  source = "./network"
  providers = {
    aws = aws.by_region[each.key]
  }
  vpc_id = aws_vpc.vpc[each.key].id
}

moved {
  from = module.network_use1
  to   = module.network["use1"]
}

moved {
  from = module.network_euw1
  to   = module.network["euw1"]
}
