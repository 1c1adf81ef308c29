terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

resource "aws_s3_bucket" "this" {}

output "bucket" {
  value = aws_s3_bucket.this.id
}
