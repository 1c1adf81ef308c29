# A test file declares its own provider configurations: migrate leaves it alone and says so.
provider "aws" {
  alias  = "us"
  region = "us-east-1"
}

run "plan" {
  command = plan
  providers = {
    aws = aws.us
  }
}
