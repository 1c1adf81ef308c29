variable "buckets" {
  type = list(string)
}

resource "aws_s3_bucket" "logs" {
  for_each = toset(var.buckets)
}
