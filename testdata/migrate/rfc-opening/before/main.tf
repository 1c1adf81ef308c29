provider "aws" {
  alias  = "us"
  region = "us-east-1"
}

# Copy pasted from above provider, with minor changes
provider "aws" {
  alias  = "eu"
  region = "eu-west-1"
}

resource "aws_s3_bucket" "primary_us" {
  provider = aws.us
}

resource "aws_s3_bucket" "primary_eu" {
  provider = aws.eu
}

module "mod_us" {
  source = "./mod"
  providers = {
    aws = aws.us
  }
}

module "mod_eu" {
  source = "./mod"
  providers = {
    aws = aws.eu
  }
}
