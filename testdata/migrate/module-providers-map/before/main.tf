provider "aws" {
  alias  = "use1"
  region = "us-east-1"
}

provider "aws" {
  alias  = "euw1"
  region = "eu-west-1"
}

module "replica" {
  source = "./replica"
  providers = {
    aws.src = aws.use1
    aws.dst = aws.euw1
  }
}

module "plain" {
  source = "./replica"
  providers = {
    aws.src = aws.euw1
    aws.dst = aws.euw1
  }
}
