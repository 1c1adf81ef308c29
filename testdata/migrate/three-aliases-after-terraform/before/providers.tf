terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

provider "aws" {
  alias  = "a"
  region = "us-east-1"
}

provider "aws" {
  alias  = "b"
  region = "us-east-2"
}

provider "aws" {
  alias  = "c"
  region = "us-west-1"
}
