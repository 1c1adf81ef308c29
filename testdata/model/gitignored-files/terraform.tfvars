regions = {
  use1 = "us-east-1"
}
