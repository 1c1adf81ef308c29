inputs = {
  token   = "from-the-wrapper"
  regions = { us = "us-east-1" }
}
