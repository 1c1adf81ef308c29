# The management account is reached directly; the others through a role.
provider "aws" {
  alias  = "mgmt"
  region = "us-east-1"
}

provider "aws" {
  alias  = "prod"
  region = "us-east-1"

  assume_role {
    role_arn     = "arn:aws:iam::111111111111:role/deploy"
    session_name = "deploy"
  }
}

provider "aws" {
  alias  = "stage"
  region = "us-east-1"

  assume_role {
    role_arn     = "arn:aws:iam::222222222222:role/deploy"
    session_name = "deploy"
  }
}

resource "aws_s3_bucket" "audit" {
  provider = aws.mgmt
}
