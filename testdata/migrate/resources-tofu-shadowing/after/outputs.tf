output "vpc_ids" {
  value = [aws_vpc.vpc["use1"].id, aws_vpc.vpc["euw1"].id]
}

output "logs" {
  value = aws_s3_bucket.logs["euw1"].arn
}
