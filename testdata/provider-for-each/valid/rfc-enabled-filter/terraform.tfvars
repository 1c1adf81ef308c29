aws_regions = {
  us-east-1 = { vpc_cidr_block = "10.0.0.0/16" }
  eu-west-1 = { vpc_cidr_block = "10.1.0.0/16", enabled = false }
}
