variable "name" {
  type = string
}

provider "aws" {
  alias    = "named"
  for_each = toset([var.name])
}

resource "aws_s3_bucket" "logs" {
  provider = aws.named["svc-green"]
  #                    ^^^^^^^^^^^ error[unknown-provider-instance]
}
