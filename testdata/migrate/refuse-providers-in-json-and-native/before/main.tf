provider "aws" {
  alias  = "use1"
  region = "us-east-1"
}
