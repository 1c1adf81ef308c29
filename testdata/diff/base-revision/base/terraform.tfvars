regions = {
  eu = "eu-west-1"
  us = "us-east-1"
}
