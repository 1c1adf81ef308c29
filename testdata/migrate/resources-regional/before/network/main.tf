terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

variable "vpc_id" {
  type = string
}

resource "aws_route_table" "this" {
  vpc_id = var.vpc_id
}

output "route_table_id" {
  value = aws_route_table.this.id
}
