regions = {
  use1 = "us-east-1"
  euw1 = "eu-west-1"
}
