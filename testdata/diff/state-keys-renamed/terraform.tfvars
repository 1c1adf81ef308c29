regions = {
  euw1 = "eu-west-1"
  use1 = "us-east-1"
}
