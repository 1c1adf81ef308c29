regions = {
  use1  = { name = "us-east-1", cidr = "10.0.0.0/16" }
  euw1  = { name = "eu-west-1", cidr = "10.1.0.0/16" }
  apse1 = { name = "ap-southeast-1", cidr = "10.2.0.0/16", enabled = false }
}
