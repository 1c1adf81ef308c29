variable "name" {
  type = string
}

resource "aws_vpc" "main" {
  cidr_block = "10.0.0.0/16"
  tags = {
    Region = var.name
  }
}

module "bucket" {
  source = "./modules/bucket"
  prefix = var.name
}
