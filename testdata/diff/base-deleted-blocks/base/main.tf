resource "aws_s3_bucket" "logs" {
  bucket = "logs"
}

resource "aws_sqs_queue" "jobs" {
  name = "jobs"
}

resource "aws_s3_bucket" "assets" {
  for_each = toset(["a", "b"])
  bucket   = each.key
}

resource "aws_sns_topic" "alerts" {
  name = "alerts"
}
