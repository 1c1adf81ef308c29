resource "aws_sqs_queue" "events" {
  provider = aws.by_region["euw1"]
  name     = "events"
}
