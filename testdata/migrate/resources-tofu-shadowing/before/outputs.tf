output "vpc_ids" {
  value = [aws_vpc.vpc_use1.id, aws_vpc.vpc_euw1.id]
}

output "logs" {
  value = aws_s3_bucket.logs_euw1.arn
}
