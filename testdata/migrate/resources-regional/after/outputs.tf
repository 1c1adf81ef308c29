output "vpc_ids" {
  value = {
    use1 = aws_vpc.vpc["use1"].id
    euw1 = aws_vpc.vpc["euw1"].id
  }
}

output "route_table" {
  value = "${module.network["use1"].route_table_id} in ${data.aws_availability_zones.this["use1"].id}"
}
