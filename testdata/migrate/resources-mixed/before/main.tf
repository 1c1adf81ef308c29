provider "aws" {
  alias  = "use1"
  region = "us-east-1"
}

provider "aws" {
  alias  = "euw1"
  region = "eu-west-1"
}

provider "aws" {
  alias  = "apse1"
  region = "ap-southeast-1"
}

resource "aws_s3_bucket" "audit" {}

resource "aws_s3_bucket" "archive" {}

# These merge.
resource "aws_s3_bucket" "logs_use1" {
  provider = aws.use1
  bucket   = "logs-use1"
}

resource "aws_s3_bucket" "logs_euw1" {
  provider = aws.euw1
  bucket   = "logs-euw1"
}

# Two of three regions, nothing differs: these merge too.
resource "aws_cloudwatch_log_group" "app_use1" {
  provider          = aws.use1
  retention_in_days = 30
}

resource "aws_cloudwatch_log_group" "app_euw1" {
  provider          = aws.euw1
  retention_in_days = 30
}

# Each refers to the other's copy for another region: merged, they would refer to each other, a cycle; the first
# set is left alone.
resource "aws_sns_topic" "ping_use1" {
  provider = aws.use1
  name     = "ping-use1"
  policy   = aws_sqs_queue.pong_euw1.arn
}

resource "aws_sns_topic" "ping_euw1" {
  provider = aws.euw1
  name     = "ping-euw1"
  policy   = "{}"
}

resource "aws_sqs_queue" "pong_use1" {
  provider = aws.use1
  name     = "pong-use1"
  policy   = aws_sns_topic.ping_euw1.arn
}

resource "aws_sqs_queue" "pong_euw1" {
  provider = aws.euw1
  name     = "pong-euw1"
  policy   = "{}"
}

# Already iterating: left alone.
resource "aws_instance" "web_use1" {
  count    = 2
  provider = aws.use1
}

resource "aws_instance" "web_euw1" {
  count    = 2
  provider = aws.euw1
}

# Different nested blocks: left alone.
resource "aws_security_group" "web_use1" {
  provider = aws.use1

  ingress {
    from_port = 443
    to_port   = 443
    protocol  = "tcp"
  }
}

resource "aws_security_group" "web_euw1" {
  provider = aws.euw1

  ingress {
    from_port = 443
    to_port   = 443
    protocol  = "tcp"
  }

  ingress {
    from_port = 80
    to_port   = 80
    protocol  = "tcp"
  }
}

# depends_on names different things: left alone.
resource "aws_sns_topic" "alerts_use1" {
  provider   = aws.use1
  depends_on = [aws_s3_bucket.audit]
}

resource "aws_sns_topic" "alerts_euw1" {
  provider   = aws.euw1
  depends_on = [aws_s3_bucket.archive]
}

# Only one region has it: left alone.
resource "aws_iam_role" "deploy_use1" {
  provider           = aws.use1
  assume_role_policy = "{}"
}

# Its name does not say which copy it is: left alone.
resource "aws_sqs_queue" "jobs" {
  provider = aws.euw1
}

output "log_buckets" {
  value = [aws_s3_bucket.logs_use1.id, aws_s3_bucket.logs_euw1.id, aws_security_group.web_use1.id]
}
