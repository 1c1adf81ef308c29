provider "aws" {
  alias  = "prod"
  region = "us-east-1"

  assume_role {
    role_arn = "arn:aws:iam::111111111111:role/deploy"
  }
}

provider "aws" {
  alias  = "dev"
  region = "us-east-1"
}
