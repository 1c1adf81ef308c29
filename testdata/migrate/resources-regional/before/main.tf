provider "aws" {
  alias  = "use1"
  region = "us-east-1"
}

provider "aws" {
  alias  = "euw1"
  region = "eu-west-1"
}

data "aws_availability_zones" "use1" {
  provider = aws.use1
  state    = "available"
}

data "aws_availability_zones" "euw1" {
  provider = aws.euw1
  state    = "available"
}

resource "aws_vpc" "vpc_use1" {
  provider   = aws.use1
  cidr_block = "10.0.0.0/16"

  tags = {
    Name = "main-use1"
  }
}

resource "aws_vpc" "vpc_euw1" {
  provider   = aws.euw1
  cidr_block = "10.1.0.0/16"

  tags = {
    Name = "main-euw1"
  }
}

resource "aws_subnet" "public_use1" {
  provider          = aws.use1
  vpc_id            = aws_vpc.vpc_use1.id
  cidr_block        = cidrsubnet(aws_vpc.vpc_use1.cidr_block, 8, 0)
  availability_zone = data.aws_availability_zones.use1.names[0]
}

resource "aws_subnet" "public_euw1" {
  provider          = aws.euw1
  vpc_id            = aws_vpc.vpc_euw1.id
  cidr_block        = cidrsubnet(aws_vpc.vpc_euw1.cidr_block, 8, 0)
  availability_zone = data.aws_availability_zones.euw1.names[0]
}

module "network_use1" {
  source = "./network"
  providers = {
    aws = aws.use1
  }
  vpc_id = aws_vpc.vpc_use1.id
}

module "network_euw1" {
  source = "./network"
  providers = {
    aws = aws.euw1
  }
  vpc_id = aws_vpc.vpc_euw1.id
}
