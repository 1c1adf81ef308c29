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

# Copy pasted from above resource, with minor changes
resource "aws_s3_bucket" "primary_eu" {
  provider = aws.eu
}

module "mod_us" {
  source = "./mod"
  providers = {
    aws = aws.us
  }
}

# Copy pasted from above module, with minor changes
module "mod_eu" {
  source = "./mod"
  providers = {
    aws = aws.eu
  }
}

output "buckets" {
  value = [aws_s3_bucket.primary_us.arn, aws_s3_bucket.primary_eu.arn]
}

output "eu_bucket" {
  value = module.mod_eu.bucket
}
