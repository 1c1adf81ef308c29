# A caller passes `aws.core-vpc` in its `providers` map to a child that uses it without listing it in
# `configuration_aliases`: OpenTofu gives the child that configuration (ministryofjustice's apex/modules/alb in the
# dev corpus), so the child's references are valid. A child that is not passed it has no such configuration.
provider "aws" {
  region = "eu-west-2"
}

provider "aws" {
  alias  = "core-vpc"
  region = "eu-west-2"
}

module "alb" {
  source = "./alb"
  providers = {
    aws          = aws
    aws.core-vpc = aws.core-vpc
  }
}

module "dns" {
  source = "./dns"
}
