locals {
  # `enabled = false` on an entry destroys the resources merged for it while its provider instance
  # remains; remove the entry only once that has been applied.
  by_region = {
    use1 = {
      region  = "us-east-1"
      enabled = true
    }
    euw1 = {
      region  = "eu-west-1"
      enabled = true
    }
    apse1 = {
      region  = "ap-southeast-1"
      enabled = true
    }
  }
}

provider "aws" {
  alias    = "by_region"
  for_each = local.by_region

  region = each.value.region
}

resource "aws_s3_bucket" "audit" {}

resource "aws_s3_bucket" "archive" {}

# These merge.
locals {
  aws_s3_bucket_logs = {
    use1 = {
      bucket = "logs-use1"
    }
    euw1 = {
      bucket = "logs-euw1"
    }
  }
}

resource "aws_s3_bucket" "logs" {
  for_each = { for k, v in local.aws_s3_bucket_logs : k => v if local.by_region[k].enabled }

  provider = aws.by_region[each.key]
  bucket   = each.value.bucket
}

moved {
  from = aws_s3_bucket.logs_use1
  to   = aws_s3_bucket.logs["use1"]
}

moved {
  from = aws_s3_bucket.logs_euw1
  to   = aws_s3_bucket.logs["euw1"]
}

# Two of three regions, nothing differs: these merge too.
locals {
  aws_cloudwatch_log_group_app = {
    use1 = {}
    euw1 = {}
  }
}

resource "aws_cloudwatch_log_group" "app" {
  for_each = { for k, v in local.aws_cloudwatch_log_group_app : k => v if local.by_region[k].enabled }

  provider          = aws.by_region[each.key]
  retention_in_days = 30
}

moved {
  from = aws_cloudwatch_log_group.app_use1
  to   = aws_cloudwatch_log_group.app["use1"]
}

moved {
  from = aws_cloudwatch_log_group.app_euw1
  to   = aws_cloudwatch_log_group.app["euw1"]
}

# Each refers to the other's copy for another region: merged, they would refer to each other, a cycle; the first
# set is left alone.
resource "aws_sns_topic" "ping_use1" {
  provider = aws.by_region["use1"]
  name     = "ping-use1"
  policy   = aws_sqs_queue.pong["euw1"].arn
}

resource "aws_sns_topic" "ping_euw1" {
  provider = aws.by_region["euw1"]
  name     = "ping-euw1"
  policy   = "{}"
}

locals {
  aws_sqs_queue_pong = {
    use1 = {
      name   = "pong-use1"
      policy = aws_sns_topic.ping_euw1.arn
    }
    euw1 = {
      name   = "pong-euw1"
      policy = "{}"
    }
  }
}

resource "aws_sqs_queue" "pong" {
  for_each = { for k, v in local.aws_sqs_queue_pong : k => v if local.by_region[k].enabled }

  provider = aws.by_region[each.key]
  name     = each.value.name
  policy   = each.value.policy
}

moved {
  from = aws_sqs_queue.pong_use1
  to   = aws_sqs_queue.pong["use1"]
}

moved {
  from = aws_sqs_queue.pong_euw1
  to   = aws_sqs_queue.pong["euw1"]
}

# Already iterating: left alone.
resource "aws_instance" "web_use1" {
  count    = 2
  provider = aws.by_region["use1"]
}

resource "aws_instance" "web_euw1" {
  count    = 2
  provider = aws.by_region["euw1"]
}

# Different nested blocks: left alone.
resource "aws_security_group" "web_use1" {
  provider = aws.by_region["use1"]

  ingress {
    from_port = 443
    to_port   = 443
    protocol  = "tcp"
  }
}

resource "aws_security_group" "web_euw1" {
  provider = aws.by_region["euw1"]

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
  provider   = aws.by_region["use1"]
  depends_on = [aws_s3_bucket.audit]
}

resource "aws_sns_topic" "alerts_euw1" {
  provider   = aws.by_region["euw1"]
  depends_on = [aws_s3_bucket.archive]
}

# Only one region has it: left alone.
resource "aws_iam_role" "deploy_use1" {
  provider           = aws.by_region["use1"]
  assume_role_policy = "{}"
}

# Its name does not say which copy it is: left alone.
resource "aws_sqs_queue" "jobs" {
  provider = aws.by_region["euw1"]
}

output "log_buckets" {
  value = [aws_s3_bucket.logs["use1"].id, aws_s3_bucket.logs["euw1"].id, aws_security_group.web_use1.id]
}
