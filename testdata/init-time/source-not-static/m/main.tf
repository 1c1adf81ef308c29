output "network_source" {
  value = "./network"
}
