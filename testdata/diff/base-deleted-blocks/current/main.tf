# Storage.

resource "aws_s3_bucket" "logs" {
  bucket = "logs"
}

resource "aws_s3_bucket" "assets" {
  for_each = toset(["a", "b"])
  bucket   = each.key
}

removed {
  from = aws_sns_topic.alerts

  lifecycle {
    destroy = false
  }
}
