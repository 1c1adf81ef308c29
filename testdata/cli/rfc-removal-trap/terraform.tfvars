aws_regions = {
  eu-west-1 = { vpc_cidr_block = "10.1.0.0/16" }
  us-east-1 = { vpc_cidr_block = "10.2.0.0/16" }
}
