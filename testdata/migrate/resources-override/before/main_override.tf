# Overrides one copy of the VPCs: those copies are left alone.
resource "aws_vpc" "vpc_use1" {
  cidr_block = "10.9.0.0/16"
}

# Moves the audit bucket to the other region: its reference is rewritten like any other.
resource "aws_s3_bucket" "audit" {
  provider = aws.euw1
}

output "logs" {
  value = aws_s3_bucket.logs_euw1.arn
}
