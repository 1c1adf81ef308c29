variable "region" {
  type = string
}

provider "aws" {
  alias  = "here"
  region = upper(var.region)
}
