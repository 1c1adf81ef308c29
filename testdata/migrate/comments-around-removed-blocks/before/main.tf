# Providers, one per region.

# The primary region.
provider "aws" {
  alias  = "use1"
  region = "us-east-1" # N. Virginia
}

# Copied from use1 for Ireland.
provider "aws" {
  alias = "euw1"
  # Ireland
  region = "eu-west-1"
} # end of euw1

/*
 * Copied again, for Frankfurt.
 */
provider "aws" {
  alias  = "euc1"
  region = "eu-central-1"
}

# Buckets.

resource "aws_s3_bucket" "logs" {
  provider = aws.euc1
}
