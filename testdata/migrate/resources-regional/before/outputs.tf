output "vpc_ids" {
  value = {
    use1 = aws_vpc.vpc_use1.id
    euw1 = aws_vpc.vpc_euw1.id
  }
}

output "route_table" {
  value = "${module.network_use1.route_table_id} in ${data.aws_availability_zones.use1.id}"
}
