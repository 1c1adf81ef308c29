extra = {
  apse1 = "ap-southeast-1"
}
