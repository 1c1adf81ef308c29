output "id" {
  value = "net-1"
}
