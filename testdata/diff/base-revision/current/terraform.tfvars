regions = {
  us = "us-east-1"
  ap = "ap-south-1"
}
